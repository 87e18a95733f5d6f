/** Plane geometry for judging what a PDF page shows (lib/retrieval/pdf-visibility.ts): affine
 * matrices as PDF writes them, painted or clipping areas in page space, and an index of what was
 * painted where, in painting order. */

/** [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `outer` after `inner`: applying the result is applying `inner`, then `outer` (`cm` is mul(ctm, m)). */
export function mul(outer: Matrix, inner: Matrix): Matrix {
  const [a, b, c, d, e, f] = outer;
  const [p, q, r, s, t, u] = inner;
  return [a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f];
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

export function asMatrix(v: unknown): Matrix | undefined {
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) return undefined;
  const a = Array.from(v as ArrayLike<unknown>);
  return a.length === 6 && a.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (a as Matrix) : undefined;
}

/** An area of the page: its bounding box, and for anything but an upright rectangle the outline as
 * closed polygons (curves flattened) with the fill rule that decides its inside. */
export interface Region {
  box: [number, number, number, number];
  polygons?: number[][];
  evenOdd?: boolean;
}

export function rectRegion(x0: number, y0: number, x1: number, y1: number): Region {
  return { box: [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)] };
}

/** A rectangle in the space of `m`, in page space. */
export function transformedRect(m: Matrix, x0: number, y0: number, x1: number, y1: number): Region {
  if (m[1] === 0 && m[2] === 0) {
    const [ax, ay] = apply(m, x0, y0);
    const [bx, by] = apply(m, x1, y1);
    return rectRegion(ax, ay, bx, by);
  }
  return polygonRegion([[...apply(m, x0, y0), ...apply(m, x1, y0), ...apply(m, x1, y1), ...apply(m, x0, y1)]], false);
}

export function polygonRegion(polygons: number[][], evenOdd: boolean): Region {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polygons)
    for (let i = 0; i + 1 < p.length; i += 2) {
      const x = p[i] as number;
      const y = p[i + 1] as number;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  return { box: [x0, y0, x1, y1], polygons, evenOdd };
}

/** pdf.js's path codes (DrawOPS in its display layer). */
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUAD = 3;
const CLOSE = 4;

/** A path as pdf.js's operator list carries it (codes and coordinates in one array), in page space;
 * undefined for a path this reader cannot read. */
export function pathRegion(data: ArrayLike<number> | undefined, ctm: Matrix, evenOdd: boolean): Region | undefined {
  if (!data || !data.length) return undefined;
  const polygons: number[][] = [];
  let cur: number[] = [];
  let [cx, cy] = [0, 0];
  const to = (x: number, y: number) => {
    cur.push(...apply(ctm, x, y));
    [cx, cy] = [x, y];
  };
  const flush = () => {
    if (cur.length >= 6) polygons.push(cur);
    cur = [];
  };
  const n = (i: number) => data[i] ?? 0;
  for (let i = 0; i < data.length; ) {
    switch (data[i++]) {
      case MOVE:
        flush();
        to(n(i), n(i + 1));
        i += 2;
        break;
      case LINE:
        to(n(i), n(i + 1));
        i += 2;
        break;
      case CURVE: {
        const [x0, y0, x1, y1, x2, y2, x3, y3] = [cx, cy, n(i), n(i + 1), n(i + 2), n(i + 3), n(i + 4), n(i + 5)];
        for (let k = 1; k <= 8; k++) {
          const t = k / 8;
          const s = 1 - t;
          to(s * s * s * x0 + 3 * s * s * t * x1 + 3 * s * t * t * x2 + t * t * t * x3, s * s * s * y0 + 3 * s * s * t * y1 + 3 * s * t * t * y2 + t * t * t * y3);
        }
        i += 6;
        break;
      }
      case QUAD: {
        const [x0, y0, x1, y1, x2, y2] = [cx, cy, n(i), n(i + 1), n(i + 2), n(i + 3)];
        for (let k = 1; k <= 6; k++) {
          const t = k / 6;
          const s = 1 - t;
          to(s * s * x0 + 2 * s * t * x1 + t * t * x2, s * s * y0 + 2 * s * t * y1 + t * t * y2);
        }
        i += 4;
        break;
      }
      case CLOSE:
        break;
      default:
        return undefined; // a code this reader does not know: the path is not judged
    }
  }
  flush();
  // A path that encloses nothing (a point, a line): an empty area.
  if (!polygons.length) return { box: [0, 0, 0, 0], polygons: [] };
  // One upright rectangle (the usual `re`) is kept as its box: exact and fast to test.
  const only = polygons[0] as number[];
  if (polygons.length === 1 && only.length >= 8 && only.length <= 10) {
    const r = polygonRegion(polygons, evenOdd);
    const [x0, y0, x1, y1] = r.box;
    const onEdge = (j: number) => ((only[j] === x0 || only[j] === x1) && (only[j + 1] === y0 || only[j + 1] === y1));
    if ([0, 2, 4, 6].every(onEdge)) return { box: r.box };
  }
  return polygonRegion(polygons, evenOdd);
}

export function contains(r: Region, x: number, y: number): boolean {
  const [x0, y0, x1, y1] = r.box;
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  if (!r.polygons) return true;
  let winding = 0;
  let crossings = 0;
  for (const p of r.polygons) {
    const len = p.length;
    for (let i = 0; i < len; i += 2) {
      const ax = p[i] as number;
      const ay = p[i + 1] as number;
      const bx = p[(i + 2) % len] as number;
      const by = p[(i + 3) % len] as number;
      if (ay <= y ? by > y : by <= y) {
        const side = (bx - ax) * (y - ay) - (x - ax) * (by - ay);
        if (ay <= y && side > 0) winding++;
        else if (ay > y && side < 0) winding--;
        if ((ax + ((y - ay) / (by - ay)) * (bx - ax)) > x) crossings++;
      }
    }
  }
  return r.evenOdd ? crossings % 2 === 1 : winding !== 0;
}

export const area = (r: Region): number => (r.box[2] - r.box[0]) * (r.box[3] - r.box[1]);

/** Something painted on the page, in painting order. */
export interface Paint {
  seq: number;
  region: Region;
  /** The clipping areas in force when it was painted: it shows only inside all of them. */
  clip: readonly Region[];
}

/** Paints by grid cell, each cell's list in painting order, so "what lies under / over this point"
 * looks at the few paints near it, not at every shape on the page. */
export class PaintIndex<P extends Paint> {
  private readonly cells: P[][];
  private readonly n = 24;
  constructor(private readonly view: [number, number, number, number]) {
    this.cells = Array.from({ length: this.n * this.n }, () => []);
  }

  private cell(x: number, y: number): number {
    const [x0, y0, x1, y1] = this.view;
    const i = Math.min(this.n - 1, Math.max(0, Math.floor(((x - x0) / (x1 - x0 || 1)) * this.n)));
    const j = Math.min(this.n - 1, Math.max(0, Math.floor(((y - y0) / (y1 - y0 || 1)) * this.n)));
    return j * this.n + i;
  }

  add(p: P): void {
    const [x0, y0, x1, y1] = p.region.box;
    const a = this.cell(x0, y0);
    const b = this.cell(x1, y1);
    for (let j = Math.floor(a / this.n); j <= Math.floor(b / this.n); j++)
      for (let i = a % this.n; i <= b % this.n; i++) this.cells[j * this.n + i]?.push(p);
  }

  /** Visits the paints that show at (x, y), painted before `seq`, topmost first, while `visit`
   * returns true. */
  under(x: number, y: number, seq: number, visit: (p: P) => boolean): void {
    const list = this.cells[this.cell(x, y)];
    if (!list?.length) return;
    for (let k = firstAfter(list, seq) - 1; k >= 0; k--) {
      const p = list[k] as P;
      if (shows(p, x, y) && !visit(p)) return;
    }
  }

  /** Paints that show at (x, y), painted after `seq`, in painting order. */
  *over(x: number, y: number, seq: number): Generator<P> {
    const list = this.cells[this.cell(x, y)] ?? [];
    for (let k = firstAfter(list, seq); k < list.length; k++) {
      const p = list[k] as P;
      if (shows(p, x, y)) yield p;
    }
  }
}

function shows(p: Paint, x: number, y: number): boolean {
  return contains(p.region, x, y) && p.clip.every((c) => contains(c, x, y));
}

/** Index of the first paint in `list` (sorted by seq) painted after `seq`. */
function firstAfter(list: Paint[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as Paint).seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
