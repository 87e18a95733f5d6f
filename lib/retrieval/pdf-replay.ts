/** The interpreter behind lib/retrieval/pdf-visibility.ts: replays a page's operator list with the
 * graphics state a renderer keeps, records every paint (for the cover check) and judges every
 * glyph as it is drawn (not painted, layer off, too small, off the page, clipped, too faint). */
import { asMatrix, contains, IDENTITY, mul, PaintIndex, pathRegion, rectRegion, transformedRect, type Paint, type Region } from './pdf-geometry';
import { applyStateOp, initialState, moveText, num, over, WHITE, type Colour, type Rgba, type State } from './pdf-graphics-state';
import { glyphBox, kerning, offPage, onPage, textRun, type Glyph, type GlyphBox, type TextRun } from './pdf-text-run';
import type { GlyphMark, HiddenReason, PageDrawing } from './pdf-visibility';
import { contrast } from './rendered-hidden';

/** Below this (in points, 1/72 in) text is not legible: 3 pt is 4 CSS px, the HTML threshold. */
export const MIN_PDF_TEXT_PT = 3;
const MIN_ALPHA = 0.1;
const MIN_CONTRAST = 1.25;
/** Paints under a point looked through for its colour; deeper, the colour is not judged. */
const MAX_LAYERS = 32;

export type Box = [number, number, number, number];

export interface Painted extends Paint {
  colour: Colour | 'image';
  alpha: number;
  /** Hides what is under it. */
  opaque: boolean;
}

export interface Judged extends GlyphMark {
  seq: number;
  cx: number;
  cy: number;
  /** Invisible render mode, otherwise shown: kept only as a scanned page's OCR layer. */
  ocr?: boolean;
  inAnnotation: boolean;
}

export function hide(mark: GlyphMark, reason: HiddenReason): void {
  mark.visible = false;
  mark.reason ??= reason;
}

/** The colour under (x, y) before paint `at`: the page's white unless something was painted
 * there; null when an image or a pattern is in the way (then contrast is not judged). */
export function backgroundAt(index: PaintIndex<Painted>, x: number, y: number, at: number): Rgba | null {
  let unknown = false;
  const layers: Painted[] = [];
  index.under(x, y, at, (p) => {
    if (p.colour === 'none' || p.alpha < 0.01) return true;
    if (p.colour === 'image' || p.colour === 'unknown') {
      unknown = true;
      return false;
    }
    layers.push(p);
    return !p.opaque && layers.length <= MAX_LAYERS;
  });
  if (unknown || layers.length > MAX_LAYERS) return null;
  // Bottom up: the first found is the topmost.
  return layers.reduceRight((c, p) => over(p.colour as Rgba, Math.min(1, p.alpha), c), WHITE);
}

/** Whether a paint colour stands out from its background. Consecutive glyphs share colours: the
 * last verdict is kept. */
class ColourJudge {
  private last: { colour: Colour; alpha: number; bg: Rgba | null; shows: boolean } | undefined;

  shows(colour: Colour, alpha: number, bg: Rgba | null): boolean {
    if (colour === 'none' || alpha < MIN_ALPHA) return false;
    if (colour === 'unknown' || bg === null) return true;
    const last = this.last;
    if (last && last.colour === colour && last.alpha === alpha && last.bg && bg.every((v, i) => v === last.bg?.[i])) return last.shows;
    const v = contrast(over(colour, Math.min(1, alpha), bg), bg) >= MIN_CONTRAST;
    this.last = { colour, alpha, bg, shows: v };
    return v;
  }
}

function unionOf(regions: Region[]): Region {
  const polygons: number[][] = [];
  for (const r of regions) {
    const [x0, y0, x1, y1] = r.box;
    polygons.push(...(r.polygons ?? [[x0, y0, x1, y0, x1, y1, x0, y1]]));
  }
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const r of regions) {
    box[0] = Math.min(box[0], r.box[0]);
    box[1] = Math.min(box[1], r.box[1]);
    box[2] = Math.max(box[2], r.box[2]);
    box[3] = Math.max(box[3], r.box[3]);
  }
  return { box, polygons, evenOdd: false };
}

function intersectBoxes(clip: readonly Region[], view: Box): Box {
  const b: Box = [...view];
  for (const c of clip) {
    b[0] = Math.max(b[0], c.box[0]);
    b[1] = Math.max(b[1], c.box[1]);
    b[2] = Math.min(b[2], c.box[2]);
    b[3] = Math.min(b[3], c.box[3]);
  }
  return b;
}

const EMPTY_REGION: Region = { box: [0, 0, 0, 0], polygons: [] };

type OpHandler = (r: PageReplay, args: unknown[], at: number) => void;

/** The operators that paint, clip, show text or bracket state, by their name in pdf.js's OPS
 * table (those that only change the state are pdf-graphics-state.ts's). */
const PAINT_OPS: Record<string, OpHandler> = {
  save: (r) => r.save(),
  restore: (r) => r.restore(),
  endText: (r) => r.endText(),
  showText: (r, a) => r.showText(a[0]),
  showSpacedText: (r, a) => r.showText(a[0]),
  nextLineShowText: (r, a) => r.nextLineShowText(a[0]),
  nextLineSetSpacingShowText: (r, a) => r.nextLineSetSpacingShowText(a),
  clip: (r) => r.clipNext('nonzero'),
  eoClip: (r) => r.clipNext('evenodd'),
  constructPath: (r, a) => r.path(num(a[0]), a[1]),
  endPath: (r) => r.clipNext(undefined),
  paintImageXObject: (r, _, at) => r.paintImage(at),
  paintInlineImageXObject: (r, _, at) => r.paintImage(at),
  paintSolidColorImageMask: (r) => r.paintMask(),
  shadingFill: (r) => r.paintShading(),
  paintFormXObjectBegin: (r, a) => r.beginForm(a),
  paintFormXObjectEnd: (r) => r.restore(),
  beginGroup: (r, a) => r.beginGroup(a[0]),
  endGroup: (r) => r.restore(),
  beginAnnotation: (r, a) => r.beginAnnotation(a),
  endAnnotation: (r) => r.endAnnotation(),
  beginMarkedContentProps: (r, a) => r.beginLayer(a[0] === 'OC' ? r.layerVisible(a[1]) : true),
  beginMarkedContent: (r) => r.beginLayer(true),
  endMarkedContent: (r) => r.endLayer(),
};

/** PAINT_OPS by operator code (the first name wins where two share a code, as a switch would). */
function paintOpsFor(O: Record<string, number>): Map<number, OpHandler> {
  const ops = new Map<number, OpHandler>();
  for (const [name, op] of Object.entries(PAINT_OPS)) {
    const code = O[name];
    if (code !== undefined && !ops.has(code)) ops.set(code, op);
  }
  return ops;
}

export class PageReplay {
  readonly glyphs: Judged[] = [];
  readonly view: Box;
  readonly index: PaintIndex<Painted>;
  private st: State = initialState();
  private readonly stack: State[] = [];
  private readonly textClip: Region[] = [];
  private readonly layers: boolean[] = [];
  private layersOff = 0;
  private annotations = 0;
  private pendingClip: 'nonzero' | 'evenodd' | undefined;
  private seq = 0;
  private readonly colours = new ColourJudge();
  private readonly O: Record<string, number>;

  constructor(private readonly page: PageDrawing) {
    this.O = page.OPS;
    const [vx0 = 0, vy0 = 0, vx1 = 612, vy1 = 792] = page.view;
    this.view = [Math.min(vx0, vx1), Math.min(vy0, vy1), Math.max(vx0, vx1), Math.max(vy0, vy1)];
    this.index = new PaintIndex<Painted>(this.view);
  }

  /** Replays the whole operator list. */
  run(): void {
    const { fnArray, argsArray } = this.page.ops;
    const ops = paintOpsFor(this.O);
    for (let i = 0; i < fnArray.length; i++) {
      const fn = fnArray[i] ?? -1;
      const args = (argsArray[i] ?? []) as unknown[];
      if (!applyStateOp(this.st, fn, args, this.O, this.page.font)) ops.get(fn)?.(this, args, i);
    }
  }

  save(): void {
    this.stack.push({ ...this.st });
  }

  restore(): void {
    this.st = this.stack.pop() ?? this.st;
  }

  endText(): void {
    if (this.textClip.length) this.st.clip = [...this.st.clip, unionOf(this.textClip.splice(0))];
  }

  nextLineShowText(list: unknown): void {
    moveText(this.st, 0, this.st.leading);
    this.showText(list);
  }

  nextLineSetSpacingShowText(args: unknown[]): void {
    this.st.wordSpacing = num(args[0]);
    this.st.charSpacing = num(args[1]);
    this.nextLineShowText(args[2]);
  }

  /** The next path operator also clips (or, with undefined, the pending clip is dropped). */
  clipNext(rule: 'nonzero' | 'evenodd' | undefined): void {
    this.pendingClip = rule;
  }

  private paint(region: Region | undefined, colour: Colour | 'image', alpha: number, solid: boolean): void {
    if (!region || this.layersOff > 0) return;
    const { st } = this;
    const a = alpha * st.groupAlpha;
    const opaque = solid && a >= 0.95 && !st.blend && !st.smask && !st.groupMasked && colour !== 'none';
    this.index.add({ seq: this.seq++, region, clip: st.clip, colour, alpha: a, opaque });
  }

  path(op: number, data: unknown): void {
    const { O, st } = this;
    const path = Array.isArray(data) ? (data[0] as ArrayLike<number> | undefined) : undefined;
    const evenOdd = op === O.eoFill || op === O.eoFillStroke || op === O.closeEOFillStroke;
    const fills = evenOdd || op === O.fill || op === O.fillStroke || op === O.closeFillStroke;
    if (fills) this.paint(path ? pathRegion(path, st.ctm, evenOdd) : undefined, st.fill, st.fillAlpha, true);
    if (this.pendingClip) {
      // An empty clipping path shows nothing; one this reader cannot read hides nothing (text is
      // not dropped on a guess).
      const clipRegion = path?.length ? pathRegion(path, st.ctm, this.pendingClip === 'evenodd') : EMPTY_REGION;
      if (clipRegion) st.clip = [...st.clip, clipRegion];
      this.pendingClip = undefined;
    }
  }

  /** pdf.js brackets an image that has a mask (alpha) with `save; setGState SMask=false; …`: such
   * an image may be transparent anywhere, so it covers nothing. */
  paintImage(at: number): void {
    const { fnArray, argsArray } = this.page.ops;
    const k = fnArray[at - 1] === this.O.beginMarkedContentProps ? at - 2 : at - 1;
    const masked = fnArray[k] === this.O.setGState && JSON.stringify(argsArray[k]) === '[[["SMask",false]]]';
    this.paint(transformedRect(this.st.ctm, 0, 0, 1, 1), 'image', this.st.fillAlpha, !masked);
  }

  paintMask(): void {
    this.paint(transformedRect(this.st.ctm, 0, 0, 1, 1), this.st.fill, this.st.fillAlpha, true);
  }

  /** A shading fills the whole clipping area. */
  paintShading(): void {
    const area = this.st.clip.length ? rectRegion(...intersectBoxes(this.st.clip, this.view)) : rectRegion(...this.view);
    this.paint(area, 'unknown', this.st.fillAlpha, true);
  }

  beginForm(args: unknown[]): void {
    this.save();
    const { st } = this;
    const m = asMatrix(args[0]);
    if (m) st.ctm = mul(st.ctm, m);
    const bbox = args[1] as number[] | null;
    if (bbox && bbox.length === 4) st.clip = [...st.clip, transformedRect(st.ctm, num(bbox[0]), num(bbox[1]), num(bbox[2]), num(bbox[3]))];
  }

  /** The group is composited with the alpha in force; inside it, alpha starts at 1. */
  beginGroup(group: unknown): void {
    this.save();
    const { st } = this;
    st.groupAlpha *= st.fillAlpha;
    st.fillAlpha = st.strokeAlpha = 1;
    if ((group as { smask?: unknown } | undefined)?.smask) st.groupMasked = true;
  }

  beginAnnotation(args: unknown[]): void {
    this.save();
    this.annotations++;
    const { st } = this;
    const rect = args[1] as number[] | null;
    st.clip = rect && rect.length === 4 ? [rectRegion(num(rect[0]), num(rect[1]), num(rect[2]), num(rect[3]))] : [];
    st.ctm = mul(mul(IDENTITY, asMatrix(args[2]) ?? IDENTITY), asMatrix(args[3]) ?? IDENTITY);
  }

  endAnnotation(): void {
    this.annotations = Math.max(0, this.annotations - 1);
    this.restore();
  }

  /** Whether an optional-content group (or membership dictionary) is on. */
  layerVisible(props: unknown): boolean {
    return this.page.layerVisible(props);
  }

  /** Marked content, in a layer that is on or off. */
  beginLayer(on: boolean): void {
    this.layers.push(on);
    if (!on) this.layersOff++;
  }

  endLayer(): void {
    if (this.layers.pop() === false) this.layersOff--;
  }

  showText(list: unknown): void {
    if (!Array.isArray(list)) return;
    const run = textRun(this.st);
    let x = 0;
    for (const g of list as (Glyph | number | null)[]) {
      if (typeof g === 'number') {
        x += kerning(run, g);
        continue;
      }
      if (!g || typeof g !== 'object') continue;
      const box = glyphBox(run, this.st, g, x);
      if (run.clipping) this.textClip.push(transformedRect(run.m, box.u0, box.v0, box.u1, box.v1));
      x += box.step;
      const text = g.unicode ?? '';
      if (text.trim()) this.judge(this.place(run, box, text), run, box, g); // spaces are not glyphs of the text content
    }
    if (run.vertical) this.st.y -= x;
    else this.st.x += x * run.h;
  }

  private place(run: TextRun, box: GlyphBox, text: string): Judged {
    const [x, y] = onPage(run, box.ou, box.ov);
    const [cx, cy] = onPage(run, box.cu, box.cv);
    const mark: Judged = { text, visible: true, x, y, seq: this.seq++, cx, cy, inAnnotation: this.annotations > 0 };
    this.glyphs.push(mark);
    return mark;
  }

  private judge(mark: Judged, run: TextRun, box: GlyphBox, g: Glyph): void {
    const { st } = this;
    if (this.layersOff > 0) hide(mark, 'layer off');
    if (run.lacksMeanUnpainted && g.isInFont === false) hide(mark, 'not painted');
    if (run.fontSize === 0 || run.size < MIN_PDF_TEXT_PT) hide(mark, 'size');
    if (offPage(run, box, this.view)) hide(mark, 'off page');
    if (st.clip.some((r) => !contains(r, mark.cx, mark.cy))) hide(mark, 'clipped');
    if (!mark.visible) return;
    if (run.paints === 3) {
      // Invisible text: a scanned page's OCR layer is its text (decided after the replay).
      hide(mark, 'invisible');
      mark.ocr = true;
      return;
    }
    const bg = backgroundAt(this.index, mark.cx, mark.cy, mark.seq);
    // Both asked, fill first (the colour verdict is remembered between glyphs).
    const fillShows = (run.paints === 0 || run.paints === 2) && this.colours.shows(st.fill, st.fillAlpha * st.groupAlpha, bg);
    const strokeShows = (run.paints === 1 || run.paints === 2) && this.colours.shows(st.stroke, st.strokeAlpha * st.groupAlpha, bg);
    if (!fillShows && !strokeShows) hide(mark, 'colour');
  }
}
