import { describe, expect, it } from 'vitest';
import { applyStateOp, initialState, type State } from './pdf-graphics-state';
import { glyphBox, kerning, offPage, onPage, textRun } from './pdf-text-run';

const OPS = { transform: 12, setFont: 37, setCharSpacing: 33, setGState: 9, fill: 22, beginText: 31 };
const font = { fontMatrix: [0.001, 0, 0, 0.001] };
const at = (x: number, y: number, size = 12, extra: Partial<State> = {}): State => ({ ...initialState(), font, fontSize: size, textMatrix: [1, 0, 0, 1, x, y], ...extra });

describe('where a text run puts its glyphs', () => {
  it('a horizontal glyph: its box one em high from the baseline, its centre and its advance', () => {
    const run = textRun(at(72, 700));
    expect(run.size).toBeCloseTo(12);
    const box = glyphBox(run, { wordSpacing: 0, charSpacing: 0 }, { unicode: 'a', width: 500 }, 0);
    expect(box.step).toBeCloseTo(6);
    expect(onPage(run, box.ou, box.ov)).toEqual([72, 700]);
    expect(onPage(run, box.cu, box.cv)[0]).toBeCloseTo(75);
    expect(onPage(run, box.cu, box.cv)[1]).toBeCloseTo(703.6);
    expect(box.v1 - box.v0).toBeCloseTo(12);
  });

  it('spacing, kerning and vertical text move the pen as pdf.js does', () => {
    const run = textRun(at(0, 0));
    expect(glyphBox(run, { wordSpacing: 4, charSpacing: 1 }, { width: 250, isSpace: true }, 0).step).toBeCloseTo(3 + 5);
    expect(kerning(run, 1000)).toBeCloseTo(-12); // a positive TJ number moves left
    const vertical = textRun({ ...at(0, 0), font: { ...font, vertical: true } });
    const box = glyphBox(vertical, { wordSpacing: 0, charSpacing: 0 }, { vmetric: [-1000] }, 0);
    expect(box.step).toBeCloseTo(12);
    expect(kerning(vertical, 1000)).toBeCloseTo(12);
  });

  it('a glyph is off the page only when no part of it is on it', () => {
    const view = [0, 0, 612, 792] as [number, number, number, number];
    const g = { unicode: 'a', width: 500 };
    const run = (x: number) => textRun(at(x, 700));
    const box = (x: number) => glyphBox(run(x), { wordSpacing: 0, charSpacing: 0 }, g, 0);
    expect(offPage(run(-3), box(-3), view)).toBe(false); // cut by the edge: still shows
    expect(offPage(run(-7), box(-7), view)).toBe(true);
    expect(offPage(run(620), box(620), view)).toBe(true);
  });
});

describe('operators that only change the graphics state', () => {
  const fonts = (name: string) => (name === 'F1' ? { fontMatrix: [0.002, 0, 0, 0.002] } : undefined);

  it('are applied by their code and say so; any other operator is left alone', () => {
    const st = initialState();
    expect(applyStateOp(st, OPS.setFont, ['F1', -10], OPS, fonts)).toBe(true);
    expect(st).toMatchObject({ font: { fontMatrix: [0.002, 0, 0, 0.002] }, fontSize: 10, fontDirection: -1 });
    expect(applyStateOp(st, OPS.setCharSpacing, [1.5], OPS, fonts)).toBe(true);
    expect(st.charSpacing).toBe(1.5);
    expect(applyStateOp(st, OPS.fill, [], OPS, fonts)).toBe(false);
  });

  it('follow the graphics-state dictionary entries they know, and ignore the rest', () => {
    const st = initialState();
    applyStateOp(st, OPS.setGState, [[['ca', 0.5], ['BM', 'multiply'], ['Font', ['F1', 8]], ['toString', 1], ['LW', 3]]], OPS, fonts);
    expect(st).toMatchObject({ fillAlpha: 0.5, strokeAlpha: 1, blend: true, fontSize: 8 });
  });
});
