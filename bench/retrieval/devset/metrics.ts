/** Scoring a ranked list of passages against a question's gold spans.
 *
 * A retrieved passage is a **gold passage** when it comes from a gold page and its character
 * range [start, end) in that page's readable text covers at least half of one gold span's
 * characters (GOLD_COVER). So a passage that holds the answer sentence counts, as does one that
 * holds most of it when a passage boundary cuts it; a passage that merely sits next to it does
 * not. Ranks are 1-based over the list as retrieve() returns it (after de-duplication). */
import { LEXICALLY_REACHABLE, type Category, type DevQuestion, type Part } from './dataset';

export const GOLD_COVER = 0.5;

/** Anything with a page and an offset range in that page's readable text. */
export interface RankedUnit {
  page: string;
  start: number;
  end: number;
  chars: number;
}

export interface GoldRange {
  page: string;
  start: number;
  end: number;
}

export interface QuestionResult {
  id: string;
  category: Category;
  part: Part;
  /** Rank of the first gold passage (1-based), or 0 when none was returned. */
  firstGoldRank: number;
  /** Per gold page, the rank of its first gold passage (0: not returned). */
  goldPageRanks: Record<string, number>;
  /** Distinct pages among the top 5. */
  pagesAt5: number;
  /** Mean characters of the top 5. */
  charsAt5: number;
  /** Content words the question shares with the text around its gold span (dataset.ts
   * `sharedWords`). */
  sharedWords: number;
}

export function isGold(u: RankedUnit, gold: GoldRange[]): boolean {
  return gold.some((g) => {
    if (g.page !== u.page) return false;
    const overlap = Math.min(u.end, g.end) - Math.max(u.start, g.start);
    return overlap >= GOLD_COVER * (g.end - g.start);
  });
}

export function scoreQuestion(q: DevQuestion, ranked: RankedUnit[], gold: GoldRange[], sharedWords: number): QuestionResult {
  const goldPageRanks: Record<string, number> = {};
  for (const g of gold) goldPageRanks[g.page] = 0;
  let firstGoldRank = 0;
  ranked.forEach((u, i) => {
    if (!isGold(u, gold)) return;
    if (!firstGoldRank) firstGoldRank = i + 1;
    if (!goldPageRanks[u.page]) goldPageRanks[u.page] = i + 1;
  });
  const top5 = ranked.slice(0, 5);
  return {
    id: q.id,
    category: q.category,
    part: q.part,
    firstGoldRank,
    goldPageRanks,
    pagesAt5: new Set(top5.map((u) => u.page)).size,
    charsAt5: top5.length ? top5.reduce((s, u) => s + u.chars, 0) / top5.length : 0,
    sharedWords,
  };
}

export interface Metrics {
  n: number;
  /** Share of questions with a gold passage in the top 5 / at rank 1. */
  top5: number;
  top1: number;
  /** Mean reciprocal rank of the first gold passage (0 when it was not returned). */
  mrr: number;
  /** Share of questions whose every gold page has a gold passage in the top 5 (for single-page
   * questions the same as top5; reported for multi-page questions). */
  allPagesAt5: number;
  /** Mean rank of the worst-placed gold page, counting "not returned" as the list length + 1. */
  meanLastGoldPageRank: number;
  /** Mean number of distinct pages among the top 5. */
  pagesAt5: number;
  /** Mean characters of a top-5 passage. */
  charsAt5: number;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

export function aggregate(rows: QuestionResult[], listLength: number): Metrics {
  const n = rows.length;
  const mean = (f: (r: QuestionResult) => number) => (n ? r3(rows.reduce((s, r) => s + f(r), 0) / n) : 0);
  return {
    n,
    top5: mean((r) => (r.firstGoldRank > 0 && r.firstGoldRank <= 5 ? 1 : 0)),
    top1: mean((r) => (r.firstGoldRank === 1 ? 1 : 0)),
    mrr: mean((r) => (r.firstGoldRank ? 1 / r.firstGoldRank : 0)),
    allPagesAt5: mean((r) => (Object.values(r.goldPageRanks).every((k) => k > 0 && k <= 5) ? 1 : 0)),
    meanLastGoldPageRank: Math.round(mean((r) => Math.max(...Object.values(r.goldPageRanks).map((k) => k || listLength + 1))) * 10) / 10,
    pagesAt5: mean((r) => r.pagesAt5),
    charsAt5: Math.round(mean((r) => r.charsAt5)),
  };
}

export interface PartReport {
  all: Metrics;
  byCategory: Partial<Record<Category, Metrics>>;
  /** Split by whether the question shares enough words with its answer to be found by words. */
  byReach: { reachable: Metrics; unreachable: Metrics };
}

export function report(rows: QuestionResult[], listLength: number, categories: readonly Category[]): PartReport {
  const byCategory: PartReport['byCategory'] = {};
  for (const c of categories) {
    const sub = rows.filter((r) => r.category === c);
    if (sub.length) byCategory[c] = aggregate(sub, listLength);
  }
  const reachable = rows.filter((r) => r.sharedWords >= LEXICALLY_REACHABLE);
  const unreachable = rows.filter((r) => r.sharedWords < LEXICALLY_REACHABLE);
  return { all: aggregate(rows, listLength), byCategory, byReach: { reachable: aggregate(reachable, listLength), unreachable: aggregate(unreachable, listLength) } };
}
