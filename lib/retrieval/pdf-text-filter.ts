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

/** Same point, to pdf.js's rounding. */
const near = (a: number, b: number): boolean => Math.abs(a - b) <= 0.05 + Math.abs(b) * 1e-4;

/** The glyphs' letters in drawing order, each with its glyph's verdict, and a cursor that follows
 * the text items through them. */
export class GlyphLetters {
  /** Where the next item's letters are looked for. */
  cursor = 0;
  private readonly chars: string[] = [];
  private readonly visible: boolean[] = [];
  /** Each glyph's first letter. */
  private readonly start: number[] = [];
  /** Each letter's glyph. */
  private readonly glyphAt: number[] = [];

  constructor(private readonly marks: GlyphMark[]) {
    marks.forEach((m, j) => {
      this.start.push(this.chars.length);
      for (const c of skeleton(m.text)) {
        this.chars.push(c);
        this.visible.push(m.visible);
        this.glyphAt.push(j);
      }
    });
  }

  /** Moves the cursor to the glyph at (x, y) (where an item starts), when one with letters lies
   * ahead within ANCHOR_WINDOW glyphs; else the cursor stays. */
  anchor(x: number, y: number): void {
    const { marks } = this;
    const from = this.glyphAt[this.cursor] ?? marks.length;
    for (let j = from; j < Math.min(marks.length, from + ANCHOR_WINDOW); j++) {
      const m = marks[j];
      const first = this.letterOf(j);
      if (m && near(m.x, x) && near(m.y, y) && first < this.letterOf(j + 1)) {
        this.cursor = first;
        return;
      }
    }
  }

  /** Finds a character's letters from the cursor on (a few glyphs of slack) and moves past those
   * found: whether all their glyphs are visible, or undefined when one is not found. */
  match(letters: string): boolean | undefined {
    let found = true;
    let visible = true;
    for (const c of letters) {
      const q = this.find(c);
      if (q === undefined) {
        found = false;
        continue;
      }
      visible &&= this.visible[q] ?? false;
      this.cursor = q + 1;
    }
    return found ? visible : undefined;
  }

  /** Whether the glyphs of letters [from, to) are all visible; false when `from` is past the end. */
  allVisible(from: number, to: number): boolean {
    if (from >= this.chars.length) return false;
    return this.visible.slice(from, Math.min(to, this.chars.length)).every(Boolean);
  }

  private letterOf(glyph: number): number {
    return this.start[glyph] ?? this.chars.length;
  }

  private find(c: string): number | undefined {
    // The letter at the cursor and up to LOOKAHEAD + 1 beyond it (the bound the matcher has used).
    const last = Math.min(this.chars.length - 1, this.cursor + LOOKAHEAD + 1);
    for (let q = this.cursor; q <= last; q++) if (this.chars[q] === c) return q;
    return undefined;
  }
}

/** Whether each of an item's letters is kept: matched to glyphs, it follows them; unmatched, it
 * stands for the glyphs the item spans and is kept only if all of those are visible. Spaces and
 * marks are left undecided (they follow their neighbours). */
function lettersKept(letters: string[], rtl: boolean, glyphs: GlyphLetters): (boolean | undefined)[] {
  const order = letters.map((_, k) => k);
  if (rtl) order.reverse();
  const keep = new Array<boolean | undefined>(letters.length).fill(undefined);
  const first = glyphs.cursor;
  let unmatched = false;
  for (const k of order) {
    const sk = skeleton(letters[k] ?? '');
    if (!sk) continue; // a space or a combining mark: follows its neighbours
    keep[k] = glyphs.match(sk);
    unmatched ||= keep[k] === undefined;
  }
  if (unmatched) {
    const all = glyphs.allVisible(first, Math.max(glyphs.cursor, first + letters.length));
    for (const k of order) if (keep[k] === undefined && skeleton(letters[k] ?? '')) keep[k] = all;
  }
  return keep;
}

/** The kept letters as text, spaces and marks going with the character before them (in reading
 * order), and how many characters were left out. */
function keptText(letters: string[], keep: (boolean | undefined)[]): { text: string; hidden: number } {
  let prev = true;
  let text = '';
  let hidden = 0;
  letters.forEach((ch, k) => {
    const own = keep[k];
    if (own !== undefined) prev = own;
    if (own ?? (/\s/.test(ch) || prev)) text += ch;
    else if (!/\s/.test(ch)) hidden++;
  });
  return { text, hidden };
}

export function keepVisibleText(items: unknown[], marks: GlyphMark[]): FilteredText {
  const glyphs = new GlyphLetters(marks);
  let hidden = 0;
  const out = items.map((it) => {
    if (!isItem(it) || !it.str.trim()) return it;
    // Resynchronise on the glyph the item starts at (same origin), when there is one.
    const [ix, iy] = [it.transform?.[4], it.transform?.[5]];
    if (typeof ix === 'number' && typeof iy === 'number') glyphs.anchor(ix, iy);
    const letters = [...it.str];
    const kept = keptText(letters, lettersKept(letters, it.dir === 'rtl', glyphs));
    hidden += kept.hidden;
    return { ...it, str: kept.text.trim() ? kept.text : '' };
  });
  return { items: out, hidden };
}
