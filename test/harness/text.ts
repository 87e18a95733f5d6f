/** Deterministic text helpers for the fakes: token estimates, lexical matching, snippets and
 * hashed embeddings. Deterministic so tests can assert exact numbers. */
import { toWebQuery, type WebQuery } from '../../lib/core/flow.ts';

// Scripts written without spaces: each character is treated as one term.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TERM = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]+/gu;

// Tiny English/French stop list: enough that "when did X move to Y" does not match every page.
const STOP = new Set(
  'a an and are as at be by did do does for from had has have he her his how in is it its of on or she that the their they this to was were what when where which who why will with le la les de des du un une et en est'.split(' '),
);

/** Rough OpenAI-like estimate: one token per 4 characters, at least 1 for non-empty text. */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}

/** The token count of `n` characters of text. */
export function tokensForChars(n: number): number {
  return n === 0 ? 0 : Math.ceil(n / 4);
}

/** Lower-cased terms: words for spaced scripts, single characters for CJK. */
export function terms(text: string): string[] {
  return (text.toLowerCase().normalize('NFC').match(TERM) ?? []).filter((t) => !STOP.has(t));
}

/** A run without spaces (JSON such as `{"label":"clear","question":""`) is cut at this length: a
 * server streams a token or a few per chunk, so a reply's first chunk never waits for the first
 * space. */
const MAX_PIECE = 16;

/** Word-sized pieces for streaming: a word with its leading whitespace (at most MAX_PIECE
 * characters), or one CJK character. Joining the pieces gives back the original text exactly. */
export function streamPieces(text: string): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const ch of text) {
    const isSpace = /\s/u.test(ch);
    const isCjk = CJK.test(ch);
    const currentHasWord = /\S/u.test(current);
    if (currentHasWord && (isSpace || isCjk || CJK.test(current.slice(-1)) || current.length >= MAX_PIECE)) {
      pieces.push(current);
      current = '';
    }
    current += ch;
  }
  if (current) pieces.push(current);
  return pieces;
}

export interface Scored<T> {
  doc: T;
  score: number;
}

/** A simple tf-idf-flavoured lexical match: documents sharing at least one query term, best
 * first; title hits count triple. Stable order for ties (corpus order). */
export function lexicalSearch<T extends { title: string; text: string }>(docs: readonly T[], query: string): Scored<T>[] {
  const q = [...new Set(terms(query))];
  if (q.length === 0) return [];
  const docTerms = docs.map((d) => ({ title: terms(d.title), body: terms(d.text) }));
  const df = new Map<string, number>();
  for (const t of q) df.set(t, docTerms.filter((d) => d.title.includes(t) || d.body.includes(t)).length);
  const scored: Scored<T>[] = [];
  docs.forEach((doc, i) => {
    const dt = docTerms[i]!;
    let score = 0;
    for (const t of q) {
      const n = df.get(t) ?? 0;
      if (n === 0) continue;
      const idf = Math.log(1 + docs.length / n);
      const tf = dt.body.filter((x) => x === t).length + 3 * dt.title.filter((x) => x === t).length;
      if (tf > 0) score += idf * (1 + Math.log(tf));
    }
    if (score > 0) scored.push({ doc, score });
  });
  return scored.sort((a, b) => b.score - a.score);
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A window of `text` around the first query hit, HTML-escaped, with every query term wrapped in
 * `open`/`close` (Wikipedia uses <span class="searchmatch">, Brave uses <strong>). */
export function snippet(text: string, query: string, open: string, close: string, width = 160): string {
  const flat = text.replace(/\s*\n+\s*(==+[^=\n]*==+)?\s*/g, ' ').trim();
  const q = [...new Set(terms(query))].filter((t) => t.length > 0);
  const lower = flat.toLowerCase();
  let first = -1;
  for (const t of q) {
    const at = lower.indexOf(t);
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  const start = Math.max(0, first - Math.floor(width / 3));
  // Count in code points so CJK windows are not cut mid-character.
  const window = Array.from(flat.slice(start)).slice(0, width).join('');
  const pattern = q
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .sort((a, b) => b.length - a.length)
    .join('|');
  if (!pattern) return escapeHtml(window);
  const re = new RegExp(CJK.test(pattern) ? `(${pattern})` : `(?<![\\p{L}\\p{N}])(${pattern})(?![\\p{L}\\p{N}])`, 'giu');
  return window
    .split(re)
    .map((part, i) => (i % 2 === 1 ? `${open}${escapeHtml(part)}${close}` : escapeHtml(part)))
    .join('');
}

/** FNV-1a, 32 bit: a stable hash for bucketing terms. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Hashed bag of terms (CJK: characters and character bigrams), L2-normalised: texts sharing
 * words get a high cosine, unrelated texts a cosine near 0. The empty text gets a zero vector. */
export function hashEmbedding(text: string, dims = 256): number[] {
  const v = new Array<number>(dims).fill(0);
  const ts = terms(text);
  const features = [...ts];
  ts.slice(1).forEach((next, i) => {
    const cur = ts[i]!;
    if (CJK.test(cur) && CJK.test(next)) features.push(cur + next);
  });
  for (const f of features) v[fnv1a(f) % dims]! += 1;
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) s += a[i]! * b[i]!;
  return s;
}

/** A web query as if the user had typed it (tests that search the web through the library). */
export function typedQuery(q: string): WebQuery {
  const w = toWebQuery(q, ['typed']);
  if (!w) throw new Error(`not a web query: "${q}"`);
  return w;
}
