import { describe, expect, it } from 'vitest';
import { contains, pathRegion } from './pdf-geometry';
import { GlyphLetters, keepVisibleText } from './pdf-text-filter';
import type { GlyphMark } from './pdf-visibility';

/** Glyph verdicts for `text` starting at (x, y), one glyph per character, 6 units apart; `hidden`
 * lists the hidden characters' indices. */
function glyphs(text: string, x: number, y: number, hidden: number[] = []): GlyphMark[] {
  return [...text].filter((c) => c.trim()).map((c, i) => ({ text: c, visible: !hidden.includes(i), x: x + i * 6, y }));
}
const item = (str: string, x: number, y: number, dir = 'ltr') => ({ str, dir, transform: [12, 0, 0, 12, x, y], width: 10, height: 12, hasEOL: false });
const strs = (items: unknown[]) => items.map((i) => (i as { str: string }).str);

describe('keeping the visible characters of text items', () => {
  it('drops hidden glyphs inside an item and keeps its visible ones', () => {
    const marks = glyphs('abcXYZdef', 72, 700, [3, 4, 5]);
    const r = keepVisibleText([item('abc XYZ def', 72, 700)], marks);
    expect(strs(r.items)).toEqual(['abc  def']);
    expect(r.hidden).toBe(3);
  });

  it('matches ligatures by their letters and right-to-left items in reverse', () => {
    // pdf.js normalises "ﬁ" to "fi"; a right-to-left item is the glyphs in reverse order.
    const lig = keepVisibleText([item('fine', 72, 700)], [{ text: 'ﬁ', visible: true, x: 72, y: 700 }, ...glyphs('ne', 80, 700)]);
    expect(strs(lig.items)).toEqual(['fine']);
    const rtl = keepVisibleText([item('אבג', 72, 600, 'rtl')], glyphs('גבא', 72, 600, [0]));
    expect(strs(rtl.items)).toEqual(['אב']);
  });

  it('finds each item’s glyphs by where it starts, whatever came before', () => {
    // Glyphs the text content left out (off the page) come first: the second item starts at (72, 650).
    const marks = [...glyphs('zzzz', -900, 700, [0, 1, 2, 3]), ...glyphs('one', 72, 700), ...glyphs('two', 72, 650, [0, 1, 2])];
    const r = keepVisibleText([item('one', 72, 700), item('two', 72, 650)], marks);
    expect(strs(r.items)).toEqual(['one', '']);
  });

  it('keeps a character it cannot match only when every glyph around it is visible', () => {
    const shown = keepVisibleText([item('a?c', 72, 700)], glyphs('abc', 72, 700));
    expect(strs(shown.items)).toEqual(['a?c']);
    const mixed = keepVisibleText([item('a?c', 72, 700)], glyphs('abc', 72, 700, [1]));
    expect(strs(mixed.items)).toEqual(['ac']);
  });
});

describe('the glyph letters an item is matched against', () => {
  it('finds a letter a few glyphs ahead of the cursor, not further', () => {
    const near = new GlyphLetters(glyphs('abcdefg', 72, 700));
    expect(near.match('f')).toBe(true); // five ahead
    expect(near.cursor).toBe(6);
    const far = new GlyphLetters(glyphs('abcdefg', 72, 700));
    expect(far.match('g')).toBeUndefined(); // six ahead
    expect(far.cursor).toBe(0);
  });

  it('says whether the matched glyphs are visible, and whether a span is all visible', () => {
    const g = new GlyphLetters(glyphs('abcd', 72, 700, [2]));
    expect(g.match('ab')).toBe(true);
    expect(g.match('c')).toBe(false);
    expect(g.allVisible(0, 2)).toBe(true);
    expect(g.allVisible(1, 4)).toBe(false);
    expect(g.allVisible(4, 6)).toBe(false); // past the end: nothing to vouch for it
  });

  it('moves the cursor to the glyph an item starts at, only ahead of it', () => {
    const g = new GlyphLetters([...glyphs('xy', 10, 700), ...glyphs('ab', 72, 650)]);
    g.anchor(72, 650);
    expect(g.cursor).toBe(2);
    g.anchor(10, 700); // behind the cursor: stays
    expect(g.cursor).toBe(2);
  });
});

describe('page areas', () => {
  it('tells inside from outside for rectangles, even-odd holes and curves', () => {
    const I = [1, 0, 0, 1, 0, 0] as [number, number, number, number, number, number];
    // Codes: 0 moveTo, 1 lineTo, 2 curveTo, 4 closePath.
    const rect = (x0: number, y0: number, x1: number, y1: number) => [0, x0, y0, 1, x1, y0, 1, x1, y1, 1, x0, y1, 4];
    const frame = pathRegion([...rect(0, 0, 100, 100), ...rect(25, 25, 75, 75)], I, true);
    expect(frame && contains(frame, 10, 10)).toBe(true);
    expect(frame && contains(frame, 50, 50)).toBe(false);
    const filled = pathRegion([...rect(0, 0, 100, 100), ...rect(25, 25, 75, 75)], I, false);
    expect(filled && contains(filled, 50, 50)).toBe(true);
    const single = pathRegion(rect(0, 0, 10, 10), [2, 0, 0, 2, 5, 5], false);
    expect(single).toEqual({ box: [5, 5, 25, 25] });
    // A lens: two curves between (0, 0) and (100, 0).
    const lens = pathRegion([0, 0, 0, 2, 30, 40, 70, 40, 100, 0, 2, 70, -40, 30, -40, 0, 0, 4], I, false);
    expect(lens && contains(lens, 50, 20)).toBe(true);
    expect(lens && contains(lens, 5, 25)).toBe(false);
  });
});
