/** The ranker's entry points. The pieces live in modules named after what they do:
 * tokenize.ts (the one tokenizer and stopword list), analyze.ts (page analysis), passage-index.ts
 * (BM25F with title, pair and link evidence), title-match.ts, diversify.ts, fusion.ts (RRF),
 * weights.ts. `rankPassages` ranks a handful of passages without a long-lived index (the refiner,
 * the page the user is on, test libraries). */
import { analyzeDoc } from './analyze';
import { PassageIndex, type ScoredPassage } from './passage-index';
import type { Passage } from '../core/passage';
import type { RankWeights } from './weights';

export { analyzeDoc, type AnalyzedDoc, type AnalyzedPassage } from './analyze';
export { fuseByRank } from './fusion';
export { PassageIndex, type ScoredPassage, type SearchOptions } from './passage-index';
export { DEFAULT_WEIGHTS, type RankWeights } from './weights';

/** `passages` ranked for `query` by the shipped ranker, statistics taken from the passages
 * themselves (grouped into pages by URL). Only passages with some evidence are returned. */
export function rankPassages(query: string, passages: Passage[], k = passages.length, weights?: Partial<RankWeights>): ScoredPassage[] {
  const index = new PassageIndex(weights);
  const byUrl = new Map<string, Passage[]>();
  for (const p of passages) {
    const list = byUrl.get(p.url);
    if (list) list.push(p);
    else byUrl.set(p.url, [p]);
  }
  for (const [url, list] of byUrl) index.add(analyzeDoc(url, list[0]?.title ?? '', list, index.weights));
  return index.search(query, { k, candidates: Math.max(100, k) }).slice(0, k);
}
