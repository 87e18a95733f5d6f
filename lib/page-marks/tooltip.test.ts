/** Where the tooltip goes (its placement is pure geometry; the tooltip itself is covered end to
 * end in Chromium, test/e2e/marks.spec.ts). */
import { describe, expect, it } from 'vitest';
import { bestPlace, pushedPast, type Box } from './tooltip';

const rect = (left: number, top: number, width: number, height: number): DOMRect => ({ left, top, width, height, right: left + width, bottom: top + height, x: left, y: top, toJSON: () => ({}) });
const VIEW = { width: 800, height: 600 };
const LINE = rect(100, 100, 300, 20);

describe('pushedPast', () => {
  it('a place that covers nothing is the only one', () => {
    expect(pushedPast([rect(0, 500, 10, 10)], { left: 100, top: 126, width: 200, height: 50 }, 1)).toEqual([{ left: 100, top: 126, width: 200, height: 50 }]);
  });

  it('pushed below the marks it would cover, then above when going up', () => {
    const marks = [rect(150, 140, 100, 20), rect(120, 200, 100, 20)];
    expect(pushedPast(marks, { left: 100, top: 126, width: 200, height: 50 }, 1).map((b) => b.top)).toEqual([126, 166, 226]);
    expect(pushedPast([rect(150, 60, 100, 20)], { left: 100, top: 44, width: 200, height: 50 }, -1).map((b) => b.top)).toEqual([44, 4]);
  });

  it('gives up after six tries', () => {
    const wall = Array.from({ length: 10 }, (_, i) => rect(100, 126 + i * 60, 200, 55));
    expect(pushedPast(wall, { left: 100, top: 126, width: 200, height: 50 }, 1)).toHaveLength(6);
  });
});

describe('bestPlace', () => {
  const at = (left: number, top: number): Box => ({ left, top, width: 200, height: 50 });

  it('the nearest place below the line that fits and covers no mark', () => {
    expect(bestPlace([at(600, 400), at(100, 126), at(100, 44)], [], LINE, VIEW)).toEqual(at(100, 126));
  });

  it('a place that covers a mark loses to one further away that covers none', () => {
    expect(bestPlace([at(100, 126), at(100, 300)], [rect(150, 140, 100, 20)], LINE, VIEW)).toEqual(at(100, 300));
  });

  it('when every place covers something, the one covering least; off the window counts as not fitting', () => {
    expect(bestPlace([at(100, 126), at(100, 44), at(700, 126)], [rect(100, 126, 200, 50), rect(100, 80, 50, 10)], LINE, VIEW)).toEqual(at(100, 44));
    expect(bestPlace([at(700, 126), at(-50, 126)], [], LINE, VIEW)).toEqual(at(700, 126));
  });
});
