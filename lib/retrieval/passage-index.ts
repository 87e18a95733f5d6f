/** The lexical index: BM25 over passages with the page title and heading path as extra fields
 * (BM25F-style, fixed weights; see analyze.ts), re-scored with evidence a bag of words misses:
 *  - the page title named in the query (title-match.ts);
 *  - query word pairs found adjacent in the passage;
 *  - pages named by the best passage found so far (feedback inside one search, for the bridge
 *    entity of a two-hop question), and in a later round, pages named by the seed passages;
 *  - the first two places taken as a pair (diversify.ts);
 *  - within a page, the passage holding the query's words close together first (proximity.ts). */
import type { AnalyzedDoc, AnalyzedPassage } from './analyze';
import { diversifyTop } from './diversify';
import { lookupTerm, termCount } from './term-dict';
import { namedBy, titleHits, type NamingSeq } from './title-match';
import { tokenize, tokenizeCased } from './tokenize';
import { ProximityScan, orderPagesByProximity } from './proximity';
import type { Passage } from '../core/passage';
import { DEFAULT_WEIGHTS, type RankWeights } from './weights';

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

  /** Every indexed passage, page by page. */
  allPassages(): Passage[] {
    this.refresh();
    return this.items.map((a) => a.passage);
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
    const terms = termCount();
    const count = new Uint32Array(terms + 1);
    let i = 0;
    let total = 0;
    this.totalLen = 0;
    // Every term id in a passage is below termCount() (the dictionary only grows), so the
    // count, start and fill indexes below are in range.
    this.docList.forEach((d, di) => {
      for (const a of d.passages) {
        docOf[i++] = di;
        this.totalLen += a.len;
        total += a.terms.length;
        for (let j = 0; j < a.terms.length; j++) count[a.terms[j]!]!++;
      }
    });
    const start = new Uint32Array(terms + 1);
    for (let t = 0, acc = 0; t < terms; t++) {
      start[t] = acc;
      acc += count[t]!;
      start[t + 1] = acc;
    }
    const fill = start.slice(0, terms);
    const ids = new Uint32Array(total);
    const w = new Float32Array(total);
    for (let id = 0; id < this.items.length; id++) {
      const a = this.items[id]!;
      // terms and weights are parallel arrays, one entry per distinct term of the passage.
      for (let j = 0; j < a.terms.length; j++) {
        const at = fill[a.terms[j]!]!++;
        ids[at] = id;
        w[at] = a.weights[j]!;
      }
    }
    this.docOf = docOf;
    this.start = start;
    this.postIds = ids;
    this.postW = w;
  }

  private df(t: number): number {
    return t < 0 || t + 1 >= this.start.length ? 0 : this.start[t + 1]! - this.start[t]!;
  }

  private idf(t: number): number {
    const df = this.df(t);
    const n = this.items.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
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
    const qSeq = qTokens.map(lookupTerm);
    const qWeight = new Map<number, number>();
    for (const t of qSeq) if (t >= 0) qWeight.set(t, (qWeight.get(t) ?? 0) + 1);

    const seed = opts.seed ?? [];
    const seedIds = new Set(seed.map((p) => p.id));
    const seedSeqs: NamingSeq[] = [];
    if (seed.length) {
      const byId = new Map<string, AnalyzedPassage>();
      for (const a of this.items) if (seedIds.has(a.passage.id)) byId.set(a.passage.id, a);
      const seedTf = new Map<number, number>();
      for (const [rank, p] of seed.entries()) {
        const seq = byId.get(p.id)?.seq ?? Uint32Array.from(tokenize(p.text).map(lookupTerm).filter((t) => t >= 0));
        seedSeqs.push({ seq, doc: p.url, rank });
        for (const t of seq) seedTf.set(t, (seedTf.get(t) ?? 0) + 1);
      }
      // Seed words count once each (a long seed passage should not drown the query).
      for (const t of seedTf.keys()) qWeight.set(t, (qWeight.get(t) ?? 0) + w.seedTerms);
    }

    // BM25F over the posting lists of the query's terms. Indexes below are in range by
    // construction: t has postings (df > 0), a posting's id is an item id (< n ≤ scores.length).
    const touched: number[] = [];
    const ids = this.postIds;
    const tf = this.postW;
    for (const [t, qw] of qWeight) {
      if (this.df(t) === 0) continue;
      const idf = this.idf(t) * qw;
      for (let i = this.start[t]!, end = this.start[t + 1]!; i < end; i++) {
        const id = ids[i]!;
        const a = this.items[id]!;
        const f = tf[i]!;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += (idf * f * (w.k1 + 1)) / (f + w.k1 * (1 - w.b + (w.b * a.len) / avg));
      }
    }

    // Page-level bonuses: the query names the page; a seed passage names the page. Both are
    // relative to the best BM25 score, so they mean the same for short and long queries.
    let maxBm = 0;
    for (const id of touched) maxBm = Math.max(maxBm, scores[id]!);
    if (maxBm === 0) maxBm = 1;
    const exclude = opts.exclude;
    const eligible = (id: number) => !seedIds.has(this.items[id]!.passage.id) && !exclude?.has(this.items[id]!.passage.id);
    /** Adds a page-level bonus to every passage of each page (a named page becomes a candidate
     * even with no query word in its body). */
    const addDocBonus = (docBonus: Map<number, number>) => {
      if (!docBonus.size) return;
      for (let id = 0; id < n; id++) {
        const b = docBonus.get(this.docOf[id]!);
        if (b === undefined) continue;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += b;
      }
    };
    const idfOf = (t: number) => this.idf(t);
    const named = (doc: AnalyzedDoc, seqs: NamingSeq[]) => namedBy(doc, seqs, idfOf, w);
    const titleHitList = titleHits(this.docList, qSeq, qCaps, idfOf, w);
    const docBonus = new Map<number, number>();
    for (const h of titleHitList) docBonus.set(h.d, h.v * w.titleMatch * maxBm);
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
        const d = this.docOf[id]!;
        const b = best.get(d);
        if (b === undefined || scores[id]! > scores[b]!) best.set(d, id);
      }
      const top = [...best.values()].sort((x, y) => scores[y]! - scores[x]!).slice(0, w.linkFrom);
      const fb = top.map((id, rank) => ({ seq: this.items[id]!.seq, doc: this.items[id]!.passage.url, rank }));
      const first = top[0];
      if (first !== undefined) {
        // A page found through the best passage never overtakes it: its evidence is that passage.
        const cap = scores[first]! * 0.999;
        const linkBonus = new Map<number, number>();
        this.docList.forEach((doc, d) => {
          const v = named(doc, fb);
          if (v > 0) linkBonus.set(d, v * w.link * maxBm);
        });
        for (let id = 0; id < n; id++) {
          const b = linkBonus.get(this.docOf[id]!);
          if (b === undefined) continue;
          const s = scores[id]!;
          if (s === 0) touched.push(id);
          scores[id] = s >= cap ? s : Math.min(cap, s + b);
        }
      }
    }

    let cands = touched.filter(eligible);
    cands.sort((x, y) => scores[y]! - scores[x]!);
    cands = cands.slice(0, Math.max(opts.candidates ?? 100, opts.k));

    // Query word pairs found next to each other in the passage (names, phrases).
    const pairs = new Map<number, Map<number, number>>();
    for (const [i, a] of qSeq.entries()) {
      const b = qSeq[i + 1];
      if (b === undefined || a < 0 || b < 0) continue;
      let m = pairs.get(a);
      if (!m) pairs.set(a, (m = new Map()));
      m.set(b, (this.idf(a) + this.idf(b)) / 2);
    }
    // The query's own words (not the seed's), by weight, for the proximity evidence.
    const own = new Map<number, number>();
    for (const t of qSeq) if (t >= 0 && this.df(t) > 0) own.set(t, this.idf(t));
    const near = w.proximity > 0 && own.size > 1 ? new ProximityScan(own, Math.max(2, Math.round(w.proximityWindow))) : undefined;
    const seedTerms = new Set<number>();
    if (w.novelty > 0) for (const x of seedSeqs) for (let i = 0; i < x.seq.length; i++) seedTerms.add(x.seq[i]!);
    const out: (ScoredPassage & { id: number })[] = cands.map((id) => {
      // Candidates are item ids (< n), touched in this search.
      let s = scores[id]!;
      const item = this.items[id]!;
      if (seedTerms.size) {
        let shared = 0;
        let all = 0;
        for (const t of item.terms) {
          const idf = this.idf(t);
          all += idf;
          if (seedTerms.has(t)) shared += idf;
        }
        if (all > 0) s -= (w.novelty * shared * maxBm) / all;
      }
      if (pairs.size) {
        const seq = item.seq;
        const seen = new Set<number>();
        for (let i = 0; i + 1 < seq.length; i++) {
          // i + 1 < seq.length: both in range.
          const v = pairs.get(seq[i]!)?.get(seq[i + 1]!);
          const key = seq[i]! * 1_000_003 + seq[i + 1]!;
          if (v !== undefined && !seen.has(key)) {
            seen.add(key);
            s += v * w.pair;
          }
        }
      }
      return { passage: item.passage, score: s, id };
    });
    if (near) orderPagesByProximity(out, this.docOf, (id) => near.share(this.items[id]!.seq) * w.proximity * maxBm);
    for (const id of touched) scores[id] = 0;
    const seedDocs = [...new Set(seedSeqs.map((x) => this.docList.findIndex((d) => d.url === x.doc)).filter((d) => d >= 0))];
    out.sort((x, y) => y.score - x.score);
    if (w.titleShare < 1 && titleHitList.length > 1) diversifyTop(out, this.docOf, titleHitList, w.titleMatch * maxBm * (1 - w.titleShare), seedDocs);
    return out.map(({ passage, score }) => ({ passage, score }));
  }
}
