/** Proximity evidence: a passage that answers a query usually holds the query's words together,
 * in one sentence; one that merely mentions them holds them apart. It decides which passage of a
 * page comes first, never which page: across pages, the words of a question are expected apart
 * (a two-hop question's second page shares few of them), and page-level evidence (titles, links)
 * must keep its places. */

/** The largest weight of distinct query words within a window of consecutive content words. */
export class ProximityScan {
  private readonly count = new Map<number, number>();
  private readonly mass: number;

  constructor(
    /** Query term id → its weight (idf). */
    private readonly weights: Map<number, number>,
    private readonly window: number,
  ) {
    let m = 0;
    for (const v of weights.values()) m += v;
    this.mass = m;
  }

  /** The best window's share of the query's weight, in `seq` (term ids in text order). */
  share(seq: ArrayLike<number>): number {
    const { count, weights, window } = this;
    if (this.mass <= 0) return 0;
    count.clear();
    let cur = 0;
    let best = 0;
    for (let i = 0; i < seq.length; i++) {
      const t = seq[i] as number;
      const v = weights.get(t);
      if (v !== undefined) {
        const c = count.get(t) ?? 0;
        if (c === 0) cur += v;
        count.set(t, c + 1);
        if (cur > best) best = cur;
      }
      // Leaves the window: the word `window` places back.
      const j = i - window + 1;
      if (j >= 0) {
        const o = seq[j] as number;
        const ov = weights.get(o);
        if (ov !== undefined) {
          const c = (count.get(o) ?? 0) - 1;
          count.set(o, c);
          if (c === 0) cur -= ov;
        }
      }
    }
    return best / this.mass;
  }
}

/** Reorders the passages of each page by score + bonus, handing them the page's own scores in
 * that order: a page's set of scores (so its places among other pages) stays the same. */
export function orderPagesByProximity<T extends { id: number; score: number }>(out: T[], docOf: ArrayLike<number>, bonus: (id: number) => number): void {
  const byDoc = new Map<number, T[]>();
  for (const x of out) {
    const d = docOf[x.id] as number;
    const list = byDoc.get(d);
    if (list) list.push(x);
    else byDoc.set(d, [x]);
  }
  for (const list of byDoc.values()) {
    if (list.length < 2) continue;
    const slots = list.map((x) => x.score).sort((a, b) => b - a);
    const keyed = list.map((x) => ({ x, key: x.score + bonus(x.id) }));
    keyed.sort((a, b) => b.key - a.key);
    keyed.forEach(({ x }, i) => (x.score = slots[i] as number));
  }
}
