/** The corrected text of a checked selection or page, built in code from the per-claim results:
 * what the user reads as "corrected" can then not keep an error the claim list says was fixed.
 *
 * Each corrected or refuted claim changes its own sentence of the original text:
 * - the words the correction changed (a word diff of the claim against its correction: "1899" →
 *   "1889") are replaced where they stand in the sentence, so the page's own wording survives;
 * - where that is not possible (the claim was rewritten as a whole, or its words are not in the
 *   sentence), the sentence is replaced by the corrected claims drawn from it;
 * - a refuted claim without a correction takes its sentence out, and the text says so;
 * - a claim whose sentence cannot be found is listed after the text with its correction.
 * A passage the model wrote is accepted instead only if it holds every correction and none of the
 * words found false (`acceptsPassage`). */
import { diffWords } from 'diff';
import { changesText, type Verdict } from '../core/verdicts';

export interface ClaimForText {
  claim: string;
  /** The sentence of the original text the claim was drawn from. */
  sentence: string;
  verdict: Verdict;
  corrected?: string;
  /** Source numbers behind the verdict (written after the fix as [n]). */
  sources: number[];
}

export type TextPart =
  | { kind: 'same'; text: string }
  /** `marked`: the new sentence with the replaced words in **bold** (Markdown, escaped). */
  | { kind: 'fixed'; text: string; marked: string; original: string; claims: number[]; sources: number[] }
  | { kind: 'removed'; original: string; claims: number[]; sources: number[] };

export interface CorrectedText {
  parts: TextPart[];
  /** Plain text, no markers. */
  text: string;
  /** Markdown with [n] source markers after each fix. */
  markdown: string;
  /** Claims whose sentence was not found in the original: their corrections follow the text. */
  unplaced: number[];
}

/** What a removed sentence leaves in the text. */
export const REMOVED_NOTE = '[sentence removed: the sources refute it]';

// ---- folding: compare text the way a reader does (case, spacing, typographic quotes) ----

const FOLD: Record<string, string> = { '‘': "'", '’': "'", '“': '"', '”': '"', '–': '-', '—': '-', '‑': '-', '\u00a0': ' ' };

/** The folded text and, for each of its characters, where it came from in `text`. */
function foldMap(text: string): { folded: string; at: number[] } {
  let folded = '';
  const at: number[] = [];
  let space = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    const c = FOLD[ch] ?? ch;
    if (/\s/.test(c)) {
      if (!space) {
        folded += ' ';
        at.push(i);
      }
      space = true;
      continue;
    }
    space = false;
    const l = c.toLowerCase();
    // Keep the 1:1 mapping for the rare characters whose lower case is longer.
    folded += l.length === 1 ? l : c;
    at.push(i);
  }
  return { folded, at };
}

export function fold(text: string): string {
  return foldMap(text).folded.trim();
}

const TRAILING = /[\s.,;:!?。！？、，；：…"'”’)\]）】]+$/;

/** Where `needle` stands in `text` (original offsets, end exclusive), at or after `from`. */
export function locate(text: string, needle: string, from = 0): [number, number] | undefined {
  const { folded, at } = foldMap(text);
  for (const n of [fold(needle), fold(needle.replace(TRAILING, ''))]) {
    if (!n) continue;
    let i = folded.indexOf(n);
    while (i >= 0 && (at[i] as number) < from) i = folded.indexOf(n, i + 1);
    if (i >= 0) return [at[i] as number, (at[i + n.length - 1] as number) + 1];
  }
  return undefined;
}

// ---- the words a correction changed ----

export interface Hunk {
  /** Words of the claim the correction replaced ('' for an insertion). */
  old: string;
  new: string;
  /** The unchanged words just before, for placing it (and for insertions). */
  before: string;
}

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'word' }) : undefined;

export function hunks(claim: string, corrected: string): Hunk[] {
  const parts = diffWords(claim, corrected, segmenter ? { intlSegmenter: segmenter } : {});
  const out: Hunk[] = [];
  let before = '';
  let cur: Hunk | undefined;
  for (const p of parts) {
    if (!p.added && !p.removed) {
      if (cur) out.push(cur);
      cur = undefined;
      before = p.value;
      continue;
    }
    cur ??= { old: '', new: '', before: lastWords(before, 3) };
    if (p.removed) cur.old += p.value;
    else cur.new += p.value;
  }
  if (cur) out.push(cur);
  return out.map((h) => ({ ...h, old: h.old.trim(), new: h.new.trim() }));
}

/** Two Latin letters or digits side by side: one word, so a match there is not a whole word. */
function glued(a: string | undefined, b: string | undefined): boolean {
  return !!a && !!b && /[A-Za-z0-9]/.test(a) && /[A-Za-z0-9]/.test(b);
}

/** Where a hunk's replaced words stand: after as many of the words before it as are there too
 * (the right "300" of two), else the first whole-word occurrence. */
function placeOld(text: string, h: Hunk, from: number): [number, number] | undefined {
  const before = h.before.split(' ').filter(Boolean);
  for (let k = before.length; k > 0; k--) {
    const ctx = locate(text, `${before.slice(-k).join(' ')} ${h.old}`, from);
    const span = ctx ? lastWithin(text, h.old, ctx) : undefined;
    if (span && whole(text, span, h.old)) return span;
  }
  for (let span = locate(text, h.old, from); span; span = locate(text, h.old, span[0] + 1)) if (whole(text, span, h.old)) return span;
  return undefined;
}

/** Not part of a longer word or number ("300" inside "1300"). */
function whole(text: string, span: [number, number], word: string): boolean {
  return !glued(text[span[0] - 1], word[0]) && !glued(text[span[1]], word.at(-1));
}

/** The last occurrence of `needle` inside `within` (a span of `text`). */
function lastWithin(text: string, needle: string, within: [number, number]): [number, number] | undefined {
  let best: [number, number] | undefined;
  for (let s = locate(text, needle, within[0]); s && s[1] <= within[1]; s = locate(text, needle, s[0] + 1)) best = s;
  return best;
}

function lastWords(s: string, n: number): string {
  return s.trim().split(/\s+/).slice(-n).join(' ');
}

/** Share of the claim's words a correction changed: above this, it is a rewrite, not a fix. */
const REWRITE_SHARE = 0.6;

function changedShare(claim: string, hs: Hunk[]): number {
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length || [...s].length / 4;
  return hs.reduce((n, h) => n + words(h.old), 0) / Math.max(1, words(claim));
}

/** The sentence with the correction's word changes applied in place, or undefined when they
 * cannot all be placed. `marked` bolds the new words. */
function applyHunks(sentence: string, groups: Hunk[][]): { text: string; marked: string } | undefined {
  let text = sentence;
  const marks: [number, number][] = [];
  let from = 0;
  // Each claim's changes in order; the next claim's may stand anywhere in the sentence.
  for (const h of groups.flatMap((g) => g.map((h, i) => ({ ...h, first: i === 0 })))) {
    if (h.first) from = 0;
    let span: [number, number] | undefined;
    if (h.old) span = placeOld(text, h, from);
    else if (h.before) {
      const anchor = locate(text, h.before, from);
      if (anchor) span = [anchor[1], anchor[1]];
    }
    if (!span) return undefined;
    const insert = h.old ? h.new : ` ${h.new}`;
    text = text.slice(0, span[0]) + insert + text.slice(span[1]);
    const shift = insert.length - (span[1] - span[0]);
    for (const m of marks)
      if (m[0] >= span[1]) {
        m[0] += shift;
        m[1] += shift;
      }
    if (h.new) marks.push([span[0] + (h.old ? 0 : 1), span[0] + insert.length]);
    from = span[0] + insert.length;
  }
  marks.sort((a, b) => a[0] - b[0]);
  let marked = '';
  let at = 0;
  for (const [a, b] of marks) {
    marked += escapeMarkdown(text.slice(at, a)) + `**${escapeMarkdown(text.slice(a, b))}**`;
    at = b;
  }
  marked += escapeMarkdown(text.slice(at));
  return { text, marked };
}

/** Page text shown as Markdown: characters that would start syntax are escaped. */
export function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_[\]<>#|~])/g, '\\$1').replace(/^(\s*)(\d+)\.(\s)/gm, '$1$2\\.$3').replace(/^(\s*)([-+])(\s)/gm, '$1\\$2$3');
}

const markers = (ns: number[]) => [...new Set(ns)].map((n) => `[${n}]`).join('');

// ---- building ----

interface SentenceFix {
  span: [number, number];
  claims: number[];
}

/** The corrected text of `original` given its checked claims (in any order). */
export function buildCorrectedText(original: string, claims: ClaimForText[]): CorrectedText {
  const fixes = new Map<string, SentenceFix>();
  const unplaced: number[] = [];
  const used: [number, number][] = [];
  claims.forEach((c, i) => {
    if (!changesText(c.verdict)) return;
    const key = fold(c.sentence || c.claim);
    const known = fixes.get(key);
    if (known) return void known.claims.push(i);
    let span = findFree(original, c.sentence || c.claim, used);
    if (!span) span = findFree(original, c.claim, used);
    if (!span) return void unplaced.push(i);
    used.push(span);
    fixes.set(key, { span, claims: [i] });
  });

  const ordered = [...fixes.values()].sort((a, b) => a.span[0] - b.span[0]);
  const parts: TextPart[] = [];
  let at = 0;
  for (const f of ordered) {
    if (f.span[0] > at) parts.push({ kind: 'same', text: original.slice(at, f.span[0]) });
    parts.push(fixSentence(original.slice(f.span[0], f.span[1]), f.claims, claims));
    at = f.span[1];
  }
  if (at < original.length || !parts.length) parts.push({ kind: 'same', text: original.slice(at) });

  let text = '';
  let markdown = '';
  for (const p of parts) {
    if (p.kind === 'same') {
      text += p.text;
      markdown += escapeMarkdown(p.text);
    } else if (p.kind === 'fixed') {
      text += p.text;
      markdown += `${p.marked}${p.sources.length ? ` ${markers(p.sources)}` : ''}`;
    } else {
      text += REMOVED_NOTE;
      markdown += `*${escapeMarkdown(REMOVED_NOTE)}*${p.sources.length ? ` ${markers(p.sources)}` : ''}`;
    }
  }
  if (unplaced.length) {
    const lines = unplaced.map((i) => claims[i] as ClaimForText).map((c) => ({ c, fix: c.corrected?.trim() && c.corrected.trim() !== c.claim.trim() ? c.corrected.trim() : REMOVED_NOTE }));
    text += `\n\n${lines.map((l) => `• ${l.fix}`).join('\n')}`;
    markdown += `\n\n${lines.map((l) => `- **${escapeMarkdown(l.fix)}**${l.c.sources.length ? ` ${markers(l.c.sources)}` : ''}`).join('\n')}`;
  }
  return { parts, text: text.trim(), markdown: markdown.trim(), unplaced };
}

function findFree(text: string, needle: string, used: [number, number][]): [number, number] | undefined {
  let from = 0;
  for (;;) {
    const span = locate(text, needle, from);
    if (!span) return undefined;
    if (!used.some(([a, b]) => span[0] < b && a < span[1])) return span;
    from = span[0] + 1;
  }
}

/** One sentence with the fixes of every changing claim drawn from it. */
function fixSentence(sentence: string, idx: number[], claims: ClaimForText[]): TextPart {
  const all = idx.map((i) => claims[i] as ClaimForText);
  const sources = all.flatMap((c) => c.sources);
  const withFix = all.filter((c) => c.corrected?.trim() && fold(c.corrected) !== fold(c.claim));
  if (!withFix.length) return { kind: 'removed', original: sentence, claims: idx, sources };
  // In place, word by word, when every correction is a fix of a few words found in the sentence.
  const hs = withFix.map((c) => hunks(c.claim, c.corrected as string));
  if (withFix.length === all.length && hs.every((h, i) => h.length && changedShare(withFix[i]!.claim, h) <= REWRITE_SHARE)) {
    const applied = applyHunks(sentence, hs);
    if (applied && acceptsSentence(applied.text, sentence, hs.flat())) return { kind: 'fixed', text: applied.text, marked: applied.marked, original: sentence, claims: idx, sources };
  }
  // Otherwise the sentence gives way to its corrected claims.
  const lead = sentence.match(/^\s*/)?.[0] ?? '';
  const tail = sentence.match(/\s*$/)?.[0] ?? '';
  const text = withFix.map((c) => ensureStop((c.corrected as string).trim())).join(' ');
  return { kind: 'fixed', text: `${lead}${text}${tail}`, marked: `${escapeMarkdown(lead)}**${escapeMarkdown(text)}**${escapeMarkdown(tail)}`, original: sentence, claims: idx, sources };
}

function ensureStop(s: string): string {
  return /[.!?。！？…]$/.test(s) ? s : `${s}.`;
}

/** Every new word is in, and no replaced word is left where it was. */
function acceptsSentence(text: string, original: string, hs: Hunk[]): boolean {
  const t = fold(text);
  return hs.every((h) => (!h.new || t.includes(fold(h.new))) && (!h.old || count(t, fold(h.old)) < count(fold(original), fold(h.old)) || fold(h.new).includes(fold(h.old))));
}

function count(hay: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Whether a passage the model wrote can stand as the corrected text: it holds the new words of
 * every correction, none of the words a correction replaced (beyond where the original has them
 * outside the checked sentences), and no sentence found false as it stood. */
export function acceptsPassage(passage: string, original: string, claims: ClaimForText[]): boolean {
  const p = fold(passage);
  if (!p) return false;
  let outside = fold(original);
  const fixing = claims.filter((c) => changesText(c.verdict));
  for (const c of fixing) outside = outside.split(fold(c.sentence || c.claim)).join(' ');
  for (const c of fixing) {
    const sentence = fold((c.sentence || c.claim).replace(TRAILING, ''));
    if (sentence && p.includes(sentence)) return false;
    const fixed = c.corrected?.trim() && fold(c.corrected) !== fold(c.claim) ? c.corrected : undefined;
    if (!fixed) continue; // removed: the sentence check above is the test
    for (const h of hunks(c.claim, fixed)) {
      if (h.new && !p.includes(fold(h.new))) return false;
      if (h.old && !fold(h.new).includes(fold(h.old)) && count(p, fold(h.old)) > count(outside, fold(h.old))) return false;
    }
  }
  return true;
}
