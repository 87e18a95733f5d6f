/** Page analysis for the ranker: each passage's field-weighted term frequencies (body, plus the
 * page title and heading path as extra fields, BM25F-style) and its token sequence. Pure function
 * of the passages, so it is cached per page version. */
import type { Passage } from '../core/passage';
import { termId } from './term-dict';
import { tokenize, titleVariants } from './tokenize';
import { DEFAULT_WEIGHTS, type RankWeights } from './weights';

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

