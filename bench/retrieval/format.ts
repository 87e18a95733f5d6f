/** The benchmark's generic input format, one JSON object per line:
 *
 *   { "id": "q1",                      // optional
 *     "query": "Were Scott Derrickson and Ed Wood of the same nationality?",
 *     "documents": [ { "id": "d1", "title": "Scott Derrickson", "text": "…", "url": "…" }, … ],
 *     "gold": ["d1", "d4"],             // ids of the documents that hold the answer
 *     "type": "comparison" }            // optional, reported separately
 *
 * Each example's documents become open tabs (url defaults to https://bench.invalid/<id>), the
 * query goes to the library as the pipeline would send it. */
import { readFileSync } from 'node:fs';

export interface BenchDocument {
  id: string;
  title: string;
  text: string;
  url?: string;
  lang?: string;
}

export interface BenchExample {
  id?: string;
  query: string;
  documents: BenchDocument[];
  gold: string[];
  type?: string;
}

export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function loadBench(path: string): BenchExample[] {
  return readJsonl<BenchExample>(path);
}

interface HotpotRecord {
  _id: string;
  question: string;
  type?: string | null;
  context: [string, string[]][];
  supporting_titles?: string[];
  supporting_facts?: [string, number][] | null;
}

/** HotpotQA distractor records → generic examples: the 10 paragraphs as documents (id = title),
 * the gold paragraphs from `supporting_titles` (or the titles in `supporting_facts`). */
export function fromHotpot(r: HotpotRecord): BenchExample {
  const gold = r.supporting_titles ?? [...new Set((r.supporting_facts ?? []).map(([t]) => t))];
  return {
    id: r._id,
    query: r.question,
    type: r.type ?? undefined,
    gold,
    documents: r.context.map(([title, sentences]) => ({
      id: title,
      title,
      text: sentences.join(''),
      url: `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`,
    })),
  };
}

export function loadHotpot(path: string): BenchExample[] {
  return readJsonl<HotpotRecord>(path).map(fromHotpot);
}
