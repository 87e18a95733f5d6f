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
import { namedBy, titleHits, type NamingSeq, type TitleHit } from './title-match';
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
    const n = this.items.length;
    if (n === 0) return [];
    if (this.scores.length < n) this.scores = new Float64Array(Math.max(n, this.scores.length * 2));
    const w = this.weights;
    const q = this.parseQuery(query, opts.seed ?? []);
    const touched = this.bm25(q.weight);
    // Page-level bonuses are relative to the best BM25 score, so they mean the same for short and
    // long queries.
    const maxBm = this.maxScore(touched) || 1;
    const eligible = (id: number) => this.eligible(id, q.seedIds, opts.exclude);
    const titleHitList = titleHits(this.docList, q.seq, q.caps, this.idfOf, w);
    this.addPageBonus(this.pageBonus(titleHitList, q.seedSeqs, maxBm), touched);
    if (!q.seedSeqs.length && w.link > 0 && w.linkFrom > 0) this.linkFeedback(touched.filter(eligible), touched, maxBm);
    const cands = touched.filter(eligible);
    cands.sort((x, y) => this.score(y) - this.score(x));
    const out = this.rescore(cands.slice(0, Math.max(opts.candidates ?? 100, opts.k)), q, maxBm);
    for (const id of touched) this.scores[id] = 0;
    const seedDocs = [...new Set(q.seedSeqs.map((x) => this.docList.findIndex((d) => d.url === x.doc)).filter((d) => d >= 0))];
    out.sort((x, y) => y.score - x.score);
    if (w.titleShare < 1 && titleHitList.length > 1) diversifyTop(out, this.docOf, titleHitList, w.titleMatch * maxBm * (1 - w.titleShare), seedDocs);
    return out.map(({ passage, score }) => ({ passage, score }));
  }

  private readonly idfOf = (t: number): number => this.idf(t);

  /** The score of an item id being searched (ids are below the item count, which the score
   * buffer covers). */
  private score(id: number): number {
    return this.scores[id]!;
  }

  private eligible(id: number, seedIds: Set<string>, exclude: Set<string> | undefined): boolean {
    const pid = this.items[id]!.passage.id; // an item id
    return !seedIds.has(pid) && !exclude?.has(pid);
  }

  /** The query's term ids (in order, -1 for words not in the index) with a weight each; seed
   * passages add their words, each once (a long seed passage should not drown the query). */
  private parseQuery(query: string, seed: Passage[]): ParsedQuery {
    const { tokens, caps } = tokenizeCased(query);
    const seq = tokens.map(lookupTerm);
    const weight = new Map<number, number>();
    for (const t of seq) if (t >= 0) weight.set(t, (weight.get(t) ?? 0) + 1);
    const seedIds = new Set(seed.map((p) => p.id));
    const seedSeqs = this.seedSeqs(seed, seedIds);
    const seedTf = new Set<number>();
    for (const x of seedSeqs) for (let i = 0; i < x.seq.length; i++) seedTf.add(x.seq[i]!);
    for (const t of seedTf) weight.set(t, (weight.get(t) ?? 0) + this.weights.seedTerms);
    return { seq, caps, weight, seedIds, seedSeqs };
  }

  /** The seed passages' token sequences (from the index where they are in it). */
  private seedSeqs(seed: Passage[], seedIds: Set<string>): NamingSeq[] {
    if (!seed.length) return [];
    const byId = new Map<string, AnalyzedPassage>();
    for (const a of this.items) if (seedIds.has(a.passage.id)) byId.set(a.passage.id, a);
    return seed.map((p, rank) => ({ seq: byId.get(p.id)?.seq ?? Uint32Array.from(tokenize(p.text).map(lookupTerm).filter((t) => t >= 0)), doc: p.url, rank }));
  }

  /** BM25F over the posting lists of the query's terms, into the score buffer; the item ids
   * scored, in the order first scored. */
  private bm25(qWeight: Map<number, number>): number[] {
    const { k1, b } = this.weights;
    const { scores, postIds: ids, postW: tf, start, items } = this;
    const avg = this.totalLen / items.length;
    const touched: number[] = [];
    for (const [t, qw] of qWeight) {
      if (this.df(t) === 0) continue;
      const idf = this.idf(t) * qw;
      // In range by construction: t has postings (df > 0), a posting's id is an item id.
      for (let i = start[t]!, end = start[t + 1]!; i < end; i++) {
        const id = ids[i]!;
        const f = tf[i]!;
        if (scores[id] === 0) touched.push(id);
        scores[id]! += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * items[id]!.len) / avg));
      }
    }
    return touched;
  }

  private maxScore(ids: number[]): number {
    let max = 0;
    for (const id of ids) if (this.score(id) > max) max = this.score(id);
    return max;
  }

  /** Page-level bonuses: the query names the page (its title); a seed passage names the page. */
  private pageBonus(titleHitList: TitleHit[], seedSeqs: NamingSeq[], maxBm: number): Map<number, number> {
    const w = this.weights;
    const bonus = new Map<number, number>();
    for (const h of titleHitList) bonus.set(h.d, h.v * w.titleMatch * maxBm);
    if (seedSeqs.length)
      this.docList.forEach((doc, d) => {
        const bridge = namedBy(doc, seedSeqs, this.idfOf, w);
        if (bridge > 0) bonus.set(d, (bonus.get(d) ?? 0) + bridge * w.bridge * maxBm);
      });
    return bonus;
  }

  /** Adds a page-level bonus to every passage of each page (a named page becomes a candidate
   * even with no query word in its body). */
  private addPageBonus(bonus: Map<number, number>, touched: number[]): void {
    if (!bonus.size) return;
    const { scores, docOf } = this;
    for (let id = 0; id < docOf.length; id++) {
      const b = bonus.get(docOf[id]!);
      if (b === undefined) continue;
      if (scores[id] === 0) touched.push(id);
      scores[id]! += b;
    }
  }

  /** Feedback inside the round: the best passages so far (one per page, of `eligible`) name
   * further pages, which gain a bonus, capped: a page found through the best passage never
   * overtakes it (its evidence is that passage). */
  private linkFeedback(eligible: number[], touched: number[], maxBm: number): void {
    const w = this.weights;
    const best = new Map<number, number>();
    for (const id of eligible) {
      const d = this.docOf[id]!;
      const b = best.get(d);
      if (b === undefined || this.score(id) > this.score(b)) best.set(d, id);
    }
    const top = [...best.values()].sort((x, y) => this.score(y) - this.score(x)).slice(0, w.linkFrom);
    const first = top[0];
    if (first === undefined) return;
    const fb = top.map((id, rank) => ({ seq: this.items[id]!.seq, doc: this.items[id]!.passage.url, rank }));
    const cap = this.score(first) * 0.999;
    const linkBonus = new Map<number, number>();
    this.docList.forEach((doc, d) => {
      const v = namedBy(doc, fb, this.idfOf, w);
      if (v > 0) linkBonus.set(d, v * w.link * maxBm);
    });
    const { scores, docOf } = this;
    for (let id = 0; id < docOf.length; id++) {
      const b = linkBonus.get(docOf[id]!);
      if (b === undefined) continue;
      const s = scores[id]!;
      if (s === 0) touched.push(id);
      scores[id] = s >= cap ? s : Math.min(cap, s + b);
    }
  }

  /** The candidates' final scores: less for words the seed passages already hold (novelty), more
   * for query word pairs found next to each other; within a page, the passage holding the query's
   * words closest together first. */
  private rescore(cands: number[], q: ParsedQuery, maxBm: number): Ranked[] {
    const w = this.weights;
    const pairs = this.queryPairs(q.seq);
    const seedTerms = new Set<number>();
    if (w.novelty > 0) for (const x of q.seedSeqs) for (let i = 0; i < x.seq.length; i++) seedTerms.add(x.seq[i]!);
    const out = cands.map((id): Ranked => {
      const item = this.items[id]!; // candidates are item ids
      let s = this.score(id);
      if (seedTerms.size) s -= this.noveltyPenalty(item, seedTerms, maxBm);
      if (pairs.size) s = addPairs(s, item.seq, pairs, w.pair);
      return { passage: item.passage, score: s, id };
    });
    const near = this.proximity(q.seq);
    if (near) orderPagesByProximity(out, this.docOf, (id) => near.share(this.items[id]!.seq) * w.proximity * maxBm);
    return out;
  }

  /** Less for a passage by the share (by idf) of its terms that the seed passages hold. */
  private noveltyPenalty(item: AnalyzedPassage, seedTerms: Set<number>, maxBm: number): number {
    let shared = 0;
    let all = 0;
    for (const t of item.terms) {
      const idf = this.idf(t);
      all += idf;
      if (seedTerms.has(t)) shared += idf;
    }
    return all > 0 ? (this.weights.novelty * shared * maxBm) / all : 0;
  }

  /** Adjacent query word pairs (names, phrases), each with its mean idf. */
  private queryPairs(seq: number[]): Map<number, Map<number, number>> {
    const pairs = new Map<number, Map<number, number>>();
    for (const [i, a] of seq.entries()) {
      const b = seq[i + 1];
      if (b === undefined || a < 0 || b < 0) continue;
      let m = pairs.get(a);
      if (!m) pairs.set(a, (m = new Map<number, number>()));
      m.set(b, (this.idf(a) + this.idf(b)) / 2);
    }
    return pairs;
  }

  /** The proximity scan over the query's own words (not the seed's), by weight; none when the
   * evidence is off or the query has fewer than two indexed words. */
  private proximity(seq: number[]): ProximityScan | undefined {
    const w = this.weights;
    const own = new Map<number, number>();
    for (const t of seq) if (t >= 0 && this.df(t) > 0) own.set(t, this.idf(t));
    return w.proximity > 0 && own.size > 1 ? new ProximityScan(own, Math.max(2, Math.round(w.proximityWindow))) : undefined;
  }
}

interface ParsedQuery {
  /** Term ids in query order; -1 for words not in the index. */
  seq: number[];
  /** Whether each word was capitalised. */
  caps: boolean[];
  /** Term id → query weight (the seed's words added). */
  weight: Map<number, number>;
  seedIds: Set<string>;
  seedSeqs: NamingSeq[];
}

type Ranked = ScoredPassage & { id: number };

/** `score` plus the weight of each query pair found adjacent in `seq` (each distinct pair once). */
function addPairs(score: number, seq: Uint32Array, pairs: Map<number, Map<number, number>>, weight: number): number {
  let sum = score;
  const seen = new Set<number>();
  for (let i = 0; i + 1 < seq.length; i++) {
    // i + 1 < seq.length: both in range.
    const a = seq[i]!;
    const b = seq[i + 1]!;
    const v = pairs.get(a)?.get(b);
    const key = a * 1_000_003 + b;
    if (v !== undefined && !seen.has(key)) {
      seen.add(key);
      sum += v * weight;
    }
  }
  return sum;
}
