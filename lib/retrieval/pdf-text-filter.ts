/** Keeps the visible part of a PDF page's text content. pdf.js builds its text items
 * (`getTextContent`) from the same glyphs, in the same order, that its operator list draws; the
 * glyphs were judged in lib/retrieval/pdf-visibility.ts. Each item is matched to its glyphs (it
 * starts where its first glyph starts; its characters are the glyphs' Unicode text, normalised,
 * and reversed in right-to-left items), and only characters of visible glyphs are kept. A character
 * that cannot be matched is kept only when every glyph around it is visible: an item that mixes
 * hidden and visible glyphs never keeps a character on a guess. */
import type { GlyphMark } from './pdf-visibility';

interface Item {
  str: string;
  dir?: string;
  transform?: number[];
}

const isItem = (x: unknown): x is Item => typeof x === 'object' && x !== null && typeof (x as Item).str === 'string';

/** How many glyphs ahead a character may be found (glyphs pdf.js leaves out of its text: off the
 * page, invisible format marks). */
const LOOKAHEAD = 4;
/** How far ahead an item's first glyph is looked for by position. */
const ANCHOR_WINDOW = 2000;

/** The letters a character is compared by: compatibility-decomposed (ligatures, presentation
 * forms), without combining marks, format characters and spaces. */
function skeleton(s: string): string {
  if (/^[\x21-\x7e]*$/.test(s)) return s;
  return s.normalize('NFKD').replace(/[\p{M}\p{Cf}\s]/gu, '');
}

export interface FilteredText {
  items: unknown[];
  /** Characters left out. */
  hidden: number;
}

export function keepVisibleText(items: unknown[], marks: GlyphMark[]): FilteredText {
  // The glyphs' letters in drawing order, each with its glyph's verdict.
  const chars: string[] = [];
  const visible: boolean[] = [];
  const start: number[] = [];
  for (const m of marks) {
    start.push(chars.length);
    for (const c of skeleton(m.text)) {
      chars.push(c);
      visible.push(m.visible);
    }
  }
  const glyphAt: number[] = [];
  marks.forEach((_, j) => {
    for (let k = start[j] as number; k < (start[j + 1] ?? chars.length); k++) glyphAt[k] = j;
  });
  let p = 0;
  let hidden = 0;
  const out: unknown[] = [];
  for (const it of items) {
    if (!isItem(it) || !it.str.trim()) {
      out.push(it);
      continue;
    }
    // Resynchronise on the glyph the item starts at (same origin), when there is one.
    const [ix, iy] = [it.transform?.[4], it.transform?.[5]];
    if (typeof ix === 'number' && typeof iy === 'number') {
      const from = p < chars.length ? (glyphAt[p] ?? marks.length) : marks.length;
      for (let j = from; j < Math.min(marks.length, from + ANCHOR_WINDOW); j++) {
        const m = marks[j] as GlyphMark;
        if (Math.abs(m.x - ix) <= 0.05 + Math.abs(ix) * 1e-4 && Math.abs(m.y - iy) <= 0.05 + Math.abs(iy) * 1e-4 && (start[j] as number) < (start[j + 1] ?? chars.length)) {
          p = start[j] as number;
          break;
        }
      }
    }
    const letters = [...it.str];
    const order = letters.map((_, k) => k);
    if (it.dir === 'rtl') order.reverse();
    const keep: (boolean | undefined)[] = new Array(letters.length).fill(undefined);
    const first = p;
    let unmatched = false;
    for (const k of order) {
      const sk = skeleton(letters[k] as string);
      if (!sk) continue; // a space or a combining mark: follows its neighbours
      let ok = true;
      let vis = true;
      for (const c of sk) {
        let q = p;
        while (q < chars.length && q <= p + LOOKAHEAD && chars[q] !== c) q++;
        if (q < chars.length && chars[q] === c) {
          vis &&= visible[q] as boolean;
          p = q + 1;
        } else ok = false;
      }
      if (ok) keep[k] = vis;
      else unmatched = true;
    }
    if (unmatched) {
      // Unmatched characters stand for the glyphs the item spans: kept only if all are visible.
      const span = Math.max(p, first + letters.length);
      let all = true;
      for (let q = first; q < Math.min(span, chars.length); q++) all &&= visible[q] as boolean;
      if (first >= chars.length) all = false;
      order.forEach((k) => {
        if (keep[k] === undefined && skeleton(letters[k] as string)) keep[k] = all;
      });
    }
    // Spaces and marks go with the character before them (in reading order).
    let prev = true;
    let text = '';
    letters.forEach((ch, k) => {
      const v = keep[k] ?? (/\s/.test(ch) ? true : prev);
      if (keep[k] !== undefined) prev = keep[k] as boolean;
      if (v) text += ch;
      else if (!/\s/.test(ch)) hidden++;
    });
    out.push({ ...it, str: text.trim() ? text : '' });
  }
  return { items: out, hidden };
}
