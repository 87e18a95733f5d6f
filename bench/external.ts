/** Parts 3 and 4 come from elsewhere: the retrieval benchmark (bench/retrieval/, owned by the
 * retrieval work) and the in-browser measurements (bench/results/extension.json, written by the
 * Playwright run). This file only finds and reads them; it never computes them. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ManyTabsRow } from './extension/many-tabs-format';

export interface ExternalPart {
  /** Where the figures came from, or why there are none. */
  source: string;
  measured: boolean;
  figures?: Record<string, unknown>;
}

const BENCH_DIR = import.meta.dirname;
export const RETRIEVAL_JSON = join(BENCH_DIR, 'results', 'retrieval.json');
export const EXTENSION_JSON = join(BENCH_DIR, 'results', 'extension.json');
export const MANY_TABS_JSON = join(BENCH_DIR, 'results', 'many-tabs.json');

/** Module files the retrieval benchmark may expose, and the function names we look for in them. */
const RETRIEVAL_MODULES = ['retrieval/index.ts', 'retrieval/run.ts', 'retrieval/bench.ts'];
const RETRIEVAL_FUNCTIONS = ['runRetrievalBenchmark', 'runRetrievalBench', 'retrievalBenchmark', 'runBenchmark'];

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Part 3: call the retrieval benchmark if it exports a runner, else read its last results. */
export async function retrievalPart(run: boolean, log: (s: string) => void = () => {}, inputs: { data?: string; pages?: string } = {}): Promise<ExternalPart> {
  if (run) {
    for (const rel of RETRIEVAL_MODULES) {
      const file = join(BENCH_DIR, rel);
      if (!existsSync(file)) continue;
      let mod: Record<string, unknown>;
      try {
        mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      } catch (e) {
        log(`retrieval benchmark ${rel} could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      for (const name of RETRIEVAL_FUNCTIONS) {
        const f = mod[name];
        if (typeof f !== 'function') continue;
        try {
          // Defaults otherwise; `write: false` leaves their committed results file alone (a
          // rerun would only change its date and timings).
          const figures = (await (f as (o: { write: boolean; data?: string; pages?: string }) => Promise<unknown>)({ write: false, ...inputs })) as Record<string, unknown>;
          return { source: `bench/${rel} ${name}() (run now)`, measured: true, figures };
        } catch (e) {
          log(`retrieval benchmark ${name}() failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }
  }
  const saved = readJson(RETRIEVAL_JSON);
  if (saved) return { source: 'bench/results/retrieval.json (last retrieval benchmark run)', measured: true, figures: saved };
  return { source: 'not measured in this run (no retrieval benchmark runner or bench/results/retrieval.json found)', measured: false };
}

/** Part 4: the in-browser figures, if a Playwright run has written them. */
/** Part 4b, as bench/extension/many-tabs.ts wrote it. */
export function manyTabsPart(): { source: string; measured: boolean; rows?: ManyTabsRow[] } {
  const saved = readJson(MANY_TABS_JSON) as { rows?: ManyTabsRow[] } | undefined;
  if (saved?.rows) return { source: 'bench/results/many-tabs.json', measured: true, rows: saved.rows };
  return { source: 'not measured in this run (bench/results/many-tabs.json not found)', measured: false };
}

export function extensionPart(): ExternalPart {
  const saved = readJson(EXTENSION_JSON);
  if (saved) return { source: 'bench/results/extension.json', measured: true, figures: saved };
  return { source: 'not measured in this run (bench/results/extension.json not found)', measured: false };
}

/** Nested figures as "a.b.c  value" rows, for printing whatever shape the other benchmarks use. */
export function flatten(v: unknown, prefix = ''): [string, string][] {
  if (v === null || v === undefined) return [[prefix, String(v)]];
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x !== 'object' || x === null)) return [[prefix, v.join(', ')]];
    return v.flatMap((x, i) => flatten(x, `${prefix}[${i}]`));
  }
  if (typeof v === 'object') return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => flatten(x, prefix ? `${prefix}.${k}` : k));
  if (typeof v === 'number') return [[prefix, Number.isInteger(v) ? String(v) : v.toFixed(3)]];
  // What is left of JSON data: strings and booleans.
  return [[prefix, typeof v === 'string' ? v : JSON.stringify(v)]];
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export interface RetrievalFigures {
  examples?: number;
  oneRound: { recallAt2?: number; recallAt5?: number; bothGoldAt2?: number; mrr?: number };
  twoRounds: { recallAt2?: number; recallAt5?: number; bothGoldAt2?: number; mrr?: number };
  index: { passages?: number; coldBuildMs?: number; cachedBuildMs?: number; queryP50Ms?: number; queryP95Ms?: number };
  extractionMeanF1?: number;
  targets?: Rec;
}

/** The figures part 3 reports, picked out of the retrieval benchmark's result (its shape:
 * recall.{oneRound,twoRounds}, scale, fidelity, targets). Undefined when the shape is unknown. */
export function retrievalFigures(f: Rec | undefined): RetrievalFigures | undefined {
  const recall = rec(f?.recall);
  if (!f || !recall) return undefined;
  const round = (r: Rec | undefined) => ({ recallAt2: num(r?.recallAt2), recallAt5: num(r?.recallAt5), bothGoldAt2: num(r?.allGoldAt2), mrr: num(r?.mrr) });
  const scale = rec(f.scale);
  return {
    examples: num(f.examples),
    oneRound: round(rec(recall.oneRound)),
    twoRounds: round(rec(recall.twoRounds)),
    index: { passages: num(scale?.passages), coldBuildMs: num(scale?.coldBuildMs), cachedBuildMs: num(scale?.cachedBuildMs), queryP50Ms: num(scale?.queryP50Ms), queryP95Ms: num(scale?.queryP95Ms) },
    extractionMeanF1: num(rec(f.fidelity)?.meanF1),
    targets: rec(f.targets),
  };
}

export interface ExtensionFigures {
  gzipKbByEntrypoint: Record<string, number>;
  panelFirstRenderMedianMs?: number;
  history1000: { openMs?: number; searchMs?: number };
  workerHeap: { runs?: number; beforeMb?: number; afterMb?: number };
  chromium?: string;
}

/** The figures part 4 reports, picked out of bench/results/extension.json. */
export function extensionFigures(f: Rec | undefined): ExtensionFigures | undefined {
  const sizes = rec(f?.sizes);
  if (!f || !sizes) return undefined;
  const kb = (n: number | undefined) => (n === undefined ? undefined : Math.round(n / 102.4) / 10);
  const mb = (n: number | undefined) => (n === undefined ? undefined : Math.round(n / 104857.6) / 10);
  const gzip: Record<string, number> = {};
  for (const [k, v] of Object.entries(sizes)) {
    const g = kb(num(rec(v)?.gzipBytes));
    if (g !== undefined) gzip[k] = g;
  }
  const heap = rec(f.workerHeap);
  const hist = rec(f.history1000);
  return {
    gzipKbByEntrypoint: gzip,
    panelFirstRenderMedianMs: num(rec(f.panelFirstRenderMs)?.median),
    history1000: { openMs: num(hist?.openMs), searchMs: num(hist?.searchMs) },
    workerHeap: { runs: num(heap?.runs), beforeMb: mb(num(heap?.beforeBytes)), afterMb: mb(num(heap?.afterBytes)) },
    chromium: typeof f.chromium === 'string' ? f.chromium : undefined,
  };
}
