/** Retrieval recall on examples in the generic format: each example's documents are opened as
 * tabs in a fresh library (same tabs reader, passage cutter and ranker as the extension), the
 * query is retrieved for, and the ranked passages are mapped back to documents. */
import { createLibrary } from '../../lib/retrieval/library';
import { createMemoryTabs } from '../../test/harness/memory-tabs';
import type { RankWeights } from '../../lib/retrieval/rank';
import { hashText } from '../../lib/core/text';
import type { Passage } from '../../lib/core/passage';
import { DEFAULT_SETTINGS } from '../../lib/settings/schema';
import type { BenchExample } from './format';

export interface RecallMetrics {
  n: number;
  recallAt2: number;
  recallAt5: number;
  /** Share of examples with every gold document in the top 2. */
  allGoldAt2: number;
  mrr: number;
}

export interface RecallReport {
  oneRound: RecallMetrics;
  twoRounds: RecallMetrics;
  byType: Record<string, { oneRound: RecallMetrics; twoRounds: RecallMetrics }>;
  ms: number;
}

export interface RecallOptions {
  passageChars?: number;
  weights?: Partial<RankWeights>;
  /** First-round passages handed to round 2 as its seed. */
  seedCount?: number;
}

function metrics(rows: { ranked: string[]; gold: string[] }[]): RecallMetrics {
  let r2 = 0;
  let r5 = 0;
  let all2 = 0;
  let mrr = 0;
  for (const { ranked, gold } of rows) {
    const g = new Set(gold);
    const at = (k: number) => ranked.slice(0, k).filter((d) => g.has(d)).length / Math.max(1, g.size);
    r2 += at(2);
    r5 += at(5);
    if (at(2) === 1) all2++;
    const first = ranked.findIndex((d) => g.has(d));
    if (first >= 0) mrr += 1 / (first + 1);
  }
  const n = rows.length || 1;
  const r = (x: number) => Math.round((x / n) * 10_000) / 10_000;
  return { n: rows.length, recallAt2: r(r2), recallAt5: r(r5), allGoldAt2: r(all2), mrr: r(mrr) };
}

const uniq = (xs: string[]): string[] => [...new Set(xs)];

/** Ranked document ids for one example: after round 1, and after round 2 (the best round-1
 * passage stays first; round 2, seeded by round 1, fills the next places). */
export async function rankExample(ex: BenchExample, opts: RecallOptions = {}): Promise<{ one: string[]; two: string[] }> {
  const docByUrl = new Map<string, string>();
  const tabs = ex.documents.map((d, i) => {
    const url = d.url ?? `https://bench.invalid/${encodeURIComponent(d.id)}`;
    docByUrl.set(url, d.id);
    return { id: i + 1, url, title: d.title, page: { url, hash: hashText(d.text), title: d.title, text: d.text, headings: [], lang: d.lang } };
  });
  const lib = createLibrary({
    search: DEFAULT_SETTINGS.search,
    privacy: { ...DEFAULT_SETTINGS.privacy, excludedDomains: [] },
    pipeline: { passageChars: opts.passageChars ?? DEFAULT_SETTINGS.pipeline.passageChars, passagesPerStep: 10 },
    tabs: createMemoryTabs(tabs),
    providers: [],
    weights: opts.weights,
  });
  const docs = (ps: Passage[]) => uniq(ps.map((p) => docByUrl.get(p.url) ?? p.url));
  const k = 50;
  const r1 = await lib.retrieve({ query: ex.query, k });
  const one = docs(r1.passages);
  const seed = r1.passages.slice(0, opts.seedCount ?? 1);
  const r2 = await lib.retrieve({ query: ex.query, k, round: 2, seed });
  const two = uniq([...docs(seed.slice(0, 1)), ...docs(r2.passages), ...one]);
  return { one, two };
}

export async function runRecall(examples: BenchExample[], opts: RecallOptions = {}): Promise<RecallReport> {
  const t0 = performance.now();
  const rows: { type: string; gold: string[]; one: string[]; two: string[] }[] = [];
  for (const ex of examples) {
    const { one, two } = await rankExample(ex, opts);
    rows.push({ type: ex.type ?? 'all', gold: ex.gold, one, two });
  }
  const byType: RecallReport['byType'] = {};
  for (const type of uniq(rows.map((r) => r.type))) {
    const sub = rows.filter((r) => r.type === type);
    byType[type] = { oneRound: metrics(sub.map((r) => ({ ranked: r.one, gold: r.gold }))), twoRounds: metrics(sub.map((r) => ({ ranked: r.two, gold: r.gold }))) };
  }
  return {
    oneRound: metrics(rows.map((r) => ({ ranked: r.one, gold: r.gold }))),
    twoRounds: metrics(rows.map((r) => ({ ranked: r.two, gold: r.gold }))),
    byType,
    ms: Math.round(performance.now() - t0),
  };
}
