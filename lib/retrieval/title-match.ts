/** Page-level evidence from titles: the query names a page (its title or a shortened variant,
 * trusted more when written with capitals), or a passage names a page (the bridge entity of a
 * two-hop question). */
import type { AnalyzedDoc } from './analyze';
import { containsSeq, indexOfSeq } from './term-dict';
import type { RankWeights } from './weights';

export type Idf = (t: number) => number;

/** A page the query names: its index, the strength of the match, and which query positions the
 * title took (to tell two pages matching the same words from two things the query names). */
export interface TitleHit {
  d: number;
  v: number;
  at: number[];
}

export interface NamingSeq {
  seq: ArrayLike<number>;
  doc: string;
  rank: number;
}

function titleMass(ts: ArrayLike<number>, idf: Idf): number {
  let mass = 0;
  for (let i = 0; i < ts.length; i++) mass += idf(ts[i] ?? -1);
  return mass;
}

/** Each page's best title match in the query. */
export function titleHits(docs: AnalyzedDoc[], qSeq: number[], qCaps: boolean[], idf: Idf, w: Pick<RankWeights, 'titleMass' | 'capsConf'>): TitleHit[] {
  const qSet = new Set(qSeq);
  const hits: TitleHit[] = [];
  docs.forEach((doc, d) => {
    let title = 0;
    let at: number[] = [];
    doc.titleSeqs.forEach((ts, vi) => {
      let mass = 0;
      let hit = 0;
      for (let i = 0; i < ts.length; i++) {
        const v = idf(ts[i] ?? -1);
        mass += v;
        if (qSet.has(ts[i] ?? -1)) hit += v;
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
        for (let i = pos; i < pos + ts.length; i++) capsAll &&= qCaps[i] ?? false;
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
    if (title > 0) hits.push({ d, v: title, at });
  });
  return hits;
}

/** Confidence that one of `seqs` (passages from other pages) names `doc`, 0 when none does. */
export function namedBy(doc: AnalyzedDoc, seqs: NamingSeq[], idf: Idf, w: Pick<RankWeights, 'titleMass'>): number {
  let best = 0;
  doc.titleSeqs.forEach((ts, vi) => {
    const mass = titleMass(ts, idf);
    if (mass === 0) return;
    const conf = Math.min(1, mass / w.titleMass);
    const exact = vi === 0 ? 1 : 0.85;
    // A page named by a better-ranked passage (not its own page) is a likelier bridge.
    const s = seqs.find((x) => x.doc !== doc.url && containsSeq(x.seq, ts));
    if (s) best = Math.max(best, (exact * conf) / (1 + s.rank));
  });
  return best;
}
