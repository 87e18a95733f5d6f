/** Extraction fidelity: the Node page reader (linkedom + the same extractReadable the tabs use)
 * on saved real pages, against the text of Readability's expected output. Token F1 per page. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { createNodePageReader } from '../../lib/retrieval/node-reader';
import { textFromNode } from '../../lib/retrieval/extract';
import { tokenize } from '../../lib/retrieval/tokenize';

export interface FidelityPage {
  name: string;
  f1: number;
  precision: number;
  recall: number;
  ms: number;
}

export interface FidelityReport {
  pages: number;
  meanF1: number;
  medianF1: number;
  /** Pages with F1 ≥ 0.9. */
  atLeast90: number;
  worst: FidelityPage[];
  msPerPage: number;
}

export function tokenF1(got: string, want: string): { f1: number; precision: number; recall: number } {
  const count = (t: string) => {
    const m = new Map<string, number>();
    for (const w of tokenize(t, true)) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const g = count(got);
  const w = count(want);
  let overlap = 0;
  let ng = 0;
  let nw = 0;
  for (const [t, c] of g) {
    ng += c;
    overlap += Math.min(c, w.get(t) ?? 0);
  }
  for (const c of w.values()) nw += c;
  const precision = ng ? overlap / ng : 0;
  const recall = nw ? overlap / nw : 0;
  return { f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, precision, recall };
}

export async function runFidelity(dir: string): Promise<FidelityReport> {
  const reader = createNodePageReader();
  const names = readdirSync(dir).filter((n) => existsSync(join(dir, n, 'source.html')) && existsSync(join(dir, n, 'expected.html')));
  const pages: FidelityPage[] = [];
  let total = 0;
  for (const name of names) {
    const source = readFileSync(join(dir, name, 'source.html'), 'utf8');
    const expected = readFileSync(join(dir, name, 'expected.html'), 'utf8');
    const t0 = performance.now();
    const page = await reader.read(source, `http://fakehost/${name}/`);
    const ms = performance.now() - t0;
    total += ms;
    const { document } = parseHTML(`<!DOCTYPE html><html><body>${expected}</body></html>`);
    const want = textFromNode(document.body).text;
    pages.push({ name, ...tokenF1(page.text, want), ms: Math.round(ms) });
  }
  const f1s = pages.map((p) => p.f1).sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    pages: pages.length,
    meanF1: r(f1s.reduce((a, b) => a + b, 0) / (f1s.length || 1)),
    medianF1: r(f1s[Math.floor(f1s.length / 2)] ?? 0),
    atLeast90: pages.filter((p) => p.f1 >= 0.9).length,
    worst: [...pages].sort((a, b) => a.f1 - b.f1).slice(0, 5).map((p) => ({ ...p, f1: r(p.f1), precision: r(p.precision), recall: r(p.recall) })),
    msPerPage: Math.round(total / (pages.length || 1)),
  };
}
