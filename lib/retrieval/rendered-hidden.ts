/** What a reader cannot see on a rendered page, judged from the layout the browser computed. Text
 * hidden from the user is the usual carrier of instructions meant for a model, and it is not
 * evidence the user could have read, so the tab reader (entrypoints/reader.ts) leaves it out.
 *
 * Two questions per element, asked top-down (a hidden element's subtree is not visited):
 * - `isHidden`: the whole subtree is invisible (display/visibility, effective opacity through
 *   ancestors, clipping, zero-size boxes, transforms, boxes off the page — far left or above it,
 *   far beyond the reach of the rest of the page, or fixed outside the viewport — aria-hidden,
 *   covered by an opaque element);
 * - `isTextHidden`: only the element's own text is (same colour as the background behind it, a
 *   font under 4 px, pushed away by text-indent); its children may still show, so only its direct
 *   text is dropped. */

/** Plain functions (closures over the page's computed styles), safe to pass on alone. */
export interface HiddenChecks {
  isHidden: (el: Element) => boolean;
  isTextHidden: (el: Element) => boolean;
}

/** Below this the text is not legible: 3 px text is a line of dots. */
const MIN_FONT_PX = 4;
/** Effective opacity under which text cannot be read. */
const MIN_OPACITY = 0.1;
/** Contrast ratio (WCAG) under which text does not stand out from its background. */
const MIN_CONTRAST = 1.25;
/** How far outside the page a box must be to count as pushed away, not just overflowing. */
const FAR_PX = 200;

type Rgba = [number, number, number, number];

export function parseColor(c: string): Rgba | undefined {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(c.trim());
  if (!m) return c.trim() === 'transparent' ? [0, 0, 0, 0] : undefined;
  const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
  return [Number(m[1]), Number(m[2]), Number(m[3]), a];
}

function luminance([r, g, b]: Rgba): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: Rgba, b: Rgba): number {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
}

/** `top` painted over `bottom` (source-over). */
function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3] + bottom[3] * (1 - top[3]);
  if (a === 0) return [0, 0, 0, 0];
  const mix = (i: 0 | 1 | 2) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
  return [mix(0), mix(1), mix(2), a];
}

/** opacity(x) inside a computed `filter`, as a factor (1 when absent). */
function filterOpacity(filter: string): number {
  let f = 1;
  for (const m of filter.matchAll(/opacity\(\s*([\d.]+)(%?)\s*\)/g)) f *= m[2] ? parseFloat(m[1] ?? '1') / 100 : parseFloat(m[1] ?? '1');
  return f;
}

function hasOwnText(el: Element): boolean {
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && (c.nodeValue ?? '').trim()) return true;
  return false;
}

/** clip: rect(…) on an absolutely placed box leaving at most 1 px of it. */
function rectClipped(s: CSSStyleDeclaration): boolean {
  const clip = s.clip;
  if (!clip?.startsWith('rect(') || (s.position !== 'absolute' && s.position !== 'fixed')) return false;
  const n = clip.slice(5, -1).split(/[\s,]+/).map((x) => (x === 'auto' ? NaN : parseFloat(x)));
  const [top = NaN, right = NaN, bottom = NaN, left = NaN] = n;
  // NaN (auto) never compares true: an auto edge clips nothing.
  return right - left <= 1 || bottom - top <= 1;
}

/** clip-path: an inset of half the box or more, or a circle or ellipse of radius 0. */
function clipPathHides(s: CSSStyleDeclaration, r: DOMRect): boolean {
  const cp = s.clipPath;
  if (!cp || cp === 'none') return false;
  const inset = /^inset\(\s*([\d.]+)(%|px)/.exec(cp);
  const v = parseFloat(inset?.[1] ?? '0');
  if (inset?.[2] === '%' && v >= 50) return true;
  if (inset?.[2] === 'px' && v * 2 >= Math.min(r.width, r.height)) return true;
  return /^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(cp);
}

const clippedAway = (s: CSSStyleDeclaration, r: DOMRect): boolean => rectClipped(s) || clipPathHides(s, r);

/** Scaled to nothing, or a box of no size that does not let its text overflow. */
const collapsed = (s: CSSStyleDeclaration, r: DOMRect): boolean =>
  (r.width <= 1 || r.height <= 1) && (s.transform !== 'none' || s.overflow !== 'visible' || s.overflowX !== 'visible' || s.overflowY !== 'visible');

/** An element that makes itself the containing block of its position: fixed descendants. */
const holdsFixed = (s: CSSStyleDeclaration): boolean =>
  s.transform !== 'none' ||
  s.perspective !== 'none' ||
  s.filter !== 'none' ||
  (!!s.backdropFilter && s.backdropFilter !== 'none') ||
  /paint|layout|strict|content/.test(s.contain) ||
  /transform|perspective|filter/.test(s.willChange) ||
  (!!s.containerType && s.containerType !== 'normal');

/** One rendered page: computed styles and layout, asked lazily and remembered per element. */
class RenderedPage {
  private readonly doc: Document;
  private readonly opacityOf = new Map<Element, number>();
  private readonly backgroundOf = new Map<Element, Rgba | null>();
  private reach: { right: number; bottom: number } | undefined;

  constructor(private readonly win: Window) {
    this.doc = win.document;
  }

  private style(el: Element): CSSStyleDeclaration {
    return this.win.getComputedStyle(el);
  }

  /** Opacity through every ancestor (opacity and filter: opacity() multiply). */
  effectiveOpacity(el: Element): number {
    const known = this.opacityOf.get(el);
    if (known !== undefined) return known;
    const s = this.style(el);
    const own = parseFloat(s.opacity || '1') * filterOpacity(s.filter || '');
    const parent = el.parentElement;
    const v = own * (parent ? this.effectiveOpacity(parent) : 1);
    this.opacityOf.set(el, v);
    return v;
  }

  /** The solid colour behind an element's text: backgrounds up the tree composited; null when an
   * image or gradient is in the way (then nothing can be said about contrast). */
  backgroundBehind(el: Element | null): Rgba | null {
    if (!el) return [255, 255, 255, 1]; // the canvas
    const known = this.backgroundOf.get(el);
    if (known !== undefined) return known;
    const s = this.style(el);
    let v: Rgba | null;
    if (s.backgroundImage && s.backgroundImage !== 'none') v = null;
    else {
      const own = parseColor(s.backgroundColor) ?? [0, 0, 0, 0];
      const under = own[3] >= 1 ? own : this.backgroundBehind(el.parentElement);
      v = under === null ? null : own[3] >= 1 ? own : over(own, under);
    }
    this.backgroundOf.set(el, v);
    return v;
  }

  /** Whether a position: fixed element is placed against the viewport (no ancestor makes itself
   * the containing block of fixed descendants): then it never scrolls into view. */
  private fixedToViewport(el: Element): boolean {
    for (let a = el.parentElement; a && a !== this.doc.documentElement; a = a.parentElement) if (holdsFixed(this.style(a))) return false;
    return true;
  }

  /** How far right and down a reader can scroll to content, measured so that no element stretches
   * it by itself: the boxes of all elements, in document order of their start, extend the reach
   * only when they start within FAR_PX of it (the viewport at first). An element pushed far away
   * widens the document's scroll area, but not this. Measured once, and only for a page that has
   * an element beyond its root box (most pages have none). */
  private reachable(): { right: number; bottom: number } {
    if (this.reach) return this.reach;
    const { win } = this;
    const xs: [number, number][] = [];
    const ys: [number, number][] = [];
    for (const el of this.doc.querySelectorAll('body, body *')) {
      const r = el.getBoundingClientRect();
      if (r.width <= 0 && r.height <= 0) continue;
      xs.push([r.left + win.scrollX, r.right + win.scrollX]);
      ys.push([r.top + win.scrollY, r.bottom + win.scrollY]);
    }
    const sweep = (spans: [number, number][], end: number) => {
      spans.sort((a, b) => a[0] - b[0]);
      for (const [from, to] of spans) {
        if (from > end + FAR_PX) break;
        if (to > end) end = to;
      }
      return end;
    };
    this.reach = { right: sweep(xs, win.innerWidth), bottom: sweep(ys, win.innerHeight) };
    return this.reach;
  }

  private offPage(el: Element, s: CSSStyleDeclaration, r: DOMRect): boolean {
    const { win } = this;
    if (s.position === 'fixed' && this.fixedToViewport(el)) {
      // Fixed to the viewport: what is not in it now never is.
      return r.right <= 0 || r.bottom <= 0 || r.left >= win.innerWidth || r.top >= win.innerHeight;
    }
    const left = r.left + win.scrollX;
    const top = r.top + win.scrollY;
    if (left + r.width < -FAR_PX / 4 || top + r.height < -FAR_PX / 4) return true;
    // Far right or far below: measured against the reach of the rest of the page, which the
    // element cannot stretch (its own box widens the scroll width, so that cannot be the measure).
    const root = this.doc.documentElement.getBoundingClientRect();
    if (left > Math.max(win.innerWidth, root.right + win.scrollX) + FAR_PX && left > this.reachable().right + FAR_PX) return true;
    return top > Math.max(win.innerHeight, root.bottom + win.scrollY) + FAR_PX && top > this.reachable().bottom + FAR_PX;
  }

  /** Another element, not an ancestor or descendant, painted over the centre of this one with an
   * opaque background (position: fixed/sticky bars are the page's own chrome, not a cover). */
  private covered(el: Element, r: DOMRect): boolean {
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= this.win.innerWidth || y >= this.win.innerHeight) return false;
    const top = this.doc.elementFromPoint(x, y);
    if (!top || top === el || el.contains(top) || top.contains(el)) return false;
    for (let e: Element | null = top; e && !e.contains(el); e = e.parentElement) {
      const s = this.style(e);
      if (s.position === 'fixed' || s.position === 'sticky') return false;
      const bg = parseColor(s.backgroundColor);
      if ((bg && bg[3] >= 0.95 && this.effectiveOpacity(e) >= 0.95) || (s.backgroundImage && s.backgroundImage !== 'none')) return true;
    }
    return false;
  }

  isHidden(el: Element): boolean {
    if (el.getAttribute('aria-hidden') === 'true') return true;
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) {
      // display: contents has no box of its own, yet its children show.
      return this.style(el).display !== 'contents';
    }
    if (!(el.textContent ?? '').trim()) return false;
    if (this.effectiveOpacity(el) < MIN_OPACITY) return true;
    const s = this.style(el);
    if (s.display === 'contents') return false;
    const r = el.getBoundingClientRect();
    if (clippedAway(s, r) || collapsed(s, r) || this.offPage(el, s, r)) return true;
    return hasOwnText(el) && this.covered(el, r);
  }

  isTextHidden(el: Element): boolean {
    if (!hasOwnText(el)) return false;
    const s = this.style(el);
    if (parseFloat(s.fontSize) < MIN_FONT_PX) return true;
    if (this.indentedAway(el, s)) return true;
    const fg = parseColor(s.color);
    if (!fg) return false;
    if (fg[3] < MIN_OPACITY) return true;
    const bg = this.backgroundBehind(el);
    return bg !== null && contrast(over(fg, bg), bg) < MIN_CONTRAST;
  }

  /** Text pushed out of sight by text-indent (far left of the page, or beyond its own box). */
  private indentedAway(el: Element, s: CSSStyleDeclaration): boolean {
    const indent = parseFloat(s.textIndent);
    if (!(Math.abs(indent) > FAR_PX)) return false;
    const r = el.getBoundingClientRect();
    return r.left + this.win.scrollX + indent < -FAR_PX / 4 || indent > Math.max(r.width, this.win.innerWidth);
  }
}

export function createRenderedHiddenChecks(win: Window): HiddenChecks {
  const page = new RenderedPage(win);
  return { isHidden: (el) => page.isHidden(el), isTextHidden: (el) => page.isTextHidden(el) };
}
