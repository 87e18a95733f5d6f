/** The first two places as a pair: two pages whose titles match the same words of the query
 * ("Ed Wood" and "Ed Wood (film)") are partly redundant, so a query naming two things gets both
 * rather than two pages about the first. Only the order of the best few changes. */
import type { TitleHit } from './title-match';

export interface Ranked {
  id: number;
  score: number;
}

/** Reorders `out` (best first) in place. `docOf` maps an item id to its page; `placed` are pages
 * found by earlier rounds, which hold the first places already. */
export function diversifyTop<T extends Ranked>(out: T[], docOf: ArrayLike<number>, hits: TitleHit[], penalty: number, placed: number[], m = 4): void {
  if (out.length < 2) return;
  const hitOf = new Map(hits.map((h) => [h.d, h]));
  const top = out.slice(0, m);
  const redundancyOf = (dx: number, dy: number): number => {
    if (dx === dy) return 0;
    const hx = hitOf.get(dx);
    const hy = hitOf.get(dy);
    if (!hx || !hy) return 0;
    const [lo, hi] = hx.v <= hy.v ? [hx, hy] : [hy, hx];
    const claimed = new Set(hi.at);
    const overlap = lo.at.filter((i) => claimed.has(i)).length / Math.max(1, lo.at.length);
    return lo.v * overlap * penalty;
  };
  // Every ranked id is an item id, and docOf has one entry per item.
  const pageOf = (p: T): number => docOf[p.id]!;
  if (placed.length) {
    const adj = top.map((p) => p.score - Math.max(0, ...placed.map((d) => redundancyOf(pageOf(p), d))));
    const at = adj.indexOf(Math.max(...adj));
    const chosen = top[at];
    if (at > 0 && chosen) out.splice(0, out.length, chosen, ...out.filter((_, i) => i !== at));
    return;
  }
  const [p0, p1] = top;
  if (out.length < 3 || !p0 || !p1) return;
  const pairScore = (x: T, y: T) => x.score + y.score - redundancyOf(pageOf(x), pageOf(y));
  let best = { x: 0, y: 1, first: [p0, p1], score: pairScore(p0, p1) };
  for (const [x, px] of top.entries())
    for (const [y, py] of top.entries()) {
      if (y <= x) continue;
      const v = pairScore(px, py);
      if (v > best.score + 1e-9) best = { x, y, first: [px, py], score: v };
    }
  if (best.x === 0 && best.y === 1) return;
  const rest = out.filter((_, i) => i !== best.x && i !== best.y);
  out.splice(0, out.length, ...best.first, ...rest);
}

/** Spreads pages through a ranking (best first): each passage moves down `step` places for every
 * better passage of its own page. Page-level evidence (a title match, a link) lifts all of one
 * page's passages together; this keeps a second relevant page from being pushed out of the top k
 * by the first page's weaker passages, while the best passage of each page keeps its place. */
export function spreadPages<T>(list: T[], page: (t: T) => string, step: number): T[] {
  if (step <= 0 || list.length < 3) return list;
  const seen = new Map<string, number>();
  const keyed = list.map((item, i) => {
    const p = page(item);
    const n = seen.get(p) ?? 0;
    seen.set(p, n + 1);
    return { item, key: i + step * n, i };
  });
  keyed.sort((a, b) => a.key - b.key || a.i - b.i);
  return keyed.map((x) => x.item);
}
