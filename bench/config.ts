/** Benchmark settings: the latency model and the workload, all settable from the command line.
 * Latencies are in "model time", the time a real deployment would see; `speed` divides every one
 * of them for the actual sleeps, and measured times are multiplied back by `speed` before they
 * are reported, so the figures stay in model time whatever the speed. */
import { parseArgs } from 'node:util';

export interface LatencyModel {
  firstTokenMs: number;
  outputTokensPerSec: number;
  inputTokensPerSec: number;
  searchMs: number;
  pageFetchMs: number;
}

export interface BenchOptions {
  latency: LatencyModel;
  /** Divides every latency (and the reference's per-call time-out) for the real sleeps. */
  speed: number;
  /** Questions for part 1 (half bridge, half comparison). */
  questions: number;
  /** Of those, how many also run part 2 (the gate's economics). */
  gateQuestions: number;
  /** Of those, how many run part 5 (sequential vs speculative revision, 0/1/3/all steps changed). */
  speculationQuestions: number;
  /** Draft steps (Ratify) and draft paragraphs (reference). */
  steps: number;
  /** Runs in flight at once (0 = all). */
  concurrency: number;
  /** Reference: a fetched page is at least this many characters (0 = the top paragraph alone). */
  pageChars: number;
  /** Reference: chunk size in characters, and revise calls per page (the authors' LIMIT). */
  chunkChars: number;
  chunksPerPage: number;
  /** Reference: sentences from the page each revision adds (its prompt asks it to add details). */
  detailsPerRevision: number;
  /** Reference: per-call time-out (the demo's run_with_timeout), model time. */
  referenceTimeoutMs: number;
  /** HotpotQA distractor JSONL, relative to the repository root (where npm runs) or absolute. */
  data: string;
  /** Readability test pages (`<name>/{source,expected}.html`) for part 3's extraction fidelity;
   * not measured without it. */
  readabilityPages?: string;
  /** Skip part 3 (retrieval). */
  skipRetrieval: boolean;
  out: string;
  quiet: boolean;
}

export const DEFAULT_OPTIONS: BenchOptions = {
  latency: { firstTokenMs: 400, outputTokensPerSec: 50, inputTokensPerSec: 5000, searchMs: 300, pageFetchMs: 500 },
  speed: 1,
  questions: 50,
  gateQuestions: 50,
  speculationQuestions: 50,
  steps: 6,
  concurrency: 0,
  pageChars: 3000,
  chunkChars: 1500,
  chunksPerPage: 2,
  detailsPerRevision: 1,
  referenceTimeoutMs: 30_000,
  // The sample in the repository (50 bridge + 50 comparison); the full 500 come with --data.
  data: 'test/fixtures/data/hotpotqa-dev-distractor-sample.jsonl',
  skipRetrieval: false,
  out: 'bench/results/latest.json',
  quiet: false,
};

export const HELP = `Usage: npm run bench -- [options]

Latency model (model time; defaults in brackets):
  --first-token-ms N      time to first token per LLM call [400]
  --output-tps N          output tokens per second [50]
  --input-tps N           input (prompt) tokens per second [5000]
  --search-ms N           one web search [300]
  --fetch-ms N            one page fetch [500]
  --speed X               divide every latency by X for the real sleeps; reported times stay in
                          model time and ratios are scale-free [1]
Workload:
  --questions N           HotpotQA questions, half bridge, half comparison [50]
  --gate-questions N      of those, how many run part 2 (the gate) [50]
  --speculation-questions N  of those, how many run part 5 (speculative revision) [50]
  --steps N               draft steps / paragraphs [6]
  --concurrency N         runs in flight at once, 0 = all [0]
  --page-chars N          reference: fetched page length floor, 0 = top paragraph only [3000]
  --chunk-chars N         reference: chunk size [1500]     --chunks N   revise calls per page [2]
  --details N             reference: sentences added per revision [1]
  --data FILE             HotpotQA distractor JSONL [test/fixtures/data/hotpotqa-dev-distractor-sample.jsonl,
                          100 questions; e.g. ../shared/data/hotpotqa-dev-distractor-500.jsonl for all 500]
  --readability-pages DIR part 3 also measures extraction fidelity on these pages (e.g.
                          ../shared/data/readability-pages)
  --skip-retrieval        skip parts 3 and 3b (retrieval, the dev set)
  --out FILE              JSON output [bench/results/latest.json]
  --quiet                 no per-question table`;

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      'first-token-ms': { type: 'string' },
      'output-tps': { type: 'string' },
      'input-tps': { type: 'string' },
      'search-ms': { type: 'string' },
      'fetch-ms': { type: 'string' },
      speed: { type: 'string' },
      questions: { type: 'string' },
      'gate-questions': { type: 'string' },
      'speculation-questions': { type: 'string' },
      steps: { type: 'string' },
      concurrency: { type: 'string' },
      'page-chars': { type: 'string' },
      'chunk-chars': { type: 'string' },
      chunks: { type: 'string' },
      details: { type: 'string' },
      data: { type: 'string' },
      'readability-pages': { type: 'string' },
      'skip-retrieval': { type: 'boolean', default: false },
      out: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (v.help) return 'help';
  const d = DEFAULT_OPTIONS;
  const num = (s: string | undefined, dflt: number, name: string): number => {
    if (s === undefined) return dflt;
    const n = Number(s);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got ${s}`);
    return n;
  };
  const speed = num(v.speed, d.speed, 'speed');
  if (speed <= 0) throw new Error('--speed must be positive');
  const questions = num(v.questions, d.questions, 'questions');
  return {
    latency: {
      firstTokenMs: num(v['first-token-ms'], d.latency.firstTokenMs, 'first-token-ms'),
      outputTokensPerSec: num(v['output-tps'], d.latency.outputTokensPerSec, 'output-tps'),
      inputTokensPerSec: num(v['input-tps'], d.latency.inputTokensPerSec, 'input-tps'),
      searchMs: num(v['search-ms'], d.latency.searchMs, 'search-ms'),
      pageFetchMs: num(v['fetch-ms'], d.latency.pageFetchMs, 'fetch-ms'),
    },
    speed,
    questions,
    gateQuestions: Math.min(questions, num(v['gate-questions'], d.gateQuestions, 'gate-questions')),
    speculationQuestions: Math.min(questions, num(v['speculation-questions'], d.speculationQuestions, 'speculation-questions')),
    steps: Math.max(1, num(v.steps, d.steps, 'steps')),
    concurrency: num(v.concurrency, d.concurrency, 'concurrency'),
    pageChars: num(v['page-chars'], d.pageChars, 'page-chars'),
    chunkChars: Math.max(1, num(v['chunk-chars'], d.chunkChars, 'chunk-chars')),
    chunksPerPage: Math.max(1, num(v.chunks, d.chunksPerPage, 'chunks')),
    detailsPerRevision: num(v.details, d.detailsPerRevision, 'details'),
    referenceTimeoutMs: d.referenceTimeoutMs,
    data: v.data ?? d.data,
    readabilityPages: v['readability-pages'],
    skipRetrieval: v['skip-retrieval'] ?? false,
    out: v.out ?? d.out,
    quiet: v.quiet ?? false,
  };
}

/** Real sleep for a model-time duration. */
export function scaled(ms: number, speed: number): number {
  return ms / speed;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
