/** The ranker's weights, and the defaults tuned on the benchmarks (bench/retrieval). */

export interface RankWeights {
  k1: number;
  b: number;
  /** Field weights added to a term's frequency for each occurrence in the title / heading path. */
  title: number;
  heading: number;
  /** Bonus (× the best BM25 score) when the query names the page's title. */
  titleMatch: number;
  /** Bonus (× idf) per query word pair found adjacent in the passage. */
  pair: number;
  /** Later rounds: bonus (× the best BM25 score) for a page named in a seed passage. */
  bridge: number;
  /** Later rounds: query weight of words from the seed passages, relative to the query's own. */
  seedTerms: number;
  /** Idf mass at which a title match counts fully (titles of common words count less). */
  titleMass: number;
  /** Round 2: penalty (× the best BM25 score) for a passage whose words mostly repeat the seed's:
   * a later round looks for the next hop, not more of the same. */
  novelty: number;
  /** First round: bonus (× the best BM25 score) for a page named by the best passage found so far
   * (pseudo-relevance feedback inside one search: the bridge entity of a two-hop question). The
   * page is never lifted above the passage that names it. */
  link: number;
  /** How many of the best passages (from distinct pages) feed the round-1 link bonus. */
  linkFrom: number;
  /** For the first two places: share of the title bonus kept by a page whose title matches the
   * same query words as a better match's (1 = no pairing of the first two places). */
  titleShare: number;
  /** Confidence floor for a title the query names as a phrase written with capitals, however
   * common its words are in the library (an idf from a few tabs misjudges names). */
  capsConf: number;
  /** Within a page only (proximity.ts): bonus (× the best BM25 score) for the share of the
   * query's word weight found within one window of `proximityWindow` content words of a passage
   * (about a sentence); it orders the page's passages, never the pages. */
  proximity: number;
  proximityWindow: number;
}

export const DEFAULT_WEIGHTS: RankWeights = {
  k1: 1.2,
  b: 0.75,
  title: 1.5,
  heading: 0.5,
  // Tuned on HotpotQA dev (bench/retrieval): see bench/results/retrieval.json.
  titleMatch: 2,
  pair: 1,
  bridge: 1,
  seedTerms: 0.1,
  titleMass: 2,
  novelty: 0,
  link: 1,
  linkFrom: 1,
  titleShare: 0,
  capsConf: 0.5,
  // Chosen on the development set's tuning part (bench/README.md).
  proximity: 1,
  proximityWindow: 20,
};

