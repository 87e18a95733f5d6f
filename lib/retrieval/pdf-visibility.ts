/** Which glyphs of a PDF page a reader can see, by replaying the page's drawing: pdf.js's operator
 * list (`page.getOperatorList()`, what its canvas renderer draws from) is interpreted with the
 * graphics state a renderer keeps (transforms, clipping, colours, alpha, text state, optional
 * content), and every glyph is judged by the rules the tab reader applies to HTML
 * (lib/retrieval/rendered-hidden.ts): not painted (render mode 3/7, a glyph the font lacks, an
 * optional-content layer that is off), fill (or outline) too close to the colour beneath it
 * (contrast < 1.25, alpha < 0.1), smaller than 3 pt (4 CSS px at 100 %), outside the page or its
 * clipping path, or painted over later by an opaque fill, image or shading.
 *
 * Judged at one point per glyph (its centre), like the tab reader's cover check; the text itself
 * still comes from `getTextContent` (lib/retrieval/pdf-text-filter.ts keeps its visible part). */
import { area, asMatrix, contains, IDENTITY, mul, PaintIndex, pathRegion, rectRegion, transformedRect, type Paint, type Region } from './pdf-geometry';
import { applyStateOp, initialState, moveText, num, over, WHITE, type Colour, type FontFacts, type Rgba, type State } from './pdf-graphics-state';
import { contrast } from './rendered-hidden';

/** Below this (in points, 1/72 in) text is not legible: 3 pt is 4 CSS px, the HTML threshold. */
export const MIN_PDF_TEXT_PT = 3;
const MIN_ALPHA = 0.1;
const MIN_CONTRAST = 1.25;
/** An image covering this share of the page makes a page a scan. */
const SCAN_SHARE = 0.5;

export interface GlyphMark {
  /** The glyph's text (its Unicode mapping), as pdf.js's text content has it. */
  text: string;
  visible: boolean;
  /** Where the glyph starts (its text-space origin in page space): text items start at one. */
  x: number;
  y: number;
  /** Why it is hidden, for tests and the trace. */
  reason?: HiddenReason;
}

export type HiddenReason = 'invisible' | 'not painted' | 'colour' | 'size' | 'clipped' | 'off page' | 'covered' | 'layer off';

export type { FontFacts };

/** What the interpreter needs of a pdf.js page: the operator list, the page box and fonts. */
export interface PageDrawing {
  ops: { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> };
  /** The page's view (crop) box [x0, y0, x1, y1]. */
  view: number[];
  /** pdf.js's OPS table (operator name → code). */
  OPS: Record<string, number>;
  font: (name: string) => FontFacts | undefined;
  /** Whether an optional-content group (or membership dictionary) is on. */
  layerVisible: (props: unknown) => boolean;
}

interface Glyph {
  fontChar?: string;
  unicode?: string;
  width?: number;
  vmetric?: number[];
  isSpace?: boolean;
  isInFont?: boolean;
}

interface Painted extends Paint {
  colour: Colour | 'image';
  alpha: number;
  /** Hides what is under it. */
  opaque: boolean;
}

interface Judged extends GlyphMark {
  seq: number;
  cx: number;
  cy: number;
  /** Invisible render mode, otherwise shown: kept only as a scanned page's OCR layer. */
  ocr?: boolean;
  inAnnotation: boolean;
}

export function judgeGlyphs(page: PageDrawing): GlyphMark[] {
  const O = page.OPS;
  const [vx0 = 0, vy0 = 0, vx1 = 612, vy1 = 792] = page.view;
  const view: [number, number, number, number] = [Math.min(vx0, vx1), Math.min(vy0, vy1), Math.max(vx0, vx1), Math.max(vy0, vy1)];
  const index = new PaintIndex<Painted>(view);
  const glyphs: Judged[] = [];
  const textClip: Region[] = [];
  const stack: State[] = [];
  const layers: boolean[] = [];
  let annotations = 0;
  let pendingClip: 'nonzero' | 'evenodd' | undefined;
  let seq = 0;
  let st: State = initialState();
  const save = () => stack.push({ ...st });
  const restore = () => {
    st = stack.pop() ?? st;
  };
  let layersOff = 0;

  const paint = (region: Region | undefined, colour: Colour | 'image', alpha: number, solid: boolean) => {
    if (!region || layersOff > 0) return;
    const a = alpha * st.groupAlpha;
    index.add({ seq: seq++, region, clip: st.clip, colour, alpha: a, opaque: solid && a >= 0.95 && !st.blend && !st.smask && !st.groupMasked && colour !== 'none' });
  };

  /** The colour under (x, y) before paint `at`: the page's white unless something was painted
   * there; null when an image or a pattern is in the way (then contrast is not judged). */
  const background = (x: number, y: number, at: number): Rgba | null => {
    let c: Rgba = WHITE;
    let unknown = false;
    const layers: Painted[] = [];
    index.under(x, y, at, (p) => {
      if (p.colour === 'none' || p.alpha < 0.01) return true;
      if (p.colour === 'image' || p.colour === 'unknown') {
        unknown = true;
        return false;
      }
      layers.push(p);
      return !p.opaque && layers.length <= 32;
    });
    if (unknown || layers.length > 32) return null;
    for (let i = layers.length - 1; i >= 0; i--) {
      const p = layers[i] as Painted;
      c = over(p.colour as Rgba, Math.min(1, p.alpha), c);
    }
    return c;
  };

  // Consecutive glyphs share colours: the last verdict is kept.
  let last: { colour: Colour; alpha: number; bg: Rgba | null; shows: boolean } | undefined;
  const shows = (colour: Colour, alpha: number, bg: Rgba | null): boolean => {
    const a = alpha * st.groupAlpha;
    if (colour === 'none' || a < MIN_ALPHA) return false;
    if (colour === 'unknown' || bg === null) return true;
    if (last && last.colour === colour && last.alpha === a && last.bg && bg.every((v, i) => v === last?.bg?.[i])) return last.shows;
    const v = contrast(over(colour, Math.min(1, a), bg), bg) >= MIN_CONTRAST;
    last = { colour, alpha: a, bg, shows: v };
    return v;
  };

  function hide(mark: Judged, reason: HiddenReason) {
    mark.visible = false;
    mark.reason ??= reason;
  }

  function showText(list: unknown) {
    if (!Array.isArray(list)) return;
    const font = st.font ?? {};
    const fm = font.fontMatrix && font.fontMatrix.length >= 4 ? font.fontMatrix : [0.001, 0, 0, 0.001];
    const fontSize = st.fontSize;
    const widthScale = fontSize * (fm[0] ?? 0.001);
    const bboxHeight = font.bbox ? Math.abs((font.bbox[3] ?? 0) - (font.bbox[1] ?? 0)) : 0;
    const em = font.isType3Font ? fontSize * (bboxHeight > 0 ? bboxHeight * Math.abs(fm[3] ?? 0) : 1) : (fontSize * Math.abs(fm[3] ?? 0.001)) / 0.001;
    const dir = st.fontDirection;
    const h = st.hScale * dir;
    const vertical = !!font.vertical;
    const [a, b, c, d, e, f] = mul(st.ctm, mul(st.textMatrix, [1, 0, 0, 1, st.x, st.y + st.rise]));
    const size = Math.min(Math.hypot(c, d) * em, Math.hypot(a, b) * Math.abs(h) * em);
    const clipping = st.mode >= 4;
    const paints = st.mode & 3;
    const notPaintedFont = !font.isType3Font && !font.missingFile;
    const off = layersOff > 0;
    let x = 0;
    for (const g of list as (Glyph | number)[]) {
      if (typeof g === 'number') {
        x += ((vertical ? 1 : -1) * g * fontSize) / 1000;
        continue;
      }
      if (!g || typeof g !== 'object') continue;
      const spacing = (g.isSpace ? st.wordSpacing : 0) + st.charSpacing;
      const advance = (vertical ? -(g.vmetric?.[0] ?? 1000) : (g.width ?? 0)) * widthScale;
      // The glyph's box in run space (one em high): [u0, u1] × [v0, v1].
      const [u0, u1, v0, v1] = vertical ? [-em / 2, em / 2, -(x + advance), -x] : [x * h, (x + advance) * h, -0.2 * em * dir, 0.8 * em * dir];
      const [ou, ov] = vertical ? [0, -x] : [x * h, 0];
      const [cu, cv] = vertical ? [0, -(x + advance / 2)] : [(x + advance / 2) * h, 0.3 * em * dir];
      if (clipping) textClip.push(transformedRect([a, b, c, d, e, f], u0, v0, u1, v1));
      x += vertical ? advance - spacing * dir : advance + spacing * dir;
      const text = g.unicode ?? '';
      if (!text.trim()) continue; // spaces are not glyphs of the text content
      const cx = a * cu + c * cv + e;
      const cy = b * cu + d * cv + f;
      const mark: Judged = { text, visible: true, x: a * ou + c * ov + e, y: b * ou + d * ov + f, seq: seq++, cx, cy, inAnnotation: annotations > 0 };
      glyphs.push(mark);
      if (off) hide(mark, 'layer off');
      if (notPaintedFont && g.isInFont === false) hide(mark, 'not painted');
      if (fontSize === 0 || size < MIN_PDF_TEXT_PT) hide(mark, 'size');
      // Off the page only when no part of it is on the page (a glyph cut by the edge still shows).
      const xs = [a * u0 + c * v0, a * u1 + c * v0, a * u0 + c * v1, a * u1 + c * v1];
      const ys = [b * u0 + d * v0, b * u1 + d * v0, b * u0 + d * v1, b * u1 + d * v1];
      if (Math.max(...xs) + e < view[0] || Math.min(...xs) + e > view[2] || Math.max(...ys) + f < view[1] || Math.min(...ys) + f > view[3]) hide(mark, 'off page');
      for (const r of st.clip) if (!contains(r, cx, cy)) hide(mark, 'clipped');
      if (!mark.visible) continue;
      if (paints === 3) {
        // Invisible text: a scanned page's OCR layer is its text (decided below).
        hide(mark, 'invisible');
        mark.ocr = true;
        continue;
      }
      const bg = background(cx, cy, mark.seq);
      const fillShows = (paints === 0 || paints === 2) && shows(st.fill, st.fillAlpha, bg);
      const strokeShows = (paints === 1 || paints === 2) && shows(st.stroke, st.strokeAlpha, bg);
      if (!fillShows && !strokeShows) hide(mark, 'colour');
    }
    if (vertical) st.y -= x;
    else st.x += x * h;
  }

  const { fnArray, argsArray } = page.ops;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = (argsArray[i] ?? []) as unknown[];
    if (applyStateOp(st, fn as number, args, O, page.font)) continue;
    switch (fn) {
      case O.save:
        save();
        break;
      case O.restore:
        restore();
        break;
      case O.endText:
        if (textClip.length) {
          st.clip = [...st.clip, unionOf(textClip.splice(0))];
        }
        break;
      case O.showText:
      case O.showSpacedText:
        showText(args[0]);
        break;
      case O.nextLineShowText:
        moveText(st, 0, st.leading);
        showText(args[0]);
        break;
      case O.nextLineSetSpacingShowText:
        st.wordSpacing = num(args[0]);
        st.charSpacing = num(args[1]);
        moveText(st, 0, st.leading);
        showText(args[2]);
        break;
      case O.clip:
        pendingClip = 'nonzero';
        break;
      case O.eoClip:
        pendingClip = 'evenodd';
        break;
      case O.constructPath:
        pathOp(num(args[0]), args[1]);
        break;
      case O.endPath:
        pendingClip = undefined;
        break;
      case O.paintImageXObject:
      case O.paintInlineImageXObject: {
        // pdf.js brackets an image that has a mask (alpha) with `save; setGState SMask=false; …`:
        // such an image may be transparent anywhere, so it covers nothing.
        const k = fnArray[i - 1] === O.beginMarkedContentProps ? i - 2 : i - 1;
        const masked = fnArray[k] === O.setGState && JSON.stringify(argsArray[k]) === '[[["SMask",false]]]';
        paint(transformedRect(st.ctm, 0, 0, 1, 1), 'image', st.fillAlpha, !masked);
        break;
      }
      case O.paintSolidColorImageMask:
        paint(transformedRect(st.ctm, 0, 0, 1, 1), st.fill, st.fillAlpha, true);
        break;
      case O.shadingFill:
        // A shading fills the whole clipping area.
        paint(st.clip.length ? rectRegion(...intersectBoxes(st.clip, view)) : rectRegion(...view), 'unknown', st.fillAlpha, true);
        break;
      case O.paintFormXObjectBegin: {
        save();
        const m = asMatrix(args[0]);
        if (m) st.ctm = mul(st.ctm, m);
        const bbox = args[1] as number[] | null;
        if (bbox && bbox.length === 4) st.clip = [...st.clip, transformedRect(st.ctm, num(bbox[0]), num(bbox[1]), num(bbox[2]), num(bbox[3]))];
        break;
      }
      case O.paintFormXObjectEnd:
        restore();
        break;
      case O.beginGroup: {
        save();
        const group = (args[0] ?? {}) as { smask?: unknown };
        // The group is composited with the alpha in force; inside it, alpha starts at 1.
        st.groupAlpha *= st.fillAlpha;
        st.fillAlpha = st.strokeAlpha = 1;
        if (group.smask) st.groupMasked = true;
        break;
      }
      case O.endGroup:
        restore();
        break;
      case O.beginAnnotation: {
        save();
        annotations++;
        const rect = args[1] as number[] | null;
        st.ctm = IDENTITY;
        st.clip = rect && rect.length === 4 ? [rectRegion(num(rect[0]), num(rect[1]), num(rect[2]), num(rect[3]))] : [];
        st.ctm = mul(mul(st.ctm, asMatrix(args[2]) ?? IDENTITY), asMatrix(args[3]) ?? IDENTITY);
        break;
      }
      case O.endAnnotation:
        annotations = Math.max(0, annotations - 1);
        restore();
        break;
      case O.beginMarkedContentProps: {
        const on = args[0] === 'OC' ? page.layerVisible(args[1]) : true;
        layers.push(on);
        if (!on) layersOff++;
        break;
      }
      case O.beginMarkedContent:
        layers.push(true);
        break;
      case O.endMarkedContent:
        if (layers.pop() === false) layersOff--;
        break;
    }
  }

  function pathOp(op: number, data: unknown) {
    const path = Array.isArray(data) ? (data[0] as ArrayLike<number> | undefined) : undefined;
    const evenOdd = op === O.eoFill || op === O.eoFillStroke || op === O.closeEOFillStroke;
    const fills = evenOdd || op === O.fill || op === O.fillStroke || op === O.closeFillStroke;
    const region = (fills || pendingClip) && path ? pathRegion(path, st.ctm, evenOdd) : undefined;
    if (fills) paint(region, st.fill, st.fillAlpha, true);
    if (pendingClip) {
      // An empty clipping path shows nothing; one this reader cannot read hides nothing (text is
      // not dropped on a guess).
      const clipRegion = path?.length ? pathRegion(path, st.ctm, pendingClip === 'evenodd') : { box: [0, 0, 0, 0] as Region['box'], polygons: [] };
      if (clipRegion) st.clip = [...st.clip, clipRegion];
      pendingClip = undefined;
    }
  }

  // Painted over later: the first opaque paint above the glyph's centre hides it.
  const pageArea = (view[2] - view[0]) * (view[3] - view[1]);
  const scanImage = (p: Painted) => p.colour === 'image' && area(p.region) >= SCAN_SHARE * pageArea;
  for (const g of glyphs) {
    if (!g.visible && !g.ocr) continue;
    let cover: Painted | undefined;
    for (const p of index.over(g.cx, g.cy, g.seq)) {
      if (p.opaque) {
        cover = p;
        break;
      }
    }
    if (g.ocr) {
      // An OCR layer lies on its scan: the scan is the topmost paint under it, or the first
      // opaque paint over it (some OCR tools put the text under the image).
      let beneath: Painted | undefined;
      index.under(g.cx, g.cy, g.seq, (p) => ((beneath = p), false));
      g.ocr = cover ? scanImage(cover) : !!beneath && scanImage(beneath);
    } else if (cover) {
      g.visible = false;
      g.reason = 'covered';
    }
  }
  // A scanned page shows no text of its own: there the invisible text on the scan is the page's text.
  const shown = glyphs.some((g) => g.visible && !g.inAnnotation);
  if (!shown) for (const g of glyphs) if (g.ocr) [g.visible, g.reason] = [true, undefined];
  return glyphs.filter((g) => !g.inAnnotation).map(({ text, visible, x, y, reason }) => ({ text, visible, x, y, ...(reason && !visible ? { reason } : {}) }));
}

function unionOf(regions: Region[]): Region {
  const polygons: number[][] = [];
  for (const r of regions) {
    const [x0, y0, x1, y1] = r.box;
    polygons.push(...(r.polygons ?? [[x0, y0, x1, y0, x1, y1, x0, y1]]));
  }
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const r of regions) {
    box[0] = Math.min(box[0], r.box[0]);
    box[1] = Math.min(box[1], r.box[1]);
    box[2] = Math.max(box[2], r.box[2]);
    box[3] = Math.max(box[3], r.box[3]);
  }
  return { box, polygons, evenOdd: false };
}

function intersectBoxes(clip: readonly Region[], view: [number, number, number, number]): [number, number, number, number] {
  const b: [number, number, number, number] = [...view];
  for (const c of clip) {
    b[0] = Math.max(b[0], c.box[0]);
    b[1] = Math.max(b[1], c.box[1]);
    b[2] = Math.min(b[2], c.box[2]);
    b[3] = Math.min(b[3], c.box[3]);
  }
  return b;
}
