/** The whole retrieval benchmark as one function: recall (one and two rounds), extraction
 * fidelity and scale. Writes bench/results/retrieval.json unless told not to. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFidelity, type FidelityReport } from './fidelity';
import { loadBench, loadHotpot, type BenchExample } from './format';
import { runRecall, type RecallReport } from './recall';
import { runScale, type ScaleReport } from './scale';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(here, '..', '..');
/** The sample in the repository (test/fixtures/README.md); the full 500 come with `data`. */
export const HOTPOT_FILE = join(REPO_ROOT, 'test', 'fixtures', 'data', 'hotpotqa-dev-distractor-sample.jsonl');
export const RESULTS_FILE = join(REPO_ROOT, 'bench', 'results', 'retrieval.json');

export interface RetrievalBenchOptions {
  /** JSONL file; default the HotpotQA distractor sample. */
  data?: string;
  /** Readability test pages (`<name>/{source,expected}.html`, e.g. ../shared/data/readability-pages)
   * for extraction fidelity; without them fidelity is not measured. */
  pages?: string;
  format?: 'hotpot' | 'generic';
  limit?: number;
  fidelity?: boolean;
  scale?: boolean;
  /** Write bench/results/retrieval.json (default true). */
  write?: boolean;
}

export interface RetrievalBenchResult {
  date: string;
  data: string;
  examples: number;
  targets: { recallAt2: number; recallAt5: number; allGoldAt2TwoRounds: number; coldBuildMs: number; cachedBuildMs: number; queryP95Ms: number };
  recall: RecallReport;
  fidelity?: FidelityReport;
  scale?: ScaleReport;
}

export async function runRetrievalBenchmark(opts: RetrievalBenchOptions = {}): Promise<RetrievalBenchResult> {
  const data = opts.data ?? HOTPOT_FILE;
  const format = opts.format ?? (data.includes('hotpot') ? 'hotpot' : 'generic');
  let examples: BenchExample[] = format === 'hotpot' ? loadHotpot(data) : loadBench(data);
  if (opts.limit && opts.limit > 0) examples = examples.slice(0, opts.limit);
  const recall = await runRecall(examples);
  const fidelity = opts.fidelity === false || !opts.pages ? undefined : await runFidelity(opts.pages);
  const scale = opts.scale === false ? undefined : await runScale(format === 'hotpot' ? examples : loadHotpot(HOTPOT_FILE));
  const result: RetrievalBenchResult = {
    date: new Date().toISOString(),
    // Relative to the repository, so results name no folder of the machine they ran on.
    data: relative(REPO_ROOT, resolve(data)),
    examples: examples.length,
    targets: { recallAt2: 0.85, recallAt5: 0.97, allGoldAt2TwoRounds: 0.72, coldBuildMs: 1500, cachedBuildMs: 100, queryP95Ms: 20 },
    recall,
    fidelity,
    scale,
  };
  if (opts.write !== false) {
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(RESULTS_FILE, JSON.stringify(result, null, 2) + '\n');
  }
  return result;
}
