/** Runs the product pipeline (executeRun, unchanged) over evaluation examples, each with its own
 * documents as the library, and scores the results. */
import type { LlmClient } from '../../lib/llm/types';
import { executeRun } from '../../lib/pipeline/run';
import { newRun } from '../../lib/pipeline/run-state';
import type { Library } from '../../lib/retrieval/types';
import type { MemoryDoc } from '../../test/harness/memory-library';
import type { PipelineSettings } from '../../lib/settings/schema';
import type { Example } from './datasets';
import { evalLibrary } from './library';
import { best, contains, exactMatch, f1, labelOf } from './metrics';

export interface ExampleResult {
  id: string;
  kind: Example['kind'];
  input: string;
  prediction: string;
  gold: string;
  em?: number;
  f1?: number;
  contains?: number;
  correct?: number;
  /** The gate chose to retrieve (claims always do). */
  retrieved: boolean;
  steps: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  droppedCitations: number;
  ms: number;
  status: string;
  error?: string;
}

export interface Summary {
  examples: number;
  questions: number;
  claims: number;
  em?: number;
  f1?: number;
  contains?: number;
  labelAccuracy?: number;
  /** Share of questions for which the gate retrieved. */
  retrievalRatio?: number;
  callsPerExample: number;
  inputTokensPerExample: number;
  outputTokensPerExample: number;
  msPerExample: number;
  wallMs: number;
  errors: number;
}

export interface EvalOptions {
  llm: LlmClient;
  settings: PipelineSettings;
  examples: Example[];
  /** Examples run at once (default 1). */
  concurrency?: number;
  /** Build the library of one example (default: the extension's library over its documents, evalLibrary). */
  libraryFor?: (docs: MemoryDoc[]) => Library;
  onResult?: (r: ExampleResult, done: number) => void;
  signal?: AbortSignal;
}

export async function evaluate(o: EvalOptions): Promise<{ results: ExampleResult[]; summary: Summary }> {
  const t0 = Date.now();
  const results = new Array<ExampleResult>(o.examples.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < o.examples.length && !o.signal?.aborted) {
      const i = next++;
      results[i] = await runExample(o, o.examples[i]!, i); // i < length: checked above, before any await
      o.onResult?.(results[i], ++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 1) }, worker));
  const rs = results.filter(Boolean);
  return { results: rs, summary: summarize(rs, Date.now() - t0) };
}

async function runExample(o: EvalOptions, ex: Example, i: number): Promise<ExampleResult> {
  const library = (o.libraryFor ?? ((d) => evalLibrary(d, o.settings)))(ex.documents);
  const t = Date.now();
  const run = await executeRun({ run: newRun(`eval-${i}`, ex.kind === 'question' ? 'ask' : 'verify', { text: ex.text }, t), llm: o.llm, library, settings: o.settings, signal: o.signal, emit: () => {} });
  const base = {
    id: ex.id,
    kind: ex.kind,
    input: ex.text,
    retrieved: run.gate?.retrieve ?? false,
    steps: run.steps.length,
    calls: run.usage?.calls ?? 0,
    inputTokens: run.usage?.inputTokens ?? 0,
    outputTokens: run.usage?.outputTokens ?? 0,
    droppedCitations: run.droppedCitations,
    ms: Date.now() - t,
    status: run.status,
    ...(run.error ? { error: `${run.error.code}: ${run.error.message}` } : {}),
  };
  if (ex.kind === 'question') {
    const prediction = (run.answer ?? '').replace(/\s*\[\d+\]/g, '').trim();
    const golds = ex.answers ?? [];
    return { ...base, prediction, gold: golds.join(' | '), em: best(prediction, golds, exactMatch), f1: best(prediction, golds, f1), contains: best(prediction, golds, contains) };
  }
  const predicted = run.status === 'done' ? labelOf(run.claims) : 'ERROR';
  return { ...base, prediction: predicted, gold: ex.label ?? '', correct: predicted === ex.label ? 1 : 0 };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function summarize(rs: ExampleResult[], wallMs: number): Summary {
  const q = rs.filter((r) => r.kind === 'question');
  const c = rs.filter((r) => r.kind === 'claim');
  return {
    examples: rs.length,
    questions: q.length,
    claims: c.length,
    ...(q.length
      ? { em: mean(q.map((r) => r.em ?? 0)), f1: mean(q.map((r) => r.f1 ?? 0)), contains: mean(q.map((r) => r.contains ?? 0)), retrievalRatio: mean(q.map((r) => (r.retrieved ? 1 : 0))) }
      : {}),
    ...(c.length ? { labelAccuracy: mean(c.map((r) => r.correct ?? 0)) } : {}),
    callsPerExample: mean(rs.map((r) => r.calls)),
    inputTokensPerExample: mean(rs.map((r) => r.inputTokens)),
    outputTokensPerExample: mean(rs.map((r) => r.outputTokens)),
    msPerExample: mean(rs.map((r) => r.ms)),
    wallMs,
    errors: rs.filter((r) => r.status !== 'done').length,
  };
}

export function formatSummary(s: Summary): string {
  const pct = (x?: number) => (x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
  const rows: [string, string][] = [
    ['examples', `${s.examples} (${s.questions} questions, ${s.claims} claims)`],
    ...(s.questions ? ([['EM', pct(s.em)], ['F1', pct(s.f1)], ['answer contains gold', pct(s.contains)], ['gate retrieval ratio', pct(s.retrievalRatio)]] as [string, string][]) : []),
    ...(s.claims ? ([['label accuracy', pct(s.labelAccuracy)]] as [string, string][]) : []),
    ['LLM calls / example', s.callsPerExample.toFixed(2)],
    ['input tokens / example', s.inputTokensPerExample.toFixed(0)],
    ['output tokens / example', s.outputTokensPerExample.toFixed(0)],
    ['wall time / example', `${(s.msPerExample / 1000).toFixed(2)} s`],
    ['wall time, total', `${(s.wallMs / 1000).toFixed(1)} s`],
    ['errors', String(s.errors)],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}
