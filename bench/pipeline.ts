/** Parts 1 and 2: Ratify against the reference loop, and the gate's economics, on one fake
 * OpenAI-compatible server with the latency model, all runs in one process and one batch.
 *
 * Runs go concurrently to keep the benchmark short. That is sound because the server paces every
 * request on its own (time to first token, then tokens at the set rate, from the request's own
 * start), so runs do not queue behind one another; what concurrency can add is event-loop delay.
 * We check that instead of assuming it: every run's measured wall time is compared with what the
 * latency model predicts for exactly the calls it made (the "model" column), and the event loop's
 * delay is reported. */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createLlmClient } from '../lib/llm/client';
import type { CallUsage } from '../lib/llm/types';
import { splitPassages } from '../test/harness/memory-library';
import { rankPassages } from '../lib/retrieval/rank';
import { DEFAULT_SETTINGS, type PipelineSettings } from '../lib/settings/schema';
import { resetSpeculationPolicy } from '../lib/pipeline/speculation-policy';
import type { Responder } from '../test/harness/fake-llm.ts';
import { sleep, type BenchOptions, type LatencyModel } from './config';
import { loadQuestions, type BenchQuestion } from './questions';
import { questionLibrary, ratifyResponder, runRatify, type CallRecord, type LibraryKind, type RatifyRunResult } from './ratify-run';
import { referenceRat } from './reference-rat';
import { referenceResponder } from './reference-responder';
import { freshConnectionFetch } from './transport';
import { startKeyedLlm } from './keyed-llm';

export interface RunMetrics {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Critical-path wall time (the run is one chain), model ms. */
  wallMs: number;
  /** What the latency model predicts for the calls and searches this run made, model ms. */
  modelMs: number;
  /** Time to first visible output, model ms (see README: what counts for each side). */
  firstVisibleMs: number;
  ok: boolean;
  error?: string;
}

export interface RatifyMetrics extends RunMetrics {
  /** First draft/answer text, not counting the gate line. */
  firstContentMs: number;
  /** From the draft's end to the first committed step, model ms. */
  firstStepAfterDraftMs: number;
  speculative: number;
  discarded: number;
  speculationOff?: string;
  steps: number;
  rounds: number;
  retrieves: number;
  sources: number;
  byStage: Record<string, StageCost>;
}

export interface ReferenceMetrics extends RunMetrics {
  /** When the demo UI shows anything (its rat() returns everything at the end). */
  firstShownMs: number;
  paragraphs: number;
  skipped: number;
  byStage: Record<string, StageCost>;
}

export interface QuestionRow {
  id: string;
  type: string;
  question: string;
  reference: ReferenceMetrics;
  ratify: RatifyMetrics;
}

/** Part 5: one question, one schedule, a number of the 6 steps changed. */
export interface SpeculationRow {
  id: string;
  changed: number;
  /** Which steps changed (0-based). */
  steps: number[];
  speculate: boolean;
  ratify: RatifyMetrics;
}

export interface GateRow {
  id: string;
  /** β = 0.9 ≥ β′ = 0.5: gate, then a direct answer. */
  gated: RatifyMetrics;
  /** β′ = 1: always RAT. */
  always: RatifyMetrics;
}

export interface PipelineBenchResult {
  library: LibraryKind;
  questions: QuestionRow[];
  gate: GateRow[];
  speculation: SpeculationRow[];
  /** Real seconds the batch took. */
  batchSeconds: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
}

/** Part 5's patterns: how many of the draft's steps the model changes. */
export const SPECULATION_CHANGED = [0, 1, 3, 6];

/** Which steps change: fixed per question (a seeded shuffle), so both schedules see the same. */
export function changedSteps(id: string, n: number, steps: number): Set<number> {
  let seed = 0;
  for (const c of id) seed = (Math.imul(seed, 31) + c.charCodeAt(0)) >>> 0;
  const order = Array.from({ length: steps }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return new Set(order.slice(0, Math.min(n, steps)));
}

/** The latency model's time for one call, model ms. */
export function callModelMs(l: LatencyModel, inputTokens: number, outputTokens: number): number {
  return l.firstTokenMs + (inputTokens / l.inputTokensPerSec) * 1000 + (outputTokens / l.outputTokensPerSec) * 1000;
}

export type StageCost = { calls: number; inputTokens: number; outputTokens: number };

function byStage(calls: CallRecord[]): Record<string, StageCost> {
  const out: Record<string, StageCost> = {};
  for (const c of [...calls].sort((a, b) => a.stage.localeCompare(b.stage))) {
    const s = (out[c.stage] ??= { calls: 0, inputTokens: 0, outputTokens: 0 });
    s.calls++;
    s.inputTokens += c.inputTokens;
    s.outputTokens += c.outputTokens;
  }
  return out;
}

function ratifyMetrics(r: RatifyRunResult, o: BenchOptions): RatifyMetrics {
  const x = o.speed;
  const l = o.latency;
  const model = r.calls.reduce((n, c) => n + callModelMs(l, c.inputTokens, c.outputTokens), 0) + r.retrieves * (l.searchMs + l.pageFetchMs);
  return {
    calls: r.calls.length,
    inputTokens: r.calls.reduce((n, c) => n + c.inputTokens, 0),
    outputTokens: r.calls.reduce((n, c) => n + c.outputTokens, 0),
    wallMs: r.ms * x,
    modelMs: model,
    firstVisibleMs: (r.firstVisibleMs ?? r.ms) * x,
    ok: r.status === 'done',
    ...(r.error ? { error: r.error } : {}),
    firstContentMs: (r.firstContentMs ?? r.ms) * x,
    firstStepAfterDraftMs: ((r.firstStepMs ?? r.ms) - (r.draftMs ?? 0)) * x,
    speculative: r.speculative,
    discarded: r.discarded,
    ...(r.speculationOff ? { speculationOff: r.speculationOff } : {}),
    steps: r.steps,
    rounds: r.rounds,
    retrieves: r.retrieves,
    sources: r.sources,
    byStage: byStage(r.calls),
  };
}

/** One batch: starts spread 20 ms apart, so that runs do not all build their first request in the
 * same instant (that burst would land on everyone's first call, the one time to first output
 * measures); each run's times are its own, so the spacing does not enter any figure. */
/** Ratify's runs in flight at once in parts 1, 2 and 5. With all of them at once (70 beside the
 * reference's 50) the event loop they share with the fake server delayed each run by about 1.1 s
 * of its 8.5 (the same 20 questions took 7.5 s each with 20 runs in all): that measured the
 * harness on two cores, not the pipeline a user runs one question at a time. */
const RATIFY_IN_FLIGHT = 10;

async function runBatch(tasks: (() => Promise<void>)[], limit: number, log: (s: string) => void): Promise<void> {
  const staggerMs = 20;
  const start = performance.now();
  let done = 0;
  const spaced = tasks.map((t, i) => async () => {
    await sleep(Math.max(0, start + i * staggerMs - performance.now()));
    await t();
    done++;
  });
  const ticker = setInterval(() => log(`  … ${done}/${tasks.length} runs done`), 15_000);
  try {
    await pool(spaced, limit);
  } finally {
    clearInterval(ticker);
  }
}

/** Runs `tasks` with at most `limit` in flight (0 = all at once). */
async function pool(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  if (!limit || limit >= tasks.length) {
    await Promise.all(tasks.map((t) => t()));
    return;
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let task = tasks[next++]; task; task = tasks[next++]) await task();
    }),
  );
}

export async function runPipelineBench(o: BenchOptions, log: (s: string) => void = () => {}): Promise<PipelineBenchResult> {
  const qs = loadQuestions(o.questions, o.steps, o.data);
  if (qs.length < o.questions) log(`only ${qs.length} questions have ${o.steps} usable thoughts`);
  const l = o.latency;
  const x = o.speed;
  // One server, one responder per run: each run's client sends its key in a header.
  const { server, responders } = await startKeyedLlm(o);
  const clientFor = (key: string, responder: Responder) => {
    responders.set(key, responder);
    const tagged = freshConnectionFetch({ 'x-bench-run': key });
    // A generous time-out: the reference's longest calls take ~15 s of model time.
    return createLlmClient({ preset: 'custom', baseURL: server.baseURL, apiKey: 'bench', model: 'fake-llm', embeddingModel: '', timeoutMs: 300_000 / x + 60_000 }, { fetch: tagged, maxRetries: 0 });
  };
  const settings = (betaThreshold: number, speculate = DEFAULT_SETTINGS.pipeline.speculate): PipelineSettings => ({ ...DEFAULT_SETTINGS.pipeline, maxSteps: o.steps, betaThreshold, speculate });
  let libraryKind: LibraryKind = 'lib/retrieval createLibrary';

  const rows = new Map<string, Partial<QuestionRow>>();
  const gateRows = new Map<string, Partial<GateRow>>();
  const runRatifyFor = async (q: BenchQuestion, key: string, beta: number, threshold: number, spec?: { speculate: boolean; changed: ReadonlySet<number> }): Promise<RatifyMetrics> => {
    const s = settings(threshold, spec?.speculate);
    const { library, kind } = questionLibrary(q, s);
    if (kind !== 'lib/retrieval createLibrary') libraryKind = kind;
    const r = await runRatify({ q, llm: clientFor(key, ratifyResponder(q, beta, spec?.changed)), library, settings: s, retrieveDelayMs: (l.searchMs + l.pageFetchMs) / x });
    responders.delete(key);
    return ratifyMetrics(r, o);
  };

  // The reference's runs (two minutes each, mostly waiting for the model) all at once; Ratify's
  // (seconds each, busy on the CPU between calls) a few at a time beside them.
  const tasks: (() => Promise<void>)[] = [];
  const ratifyTasks: (() => Promise<void>)[] = [];
  for (const q of qs) {
    rows.set(q.id, { id: q.id, type: q.type, question: q.question });
    tasks.push(async () => {
      const key = `ref:${q.id}`;
      const calls: CallRecord[] = [];
      const llm = clientFor(key, referenceResponder(q, o.detailsPerRevision));
      // The shipped ranker, one passage per paragraph; paragraphs with no evidence come last.
      const whole = q.docs.flatMap((d) => splitPassages(d));
      const ranked = (query: string) => {
        const order = new Set(rankPassages(query, whole).map((r) => r.passage.url));
        for (const d of q.docs) order.add(d.url);
        return [...order].flatMap((url) => q.docs.filter((x) => x.url === url).slice(0, 1)).map((d) => ({ d }));
      };
      let lastQuery = '';
      const r = await referenceRat(q.question, {
        llm,
        onUsage: (u: CallUsage) => calls.push({ stage: u.stage, inputTokens: u.inputTokens, outputTokens: u.outputTokens }),
        search: async (query, signal) => {
          await sleep(l.searchMs / x, signal);
          lastQuery = query;
          const top = ranked(query)[0];
          return top ? { url: top.d.url, title: top.d.title } : undefined;
        },
        fetchPage: async (url, signal) => {
          await sleep(l.pageFetchMs / x, signal);
          // The top paragraph, continued with the next-ranked ones up to the page length floor:
          // a stand-in for the rest of the article the real demo would download.
          const order = ranked(lastQuery).map((r) => r.d);
          const first = order.findIndex((d) => d.url === url);
          const hit = order[first];
          const parts = hit ? [hit, ...order.filter((_, i) => i !== first)] : order;
          let text = '';
          for (const d of parts) {
            if (text && text.length >= o.pageChars) break;
            text += `${text ? '\n' : ''}${d.text}`;
          }
          return text;
        },
        timeoutMs: o.referenceTimeoutMs / x,
        chunkChars: o.chunkChars,
        chunksPerPage: o.chunksPerPage,
        maxParagraphs: o.steps + 1,
      });
      responders.delete(key);
      const model = calls.reduce((n, c) => n + callModelMs(l, c.inputTokens, c.outputTokens), 0) + r.searches * l.searchMs + r.fetches * l.pageFetchMs;
      const row = rows.get(q.id) as Partial<QuestionRow>;
      row.reference = {
        calls: calls.length,
        inputTokens: calls.reduce((n, c) => n + c.inputTokens, 0),
        outputTokens: calls.reduce((n, c) => n + c.outputTokens, 0),
        wallMs: r.ms * x,
        modelMs: model,
        firstVisibleMs: r.firstTextMs * x,
        ok: r.paragraphs > 0,
        firstShownMs: r.firstShownMs * x,
        paragraphs: r.paragraphs,
        skipped: r.skipped,
        byStage: byStage(calls),
      };
    });
    ratifyTasks.push(async () => {
      (rows.get(q.id) as Partial<QuestionRow>).ratify = await runRatifyFor(q, `ratify:${q.id}`, 0.2, DEFAULT_SETTINGS.pipeline.betaThreshold);
    });
  }
  for (const q of qs.slice(0, o.gateQuestions)) {
    gateRows.set(q.id, { id: q.id });
    ratifyTasks.push(async () => {
      (gateRows.get(q.id) as Partial<GateRow>).gated = await runRatifyFor(q, `gated:${q.id}`, 0.9, 0.5);
    });
    ratifyTasks.push(async () => {
      (gateRows.get(q.id) as Partial<GateRow>).always = await runRatifyFor(q, `always:${q.id}`, 0.9, 1);
    });
  }

  // Part 5 runs as a batch of its own after parts 1–2, as many at once as part 1's: 80 runs
  // streaming together on one event loop measured the harness too (the same code gave 0.067× to
  // 0.073× with 1 step changed, and its sequential runs moved by 0.5 s).
  const speculation: SpeculationRow[] = [];
  const specTasks: (() => Promise<void>)[] = [];
  for (const q of qs.slice(0, o.speculationQuestions))
    for (const changed of SPECULATION_CHANGED)
      for (const speculate of [false, true])
        specTasks.push(async () => {
          // Each run is a fresh worker: what one learnt in its life (a queue, a refusal) does not
          // carry over; what is kept with the endpoint's capabilities (that it answers side by
          // side, seen in parts 1–2) does, as it does across a real worker's restarts.
          resetSpeculationPolicy();
          const steps = changedSteps(q.id, changed, o.steps);
          const ratify = await runRatifyFor(q, `spec:${q.id}:${changed}:${speculate}`, 0.2, DEFAULT_SETTINGS.pipeline.betaThreshold, { speculate, changed: steps });
          speculation.push({ id: q.id, changed, steps: [...steps].sort((a, b) => a - b), speculate, ratify });
        });

  // Warm-up (JIT, first connections) on one short gated run, not measured.
  const warmup = qs[0];
  if (warmup) await runRatifyFor(warmup, 'warmup', 0.9, 0.5);
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const t0 = performance.now();
  try {
    await Promise.all([runBatch(tasks, o.concurrency, log), runBatch(ratifyTasks, Math.min(o.concurrency || RATIFY_IN_FLIGHT, RATIFY_IN_FLIGHT), log)]);
    if (specTasks.length) await runBatch(specTasks, Math.min(o.concurrency || RATIFY_IN_FLIGHT, RATIFY_IN_FLIGHT), log);
  } finally {
    lag.disable();
    await server.close();
  }
  const batchSeconds = (performance.now() - t0) / 1000;
  return {
    library: libraryKind,
    // Rebuilt in a fixed key order (runs finish in any order) so the JSON diffs cleanly.
    questions: qs.map((q) => {
      const r = rows.get(q.id) as QuestionRow;
      return { id: r.id, type: r.type, question: r.question, reference: r.reference, ratify: r.ratify };
    }),
    gate: qs.slice(0, o.gateQuestions).map((q) => {
      const g = gateRows.get(q.id) as GateRow;
      return { id: g.id, gated: g.gated, always: g.always };
    }),
    speculation: qs.flatMap((q) => SPECULATION_CHANGED.flatMap((c) => [false, true].flatMap((sp) => speculation.filter((r) => r.id === q.id && r.changed === c && r.speculate === sp)))),
    batchSeconds,
    eventLoopDelayMs: { p50: lag.percentile(50) / 1e6, p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 },
  };
}
