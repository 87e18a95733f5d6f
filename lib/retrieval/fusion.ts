/** Rank fusion: several rankings of the same items (lexical and dense, or one per query) become
 * one, by reciprocal rank (RRF). */

/** Reciprocal rank fusion: each list adds weight / (c + rank) to an item's score. */
export function fuseByRank<T>(lists: T[][], key: (t: T) => string, c = 60, weights?: number[]): T[] {
  const score = new Map<string, number>();
  const first = new Map<string, T>();
  lists.forEach((list, li) => {
    const w = weights?.[li] ?? 1;
    list.forEach((t, r) => {
      const k = key(t);
      score.set(k, (score.get(k) ?? 0) + w / (c + r + 1));
      if (!first.has(k)) first.set(k, t);
    });
  });
  return [...first.entries()].sort((a, b) => (score.get(b[0]) ?? 0) - (score.get(a[0]) ?? 0)).map(([, t]) => t);
}

export interface Scored<T> {
  passage: T;
  score: number;
}

/** Convex fusion of one lexical and one dense ranking of the same query, by normalised score:
 * (1 − w) · lexical / best lexical + w · (cosine − floor) / (best cosine − floor), where the
 * floor is the last cosine in the dense list (so only the dense list's own top counts). Unlike
 * RRF, a dense list over the whole library cannot push lexically strong passages down with
 * near-random neighbours: a passage gains in proportion to how far its cosine stands out. */
export function fuseByScore<T>(lexical: Scored<T>[], dense: Scored<T>[], key: (t: T) => string, w: number): T[] {
  const score = new Map<string, number>();
  const item = new Map<string, T>();
  const maxL = Math.max(0, ...lexical.map((x) => x.score));
  for (const x of lexical) {
    const k = key(x.passage);
    item.set(k, x.passage);
    score.set(k, maxL > 0 ? ((1 - w) * Math.max(0, x.score)) / maxL : 0);
  }
  const top = dense[0]?.score ?? 0;
  const floor = dense.at(-1)?.score ?? 0;
  if (top > floor)
    for (const x of dense) {
      const k = key(x.passage);
      if (!item.has(k)) item.set(k, x.passage);
      score.set(k, (score.get(k) ?? 0) + (w * (x.score - floor)) / (top - floor));
    }
  return [...item.keys()].sort((a, b) => (score.get(b) ?? 0) - (score.get(a) ?? 0)).map((k) => item.get(k) as T);
}
