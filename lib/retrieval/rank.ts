/** The lexical ranker: BM25 over passages with the page title and heading path as extra fields
 * (BM25F-style, fixed weights), re-scored with evidence a bag of words misses:
 *  - the page title named in the query (trusted more when the query writes it with capitals);
 *  - query word pairs found adjacent in the passage;
 *  - pages named by the best passage found so far (feedback inside one search, for the bridge
 *    entity of a two-hop question), and in a later round, pages named by the seed passages;
 *  - the first two places taken as a pair, so that two pages matching the same name in the query
 *    ("Ed Wood", "Ed Wood (film)") do not crowd out the second thing it names.
 * Also: rank fusion (RRF) for optional dense scores. */
import type { Passage } from './types';
import { tokenize, tokenizeCased, titleVariants } from './tokenize';

/** One process-wide term dictionary, so cached analyses of pages stay valid across indexes. */
const dict = new Map<string, number>();
function termId(t: string): number {
  let id = dict.get(t);
  if (id === undefined) {
    id = dict.size;
    dict.set(t, id);
  }
  return id;
}
const lookup = (t: string): number => dict.get(t) ?? -1;

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
};

export interface AnalyzedPassage {
  passage: Passage;
  /** Distinct term ids and their field-weighted frequencies. */
  terms: Uint32Array;
  weights: Float32Array;
  /** Body length in tokens (BM25 length normalisation). */
  len: number;
  /** Body token ids in order, for pair and shingle checks. */
  seq: Uint32Array;
}

export interface AnalyzedDoc {
  url: string;
  title: string;
  /** Title variants as token-id sequences (for "the query names this page"). */
  titleSeqs: Uint32Array[];
  passages: AnalyzedPassage[];
}

/** Tokenizes one page's passages; the result is cacheable (pure function of the passages). */
export function analyzeDoc(url: string, title: string, passages: Passage[], w: Pick<RankWeights, 'title' | 'heading'> = DEFAULT_WEIGHTS): AnalyzedDoc {
  const titleIds = tokenize(title).map(termId);
  // Full title first (a match on it counts most), then its shortened variants.
  const seen = new Set<string>();
  const titleSeqs: Uint32Array[] = [];
  for (const v of [title, ...titleVariants(title)]) {
    const seq = tokenize(v).map(termId);
    const key = seq.join(',');
    if (seq.length && !seen.has(key)) {
      seen.add(key);
      titleSeqs.push(Uint32Array.from(seq));
    }
  }
  const headingCache = new Map<string, number[]>();
  const analyzed = passages.map((p): AnalyzedPassage => {
    const seq = tokenize(p.text).map(termId);
    const tf = new Map<number, number>();
    for (const t of seq) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of titleIds) tf.set(t, (tf.get(t) ?? 0) + w.title);
    const hk = p.headingPath.join('\n');
    let hids = headingCache.get(hk);
    if (!hids) headingCache.set(hk, (hids = tokenize(hk).map(termId)));
    for (const t of hids) tf.set(t, (tf.get(t) ?? 0) + w.heading);
    const terms = new Uint32Array(tf.size);
    const weights = new Float32Array(tf.size);
    let i = 0;
    for (const [t, f] of tf) {
      terms[i] = t;
      weights[i++] = f;
    }
    return { passage: p, terms, weights, len: Math.max(1, seq.length), seq: Uint32Array.from(seq) };
  });
  return { url, title, titleSeqs, passages: analyzed };
}

export interface SearchOptions {
  k: number;
  /** Passages found by earlier rounds: their words widen the query and the pages they name get a
   * bridge bonus. They are not returned again. */
  seed?: Passage[];
  /** Passage ids never to return. */
  exclude?: Set<string>;
  /** Passages considered for the phrase re-scoring (after BM25 and the title bonus). */
  candidates?: number;
}

export interface ScoredPassage {
  passage: Passage;
  score: number;
}

/** Where `needle` first occurs contiguously in `hay`, or -1. */
function indexOfSeq(hay: ArrayLike<number>, needle: ArrayLike<number>): number {
  const n = needle.length;
  if (n === 0 || n > hay.length) return -1;
  outer: for (let i = 0; i + n <= hay.length; i++) {
    if (hay[i] !== needle[0]) continue;
    for (let j = 1; j < n; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
const containsSeq = (hay: ArrayLike<number>, needle: ArrayLike<number>): boolean => indexOfSeq(hay, needle) >= 0;

export class PassageIndex {
  readonly weights: RankWeights;
  private docs = new Map<string, AnalyzedDoc>();
  private items: AnalyzedPassage[] = [];
  private docOf = new Uint32Array(0);
  private docList: AnalyzedDoc[] = [];
  /** Postings in compressed-row form over the dense term ids: term t's passages are
   * postIds[start[t] .. start[t + 1]). Rebuilt in two counting passes when pages change, which is
   * several times faster than growing per-term arrays. */
  private start = new Uint32Array(1);
  private postIds = new Uint32Array(0);
  private postW = new Float32Array(0);
  private totalLen = 0;
  private dirty = false;
  private scores = new Float64Array(0);

  constructor(weights: Partial<RankWeights> = {}) {
    this.weights = { ...DEFAULT_WEIGHTS, ...weights };
  }

  get size(): number {
    this.refresh();
    return this.items.length;
  }

  has(url: string): boolean {
    return this.docs.has(url);
  }

  doc(url: string): AnalyzedDoc | undefined {
    return this.docs.get(url);
  }

  /** Adds (or replaces) one page; the postings are rebuilt before the next search. */
  add(doc: AnalyzedDoc): void {
    this.docs.set(doc.url, doc);
    this.dirty = true;
  }

  remove(url: string): void {
    if (this.docs.delete(url)) this.dirty = true;
  }

  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.docList = [...this.docs.values()];
    this.items = this.docList.flatMap((d) => d.passages);
    const docOf = new Uint32Array(this.items.length);
    const terms = dict.size;
    const count = new Uint32Array(terms + 1);
    let i = 0;
    let total = 0;
    this.totalLen = 0;
    this.docList.forEach((d, di) => {
      for (const a of d.passages) {
        docOf[i++] = di;
        this.totalLen += a.len;
        total += a.terms.length;
        for (let j = 0; j < a.terms.length; j++) count[a.terms[j]]++;
      }
    });
    const start = new Uint32Array(terms + 1);
    for (let t = 0, acc = 0; t < terms; t++) {
      start[t] = acc;
      acc += count[t];
      start[t + 1] = acc;
    }
    const fill = start.slice(0, terms);
    const ids = new Uint32Array(total);
    const w = new Float32Array(total);
    for (let id = 0; id < this.items.length; id++) {
      const a = this.items[id];
      for (let j = 0; j < a.terms.length; j++) {
        const at = fill[a.terms[j]]++;
        ids[at] = id;
        w[at] = a.weights[j];
      }
    }
    this.docOf = docOf;
    this.start = start;
    this.postIds = ids;
    this.postW = w;
  }

  private df(t: number): number {
    return t < 0 || t + 1 >= this.start.length ? 0 : this.start[t + 1] - this.start[t];
  }

  private titleMassOf(ts: ArrayLike<number>): number {
    let mass = 0;
    for (let i = 0; i < ts.length; i++) mass += this.idf(ts[i]);
    return mass;
  }

  private idf(t: number): number {
    const df = this.df(t);
    const n = this.items.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** The first two places as a pair: two pages whose titles match the same words of the query
   * ("Ed Wood" and "Ed Wood (film)") are partly redundant, so a query naming two things gets
   * both rather than two pages about the first. Only the order of the best few changes. */
  private diversifyTop(out: (ScoredPassage & { id: number })[], hits: { d: number; v: number; at: number[] }[], penalty: number, placed: number[], m = 4): void {
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
    const redundancy = (x: number, y: number) => redundancyOf(this.docOf[top[x].id], this.docOf[top[y].id]);
    if (placed.length) {
      // A later round: the pages found before hold the first places already.
      const adj = top.map((p) => p.score - Math.max(0, ...placed.map((d) => redundancyOf(this.docOf[p.id], d))));
      const at = adj.indexOf(Math.max(...adj));
      if (at > 0) out.splice(0, out.length, top[at], ...out.filter((_, i) => i !== at));
      return;
    }
    if (out.length < 3) return;
    let best = [0, 1];
    let bestScore = top[0].score + top[1].score - redundancy(0, 1);
    for (let x = 0; x < top.length; x++)
      for (let y = x + 1; y < top.length; y++) {
        const v = top[x].score + top[y].score - redundancy(x, y);
        if (v > bestScore + 1e-9) {
          bestScore = v;
          best = [x, y];
        }
      }
    if (best[0] === 0 && best[1] === 1) return;
    const first = [top[best[0]], top[best[1]]];
    const rest = out.filter((_, i) => i !== best[0] && i !== best[1]);
    out.splice(0, out.length, ...first, ...rest);
  }

  search(query: string, opts: SearchOptions): ScoredPassage[] {
    this.refresh();
    const w = this.weights;
    const n = this.items.length;
    if (n === 0) return [];
    if (this.scores.length < n) this.scores = new Float64Array(Math.max(n, this.scores.length * 2));
    const scores = this.scores;
    const avg = this.totalLen / n;

    const { tokens: qTokens, caps: qCaps } = tokenizeCased(query);
    const qSeq = qTokens.map(lookup);
    const qWeight = new Map<number, number>();
    for (const t of qSeq) if (t >= 0) qWeight.set(t, (qWeight.get(t) ?? 0) + 1);

    const seed = opts.seed ?? [];
    const seedIds = new Set(seed.map((p) => p.id));
    const seedSeqs: { seq: ArrayLike<number>; doc: string; rank: number }[] = [];
    if (seed.length) {
      const byId = new Map<string, AnalyzedPassage>();
      for (const a of this.items) if (seedIds.has(a.passage.id)) byId.set(a.passage.id, a);
      const seedTf = new Map<number, number>();
      for (const [rank, p] of seed.entries()) {
        const seq = byId.get(p.id)?.seq ?? Uint32Array.from(tokenize(p.text).map(lookup).filter((t) => t >= 0));
        seedSeqs.push({ seq, doc: p.url, rank });
        for (let i = 0; i < seq.length; i++) seedTf.set(seq[i], (seedTf.get(seq[i]) ?? 0) + 1);
      }
      // Seed words count once each (a long seed passage should not drown the query).
      for (const t of seedTf.keys()) qWeight.set(t, (qWeight.get(t) ?? 0) + w.seedTerms);
    }

    // BM25F over the posting lists of the query's terms.
    const touched: number[] = [];
    const ids = this.postIds;
    const tf = this.postW;
    for (const [t, qw] of qWeight) {
      if (this.df(t) === 0) continue;
      const idf = this.idf(t) * qw;
      for (let i = this.start[t], end = this.start[t + 1]; i < end; i++) {
        const id = ids[i];
        const a = this.items[id];
        const f = tf[i];
        if (scores[id] === 0) touched.push(id);
        scores[id] += (idf * f * (w.k1 + 1)) / (f + w.k1 * (1 - w.b + (w.b * a.len) / avg));
      }
    }

    // Page-level bonuses: the query names the page; a seed passage names the page. Both are
    // relative to the best BM25 score, so they mean the same for short and long queries.
    let maxBm = 0;
    for (const id of touched) if (scores[id] > maxBm) maxBm = scores[id];
    if (maxBm === 0) maxBm = 1;
    const qSet = new Set(qSeq);
    const exclude = opts.exclude;
    const eligible = (id: number) => !seedIds.has(this.items[id].passage.id) && !exclude?.has(this.items[id].passage.id);
    /** Adds a page-level bonus to every passage of each page (a named page becomes a candidate
     * even with no query word in its body). */
    const addDocBonus = (docBonus: Map<number, number>) => {
      if (!docBonus.size) return;
      for (let id = 0; id < n; id++) {
        const b = docBonus.get(this.docOf[id]);
        if (b === undefined) continue;
        if (scores[id] === 0) touched.push(id);
        scores[id] += b;
      }
    };
    /** Confidence that `seqs` name the page (its title variants), 0 when none does. */
    const named = (doc: AnalyzedDoc, seqs: { seq: ArrayLike<number>; doc: string; rank: number }[]): number => {
      let best = 0;
      doc.titleSeqs.forEach((ts, vi) => {
        const mass = this.titleMassOf(ts);
        if (mass === 0) return;
        const conf = Math.min(1, mass / w.titleMass);
        const exact = vi === 0 ? 1 : 0.85;
        // A page named by a better-ranked passage (not its own page) is a likelier bridge.
        const s = seqs.find((x) => x.doc !== doc.url && containsSeq(x.seq, ts));
        if (s) best = Math.max(best, (exact * conf) / (1 + s.rank));
      });
      return best;
    };
    // Which page the query names, and where in the query: each page's best title match.
    const titleHits: { d: number; v: number; at: number[] }[] = [];
    this.docList.forEach((doc, d) => {
      let title = 0;
      let at: number[] = [];
      doc.titleSeqs.forEach((ts, vi) => {
        let mass = 0;
        let hit = 0;
        for (let i = 0; i < ts.length; i++) {
          const idf = this.idf(ts[i]);
          mass += idf;
          if (qSet.has(ts[i])) hit += idf;
        }
        if (mass === 0 || hit === 0) return;
        // Titles made of common words ("Make Love") are weak evidence even when matched.
        let conf = Math.min(1, mass / w.titleMass);
        // The full title counts a little more than a shortened variant ("Ed Wood" for "Ed Wood (film)").
        const exact = vi === 0 ? 1 : 0.85;
        const frac = hit / mass;
        // Named as a phrase > all its words present > some of them.
        const pos = indexOfSeq(qSeq, ts);
        // …unless the query writes them as a name: every word capitalised.
        if (pos >= 0 && conf < w.capsConf) {
          let capsAll = true;
          for (let i = pos; i < pos + ts.length; i++) capsAll &&= qCaps[i];
          if (capsAll) conf = w.capsConf;
        }
        const v = (pos >= 0 ? exact : frac > 0.999 ? 0.6 * exact : 0.3 * frac * frac) * conf;
        if (v > title) {
          title = v;
          if (pos >= 0) at = Array.from(ts, (_, i) => pos + i);
          else {
            const tset = new Set(ts);
            at = [];
            qSeq.forEach((t, i) => tset.has(t) && at.push(i));
          }
        }
      });
      if (title > 0) titleHits.push({ d, v: title, at });
    });
    const docBonus = new Map<number, number>();
    for (const h of titleHits) docBonus.set(h.d, h.v * w.titleMatch * maxBm);
    if (seedSeqs.length)
      this.docList.forEach((doc, d) => {
        const bridge = named(doc, seedSeqs);
        if (bridge > 0) docBonus.set(d, (docBonus.get(d) ?? 0) + bridge * w.bridge * maxBm);
      });
    addDocBonus(docBonus);

    if (!seedSeqs.length && w.link > 0 && w.linkFrom > 0) {
      // Feedback inside the round: the best passages so far (one per page) name further pages.
      const best = new Map<number, number>();
      for (const id of touched) {
        if (!eligible(id)) continue;
        const d = this.docOf[id];
        const b = best.get(d);
        if (b === undefined || scores[id] > scores[b]) best.set(d, id);
      }
      const top = [...best.values()].sort((x, y) => scores[y] - scores[x]).slice(0, w.linkFrom);
      const fb = top.map((id, rank) => ({ seq: this.items[id].seq, doc: this.items[id].passage.url, rank }));
      if (fb.length) {
        // A page found through the best passage never overtakes it: its evidence is that passage.
        const cap = scores[top[0]] * 0.999;
        const linkBonus = new Map<number, number>();
        this.docList.forEach((doc, d) => {
          const v = named(doc, fb);
          if (v > 0) linkBonus.set(d, v * w.link * maxBm);
        });
        for (let id = 0; id < n; id++) {
          const b = linkBonus.get(this.docOf[id]);
          if (b === undefined) continue;
          const s = scores[id];
          if (s === 0) touched.push(id);
          scores[id] = s >= cap ? s : Math.min(cap, s + b);
        }
      }
    }

    let cands = touched.filter(eligible);
    cands.sort((x, y) => scores[y] - scores[x]);
    cands = cands.slice(0, Math.max(opts.candidates ?? 100, opts.k));

    // Query word pairs found next to each other in the passage (names, phrases).
    const pairs = new Map<number, Map<number, number>>();
    for (let i = 0; i + 1 < qSeq.length; i++) {
      const a = qSeq[i];
      const b = qSeq[i + 1];
      if (a < 0 || b < 0) continue;
      let m = pairs.get(a);
      if (!m) pairs.set(a, (m = new Map()));
      m.set(b, (this.idf(a) + this.idf(b)) / 2);
    }
    const seedTerms = new Set<number>();
    if (w.novelty > 0) for (const x of seedSeqs) for (let i = 0; i < x.seq.length; i++) seedTerms.add(x.seq[i]);
    const out: (ScoredPassage & { id: number })[] = cands.map((id) => {
      let s = scores[id];
      if (seedTerms.size) {
        const a = this.items[id];
        let shared = 0;
        let all = 0;
        for (let i = 0; i < a.terms.length; i++) {
          const idf = this.idf(a.terms[i]);
          all += idf;
          if (seedTerms.has(a.terms[i])) shared += idf;
        }
        if (all > 0) s -= (w.novelty * shared * maxBm) / all;
      }
      if (pairs.size) {
        const seq = this.items[id].seq;
        const seen = new Set<number>();
        for (let i = 0; i + 1 < seq.length; i++) {
          const v = pairs.get(seq[i])?.get(seq[i + 1]);
          const key = seq[i] * 1_000_003 + seq[i + 1];
          if (v !== undefined && !seen.has(key)) {
            seen.add(key);
            s += v * w.pair;
          }
        }
      }
      return { passage: this.items[id].passage, score: s, id };
    });
    for (const id of touched) scores[id] = 0;
    const seedDocs = [...new Set(seedSeqs.map((x) => this.docList.findIndex((d) => d.url === x.doc)).filter((d) => d >= 0))];
    out.sort((x, y) => y.score - x.score);
    if (w.titleShare < 1 && titleHits.length > 1) this.diversifyTop(out, titleHits, w.titleMatch * maxBm * (1 - w.titleShare), seedDocs);
    return out.map(({ passage, score }) => ({ passage, score }));
  }

}

/** Reciprocal rank fusion: each list adds 1 / (c + rank) to an item's score. */
export function fuseByRank<T>(lists: T[][], key: (t: T) => string, c = 60): T[] {
  const score = new Map<string, number>();
  const first = new Map<string, T>();
  for (const list of lists)
    list.forEach((t, r) => {
      const k = key(t);
      score.set(k, (score.get(k) ?? 0) + 1 / (c + r + 1));
      if (!first.has(k)) first.set(k, t);
    });
  return [...first.entries()].sort((a, b) => (score.get(b[0]) ?? 0) - (score.get(a[0]) ?? 0)).map(([, t]) => t);
}
