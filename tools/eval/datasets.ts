/** Evaluation examples from JSONL. Each line becomes one Example: a question (answered in ask
 * mode) or a claim (checked in verify mode), the documents that form its library, and the gold
 * answer or label. Formats are recognised per line:
 *
 * - Generic (documented in README "Evaluation"):
 *     {"id": "q1", "question": "…", "answer": "…" | ["…", …], "documents": [{"title": "…", "text": "…", "url": "…", "html": "…" (optional: read with Readability)}] | ["text", …]}
 *     {"id": "c1", "claim": "…", "label": "SUPPORTS" | "REFUTES" | "NOT ENOUGH INFO", "documents": […]}
 * - HotpotQA distractor (`context: [[title, [sentences]]]`) and the HotpotQA site sample
 *   (`para_a`, `para_b`, `distractors`).
 * - FEVER (`claim`, `label`, `evidence_sentences`, `evidence_pages`): the gold sentence is the
 *   only document FEVER gives; other claims' evidence from the same file is added as distractors
 *   so the library is not just the answer.
 * - CLIMATE-FEVER (`claim`, `claim_label`, `evidences[]`). */
import type { MemoryDoc } from '../../test/harness/memory-library';

export type Label = 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO';

export interface Example {
  id: string;
  kind: 'question' | 'claim';
  text: string;
  documents: MemoryDoc[];
  /** Gold answers (question). */
  answers?: string[];
  /** Gold label (claim). DISPUTED (CLIMATE-FEVER) is kept apart and scored as its own class. */
  label?: Label | 'DISPUTED';
}

type Rec = Record<string, unknown>;

function wikiUrl(title: string): string {
  return `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`;
}

/** FEVER's tokenised wiki text back to plain text. */
export function detokenizeFever(s: string): string {
  return s
    .replace(/-LRB-/g, '(')
    .replace(/-RRB-/g, ')')
    .replace(/-LSB-/g, '[')
    .replace(/-RSB-/g, ']')
    .replace(/``\s*(.*?)\s*(?:``|'')/g, '"$1"') // quote pairs: FEVER writes `` x `` or `` x ''
    .replace(/``|''/g, '"')
    .replace(/\s+([.,;:!?)\]'])/g, '$1')
    .replace(/([([])\s+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A field of a dataset record as text: strings as they are, numbers and booleans written out;
 * anything else (missing, null, an object) is `fallback`. */
function textOr(v: unknown, fallback: string): string {
  if (typeof v === 'string') return v;
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback;
}

function label(v: unknown): Label | 'DISPUTED' | undefined {
  const s = textOr(v, '').toUpperCase().replace(/_/g, ' ');
  if (s === 'SUPPORTS' || s === 'REFUTES' || s === 'NOT ENOUGH INFO' || s === 'DISPUTED') return s;
  return undefined;
}

function docsFrom(v: unknown): MemoryDoc[] {
  if (!Array.isArray(v)) return [];
  return v.map((d, i) => {
    if (typeof d === 'string') return { url: `https://docs.local/${i}`, title: `Document ${i + 1}`, text: d };
    const r = d as Rec;
    const title = textOr(r.title, `Document ${i + 1}`);
    const html = typeof r.html === 'string' && r.html.trim() ? { html: r.html } : {};
    return { url: textOr(r.url, wikiUrl(title)), title, text: textOr(r.text ?? r.content, ''), ...html };
  });
}

export function parseLine(rec: Rec, n: number): Example | undefined {
  const id = textOr(rec._id ?? rec.id ?? rec.claim_id, String(n));
  // HotpotQA distractor.
  if (Array.isArray(rec.context) && typeof rec.question === 'string') {
    const documents = (rec.context as [string, string[]][]).map(([title, sents]) => ({ url: wikiUrl(title), title, text: sents.join('') }));
    return { id, kind: 'question', text: rec.question, answers: [String(rec.answer)], documents };
  }
  // HotpotQA site sample: gold and distractors are stored apart; order them by title so gold
  // paragraphs are not always first.
  if (Array.isArray(rec.para_a) && typeof rec.question === 'string') {
    const paras: [string, string[]][] = [[String(rec.title_a), rec.para_a as string[]], [String(rec.title_b), rec.para_b as string[]], ...((rec.distractors as [string, string[]][]) ?? [])];
    const documents = paras.map(([title, sents]) => ({ url: wikiUrl(title), title, text: sents.join(' ') })).sort((a, b) => a.title.localeCompare(b.title));
    return { id, kind: 'question', text: rec.question, answers: [String(rec.answer)], documents };
  }
  // CLIMATE-FEVER.
  if (typeof rec.claim === 'string' && Array.isArray(rec.evidences)) {
    const documents = (rec.evidences as Rec[]).map((e) => ({ url: wikiUrl(String(e.article)), title: String(e.article), text: String(e.evidence) }));
    return { id, kind: 'claim', text: rec.claim, label: label(rec.claim_label), documents };
  }
  // FEVER (documents are filled in by loadExamples, which sees the whole file).
  if (typeof rec.claim === 'string' && Array.isArray(rec.evidence_sentences)) {
    const pages = (rec.evidence_pages as string[]) ?? [];
    const documents = (rec.evidence_sentences as string[]).map((s, i) => {
      const title = detokenizeFever((pages[i] ?? pages[0] ?? 'Evidence').replace(/_/g, ' '));
      return { url: wikiUrl(title), title, text: detokenizeFever(s) };
    });
    return { id, kind: 'claim', text: rec.claim, label: label(rec.label), documents };
  }
  // Generic.
  if (typeof rec.question === 'string') {
    const a = rec.answer ?? rec.answers;
    return { id, kind: 'question', text: rec.question, answers: Array.isArray(a) ? a.map((x: unknown) => textOr(x, '')) : a !== undefined ? [textOr(a, '')] : [], documents: docsFrom(rec.documents) };
  }
  if (typeof rec.claim === 'string') return { id, kind: 'claim', text: rec.claim, label: label(rec.label), documents: docsFrom(rec.documents) };
  return undefined;
}

export interface LoadOptions {
  offset?: number;
  limit?: number;
  /** FEVER: distractor documents taken from other claims' evidence (default 4). */
  distractors?: number;
}

export function loadExamples(jsonl: string, o: LoadOptions = {}): Example[] {
  const all: Example[] = [];
  let n = 0;
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    const ex = parseLine(JSON.parse(line) as Rec, n++);
    if (ex) all.push(ex);
  }
  // FEVER-style claims whose library would be only their own gold sentence (or nothing): add
  // other claims' evidence, picked deterministically, as distractors.
  const pool = all.filter((e) => e.kind === 'claim').flatMap((e) => e.documents);
  const k = o.distractors ?? 4;
  if (pool.length) {
    all.forEach((e, i) => {
      if (e.kind !== 'claim' || e.documents.length > 2) return;
      const own = new Set(e.documents.map((d) => d.text));
      for (let j = 0, added = 0; j < pool.length && added < k; j++) {
        const d = pool[(i * 7919 + j * 104729) % pool.length];
        if (!d || own.has(d.text)) continue;
        own.add(d.text);
        e.documents.push(d);
        added++;
      }
    });
  }
  const start = o.offset ?? 0;
  return all.slice(start, o.limit !== undefined ? start + o.limit : undefined);
}
