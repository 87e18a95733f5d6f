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
import { area, type PaintIndex } from './pdf-geometry';
import type { FontFacts } from './pdf-graphics-state';
import { PageReplay, type Box, type Judged, type Painted } from './pdf-replay';

export { MIN_PDF_TEXT_PT } from './pdf-replay';
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

export function judgeGlyphs(page: PageDrawing): GlyphMark[] {
  const replay = new PageReplay(page);
  replay.run();
  judgeCovers(replay.glyphs, replay.index, replay.view);
  // A scanned page shows no text of its own: there the invisible text on the scan is the page's text.
  const shown = replay.glyphs.some((g) => g.visible && !g.inAnnotation);
  if (!shown) for (const g of replay.glyphs) if (g.ocr) [g.visible, g.reason] = [true, undefined];
  return replay.glyphs.filter((g) => !g.inAnnotation).map(({ text, visible, x, y, reason }) => ({ text, visible, x, y, ...(reason && !visible ? { reason } : {}) }));
}

/** The first opaque paint drawn after the glyph over its centre. */
function coverOf(index: PaintIndex<Painted>, g: Judged): Painted | undefined {
  for (const p of index.over(g.cx, g.cy, g.seq)) if (p.opaque) return p;
  return undefined;
}

/** Painted over later: the first opaque paint above a glyph's centre hides it. An OCR layer (text
 * in the invisible render mode) stays a candidate only where it lies on a scan: the scan is the
 * topmost paint under it, or the first opaque paint over it (some OCR tools put the text under
 * the image). */
function judgeCovers(glyphs: Judged[], index: PaintIndex<Painted>, view: Box): void {
  const pageArea = (view[2] - view[0]) * (view[3] - view[1]);
  const scanImage = (p: Painted | undefined) => !!p && p.colour === 'image' && area(p.region) >= SCAN_SHARE * pageArea;
  for (const g of glyphs) {
    if (!g.visible && !g.ocr) continue;
    const cover = coverOf(index, g);
    if (g.ocr) {
      let beneath: Painted | undefined;
      index.under(g.cx, g.cy, g.seq, (p) => ((beneath = p), false));
      g.ocr = cover ? scanImage(cover) : scanImage(beneath);
    } else if (cover) {
      g.visible = false;
      g.reason = 'covered';
    }
  }
}
