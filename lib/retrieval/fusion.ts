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
