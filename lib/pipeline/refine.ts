/** The Refiner (IM-RAG, without training): merge what the rounds of one step found, drop
 * near-duplicates, rerank against the step and its query, keep the top k. Lexical (BM25 over
 * the candidates themselves) so it costs no model call and works in any script. */
import type { Passage } from '../retrieval/types';

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'word' }) : undefined;

const STOP = new Set(
  'a an the of to in on at for and or but is are was were be been being it its this that these those with by from as which who whom what when where why how do does did has have had not no so than then there their they he she his her we you i also into about over after before'.split(' '),
);

/** Lower-cased word tokens; CJK text (no spaces) is split by Intl.Segmenter, and single Han
 * characters also count so that unsegmented queries still match. */
export function tokenize(text: string): string[] {
  const t = text.normalize('NFKC').toLowerCase();
  const out: string[] = [];
  if (segmenter) {
    for (const s of segmenter.segment(t)) {
      if (!s.isWordLike) continue;
      const w = s.segment;
      if (STOP.has(w)) continue;
      out.push(w);
      if (/\p{Script=Han}/u.test(w) && w.length > 1) for (const ch of w) out.push(ch);
    }
    return out;
  }
  for (const w of t.split(/[^\p{L}\p{N}]+/u)) if (w && !STOP.has(w)) out.push(w);
  return out;
}

/** BM25 scores of `docs` for `query`, with statistics from the docs themselves. */
export function bm25(query: string, docs: string[], k1 = 1.2, b = 0.75): number[] {
  const toks = docs.map(tokenize);
  const avg = toks.reduce((n, t) => n + t.length, 0) / Math.max(1, toks.length) || 1;
  const df = new Map<string, number>();
  for (const t of toks) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
  const q = [...new Set(tokenize(query))];
  const N = docs.length;
  return toks.map((t) => {
    const tf = new Map<string, number>();
    for (const w of t) tf.set(w, (tf.get(w) ?? 0) + 1);
    let s = 0;
    for (const w of q) {
      const f = tf.get(w);
      if (!f) continue;
      const idf = Math.log(1 + (N - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
      s += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * t.length) / avg));
    }
    return s;
  });
}

function fingerprint(text: string): string {
  return tokenize(text).slice(0, 40).join(' ');
}

/** Top `k` of `candidates` for `focus` (query + step text). Keeps the library's order as a
 * tie-break and never returns a passage twice (by id or near-identical text). */
export function refine(candidates: Passage[], focus: string, k: number): Passage[] {
  const seenId = new Set<string>();
  const seenText = new Set<string>();
  const unique: Passage[] = [];
  for (const p of candidates) {
    const fp = fingerprint(p.text);
    if (seenId.has(p.id) || (fp && seenText.has(fp))) continue;
    seenId.add(p.id);
    seenText.add(fp);
    unique.push(p);
  }
  if (unique.length <= k) return unique;
  const scores = bm25(focus, unique.map((p) => `${p.title} ${p.text}`));
  // The library's own rank still counts a little: it may know more (embeddings, freshness).
  const ranked = unique.map((p, i) => ({ p, s: scores[i] + 0.01 * (unique.length - i) / unique.length }));
  ranked.sort((a, b) => b.s - a.s);
  return ranked.slice(0, k).map((r) => r.p);
}

/** Same document? Used to keep the page under verification out of its own evidence. */
export function sameDocument(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const x = new URL(u);
      x.hash = '';
      const host = x.hostname.toLowerCase().replace(/^www\./, '');
      const path = x.pathname.replace(/\/+$/, '') || '/';
      return `${host}${x.port ? `:${x.port}` : ''}${path}${x.search}`;
    } catch {
      return u.trim().replace(/#.*$/, '').replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}
