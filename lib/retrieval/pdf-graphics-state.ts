/** The graphics state a PDF renderer keeps while it draws (transform, colours, alpha, blending,
 * text state and text position), and the operators of pdf.js's operator list that only change it.
 * Used by lib/retrieval/pdf-visibility.ts, which handles the operators that paint or clip. */
import { asMatrix, IDENTITY, mul, type Matrix, type Region } from './pdf-geometry';

export type Rgba = [number, number, number, number];
/** A paint's colour: known, none (transparent), or unknown (a pattern or shading). */
export type Colour = Rgba | 'none' | 'unknown';

export const WHITE: Rgba = [255, 255, 255, 1];

/** What the judge needs of a pdf.js font (its FontFaceObject). */
export interface FontFacts {
  fontMatrix?: number[];
  vertical?: boolean;
  isType3Font?: boolean;
  missingFile?: boolean;
  bbox?: number[];
}

export interface State {
  ctm: Matrix;
  /** Clipping areas in force (what shows is inside all of them). */
  clip: readonly Region[];
  fill: Colour;
  stroke: Colour;
  fillAlpha: number;
  strokeAlpha: number;
  /** Product of the alpha of the transparency groups around. */
  groupAlpha: number;
  /** A blend mode other than Normal, a soft mask, or a group with one: a paint then need not hide
   * what is under it. */
  blend: boolean;
  smask: boolean;
  groupMasked: boolean;
  font?: FontFacts;
  fontSize: number;
  fontDirection: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  /** Text render mode (Tr): 0 fill, 1 stroke, 2 both, 3 neither; +4 also clips. */
  mode: number;
  textMatrix: Matrix;
  /** Text position in the text matrix's space (as pdf.js's canvas keeps it). */
  x: number;
  y: number;
  lineX: number;
  lineY: number;
}

export function initialState(): State {
  return {
    ctm: IDENTITY, clip: [], fill: [0, 0, 0, 1], stroke: [0, 0, 0, 1], fillAlpha: 1, strokeAlpha: 1, groupAlpha: 1, blend: false, smask: false, groupMasked: false,
    fontSize: 0, fontDirection: 1, charSpacing: 0, wordSpacing: 0, hScale: 1, leading: 0, rise: 0, mode: 0,
    textMatrix: IDENTITY, x: 0, y: 0, lineX: 0, lineY: 0,
  };
}

export const num = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);

/** pdf.js gives colours as "#rrggbb" (every colour space converted); anything else is a pattern. */
export const hexColour = (v: unknown): Colour =>
  typeof v === 'string' && /^#[0-9a-f]{6}$/i.test(v) ? [parseInt(v.slice(1, 3), 16), parseInt(v.slice(3, 5), 16), parseInt(v.slice(5, 7), 16), 1] : 'unknown';

/** `top` with alpha `a` painted over the opaque `bottom`. */
export const over = (top: Rgba, a: number, bottom: Rgba): Rgba => [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];

export function moveText(st: State, x: number, y: number): void {
  st.x = st.lineX += x;
  st.y = st.lineY += y;
}

function setFont(st: State, font: FontFacts | undefined, size: unknown): void {
  st.font = font;
  const s = num(size);
  st.fontDirection = s < 0 ? -1 : 1;
  st.fontSize = Math.abs(s);
}

type Fonts = (name: string) => FontFacts | undefined;
type StateOp = (st: State, args: unknown[], fonts: Fonts) => void;

const fontNamed = (fonts: Fonts, name: unknown) => (typeof name === 'string' ? fonts(name) : undefined);

/** Entries of an ExtGState (setGState) that the judge follows. */
const GSTATE_ENTRIES: Record<string, (st: State, value: unknown, fonts: Fonts) => void> = {
  ca: (st, v) => (st.fillAlpha = num(v, 1)),
  CA: (st, v) => (st.strokeAlpha = num(v, 1)),
  BM: (st, v) => (st.blend = typeof v === 'string' && v !== 'source-over'),
  SMask: (st, v) => (st.smask = !!v),
  Font: (st, v, fonts) => Array.isArray(v) && setFont(st, fontNamed(fonts, v[0]), v[1]),
};

function setGState(st: State, args: unknown[], fonts: Fonts): void {
  for (const entry of (Array.isArray(args[0]) ? args[0] : []) as unknown[]) {
    if (!Array.isArray(entry)) continue;
    const [key, value] = entry as [string, unknown];
    if (Object.hasOwn(GSTATE_ENTRIES, key)) GSTATE_ENTRIES[key]?.(st, value, fonts);
  }
}

const resetTextPosition = (st: State) => {
  st.x = st.y = st.lineX = st.lineY = 0;
};

/** The operators that only change the state, by their name in pdf.js's OPS table. */
const STATE_OPS: Record<string, StateOp> = {
  transform: (st, args) => {
    const m = asMatrix(args);
    if (m) st.ctm = mul(st.ctm, m);
  },
  setGState,
  setFillRGBColor: (st, args) => (st.fill = hexColour(args[0])),
  setStrokeRGBColor: (st, args) => (st.stroke = hexColour(args[0])),
  setFillTransparent: (st) => (st.fill = 'none'),
  setStrokeTransparent: (st) => (st.stroke = 'none'),
  setFillColorN: (st) => (st.fill = 'unknown'),
  setStrokeColorN: (st) => (st.stroke = 'unknown'),
  setTextRenderingMode: (st, args) => (st.mode = num(args[0])),
  setCharSpacing: (st, args) => (st.charSpacing = num(args[0])),
  setWordSpacing: (st, args) => (st.wordSpacing = num(args[0])),
  setHScale: (st, args) => (st.hScale = num(args[0], 100) / 100),
  setLeading: (st, args) => (st.leading = -num(args[0])),
  setTextRise: (st, args) => (st.rise = num(args[0])),
  setFont: (st, args, fonts) => setFont(st, fontNamed(fonts, args[0]), args[1]),
  beginText: (st) => {
    st.textMatrix = IDENTITY;
    resetTextPosition(st);
  },
  moveText: (st, args) => moveText(st, num(args[0]), num(args[1])),
  setLeadingMoveText: (st, args) => {
    st.leading = num(args[1]);
    moveText(st, num(args[0]), num(args[1]));
  },
  setTextMatrix: (st, args) => {
    const m = asMatrix(args[0]) ?? asMatrix(args);
    if (m) st.textMatrix = m;
    resetTextPosition(st);
  },
  nextLine: (st) => moveText(st, 0, st.leading),
};

/** STATE_OPS by operator code, for one OPS table (pdf.js's codes are fixed, the table is shared). */
const byCode = new WeakMap<Record<string, number>, Map<number, StateOp>>();
function stateOpsFor(O: Record<string, number>): Map<number, StateOp> {
  let ops = byCode.get(O);
  if (!ops) {
    ops = new Map();
    for (const [name, op] of Object.entries(STATE_OPS)) {
      const code = O[name];
      if (code !== undefined && !ops.has(code)) ops.set(code, op);
    }
    byCode.set(O, ops);
  }
  return ops;
}

/** Applies an operator that only changes the state; false for any other operator. */
export function applyStateOp(st: State, fn: number, args: unknown[], O: Record<string, number>, fonts: Fonts): boolean {
  const op = stateOpsFor(O).get(fn);
  if (!op) return false;
  op(st, args, fonts);
  return true;
}
