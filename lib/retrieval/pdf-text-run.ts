/** Where the glyphs of one text-showing operator land: the run's font metrics and matrix, and each
 * glyph's box, origin and centre in page space, as pdf.js's canvas renderer places them. Used by
 * lib/retrieval/pdf-replay.ts, which judges each glyph. */
import { mul, type Matrix } from './pdf-geometry';
import type { State } from './pdf-graphics-state';

/** A glyph of pdf.js's operator list (showText's argument holds these and kerning numbers). */
export interface Glyph {
  fontChar?: string;
  unicode?: string;
  width?: number;
  vmetric?: number[];
  isSpace?: boolean;
  isInFont?: boolean;
}

/** What every glyph of one run shares. */
export interface TextRun {
  /** Run space to page space. */
  m: Matrix;
  fontSize: number;
  /** The font's em in run units. */
  em: number;
  /** Glyph widths (1/1000 em units) to run units. */
  widthScale: number;
  /** Horizontal scale with the font's direction. */
  h: number;
  dir: number;
  vertical: boolean;
  /** The glyphs' size on the page, in points. */
  size: number;
  /** Render mode 4–7: the glyphs also clip. */
  clipping: boolean;
  /** Render mode without the clip bit: 0 fill, 1 stroke, 2 both, 3 neither. */
  paints: number;
  /** Whether a glyph the font lacks is drawn as nothing (a font with its own file, not Type 3). */
  lacksMeanUnpainted: boolean;
}

const DEFAULT_FONT_MATRIX = [0.001, 0, 0, 0.001];

export function textRun(st: State): TextRun {
  const font = st.font ?? {};
  const fm = font.fontMatrix && font.fontMatrix.length >= 4 ? font.fontMatrix : DEFAULT_FONT_MATRIX;
  const fontSize = st.fontSize;
  const bboxHeight = font.bbox ? Math.abs((font.bbox[3] ?? 0) - (font.bbox[1] ?? 0)) : 0;
  const em = font.isType3Font ? fontSize * (bboxHeight > 0 ? bboxHeight * Math.abs(fm[3] ?? 0) : 1) : (fontSize * Math.abs(fm[3] ?? 0.001)) / 0.001;
  const dir = st.fontDirection;
  const h = st.hScale * dir;
  const m = mul(st.ctm, mul(st.textMatrix, [1, 0, 0, 1, st.x, st.y + st.rise]));
  const [a, b, c, d] = m;
  return {
    m,
    fontSize,
    em,
    widthScale: fontSize * (fm[0] ?? 0.001),
    h,
    dir,
    vertical: !!font.vertical,
    size: Math.min(Math.hypot(c, d) * em, Math.hypot(a, b) * Math.abs(h) * em),
    clipping: st.mode >= 4,
    paints: st.mode & 3,
    lacksMeanUnpainted: !font.isType3Font && !font.missingFile,
  };
}

/** How far a kerning number (thousandths of an em, as in a TJ array) moves the pen. */
export const kerning = (run: TextRun, k: number): number => ((run.vertical ? 1 : -1) * k * run.fontSize) / 1000;

/** One glyph placed at pen position `x` of its run, in run space. */
export interface GlyphBox {
  /** Its box, one em high: [u0, u1] × [v0, v1]. */
  u0: number;
  u1: number;
  v0: number;
  v1: number;
  /** Where it starts (text items start at a glyph's origin). */
  ou: number;
  ov: number;
  /** The point it is judged at. */
  cu: number;
  cv: number;
  /** How far the pen moves after it (advance and spacing). */
  step: number;
}

export function glyphBox(run: TextRun, st: Pick<State, 'wordSpacing' | 'charSpacing'>, g: Glyph, x: number): GlyphBox {
  const { em, h, dir } = run;
  const spacing = (g.isSpace ? st.wordSpacing : 0) + st.charSpacing;
  if (run.vertical) {
    const advance = -(g.vmetric?.[0] ?? 1000) * run.widthScale;
    return { u0: -em / 2, u1: em / 2, v0: -(x + advance), v1: -x, ou: 0, ov: -x, cu: 0, cv: -(x + advance / 2), step: advance - spacing * dir };
  }
  const advance = (g.width ?? 0) * run.widthScale;
  return { u0: x * h, u1: (x + advance) * h, v0: -0.2 * em * dir, v1: 0.8 * em * dir, ou: x * h, ov: 0, cu: (x + advance / 2) * h, cv: 0.3 * em * dir, step: advance + spacing * dir };
}

/** A run-space point in page space. */
export function onPage(run: TextRun, u: number, v: number): [number, number] {
  const [a, b, c, d, e, f] = run.m;
  return [a * u + c * v + e, b * u + d * v + f];
}

/** No part of the glyph's box is on the page (a glyph cut by the edge still shows). */
export function offPage(run: TextRun, g: GlyphBox, view: readonly [number, number, number, number]): boolean {
  const [a, b, c, d, e, f] = run.m;
  const xs = [a * g.u0 + c * g.v0, a * g.u1 + c * g.v0, a * g.u0 + c * g.v1, a * g.u1 + c * g.v1];
  const ys = [b * g.u0 + d * g.v0, b * g.u1 + d * g.v0, b * g.u0 + d * g.v1, b * g.u1 + d * g.v1];
  return Math.max(...xs) + e < view[0] || Math.min(...xs) + e > view[2] || Math.max(...ys) + f < view[1] || Math.min(...ys) + f > view[3];
}
