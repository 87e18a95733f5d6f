/** One Ratify run for the benchmark: the product's executeRun, unchanged, with its real LLM
 * client, a library over the question's paragraphs, and the scripted pipeline responder. */
import type { CallUsage, LlmClient } from '../lib/llm/types';
import { executeRun } from '../lib/pipeline/run';
import { newRun } from '../lib/pipeline/run-state';
import { createMemoryLibrary } from '../test/harness/memory-library';
import type { RunEvent } from '../lib/core/run';
import { createLibrary } from '../lib/retrieval/library';
import type { TabsAdapter } from '../lib/retrieval/tabs';
import type { Library, RetrieveRequest } from '../lib/retrieval/types';
import { DEFAULT_SETTINGS, type PipelineSettings } from '../lib/settings/schema';
import type { Responder } from '../test/harness/fake-llm.ts';
import { pipelineResponder } from '../test/harness/pipeline-responder.ts';
import { sleep } from './config';
import { shortQuery, type BenchQuestion } from './questions';

/** The scripted model for Ratify's stages (test/harness/pipeline-responder.ts) with the
 * question's thoughts as the draft, citing each thought's source sentence, short queries like
 * the reference's (one per step in the draft, and for the later steps when a step changes), and
 * a concise final answer. `beta` is the gate's confidence. The steps in `changed` are revised
 * (the model rewrites the thought); the others stand as drafted. */
export function ratifyResponder(q: BenchQuestion, beta: number, changed: ReadonlySet<number> = new Set()): Responder {
  return pipelineResponder({
    // As the gate prompt asks: a clear question is not copied back; its web search is short.
    gate: { label: 'clear', question: '', confidence: beta, search: [shortQuery(q.question)] },
    answer: q.finalAnswer,
    steps: q.thoughts.map((t) => t.text),
    facts: q.thoughts.map((t, step) => ({ step, phrase: t.phrase, ...(changed.has(step) ? { revised: revisedThought(t.text) } : {}) })),
    nextQuery: (_revised, draft) => shortQuery(draft),
    finalAnswer: q.finalAnswer,
  });
}

/** A revision of about the thought's own length, as a model that corrects a detail writes it. */
export function revisedThought(text: string): string {
  return `According to the source, ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

export type LibraryKind = 'lib/retrieval createLibrary' | 'in-memory BM25 (fallback)';

/** The question's ten paragraphs as open tabs, through lib/retrieval's library (real passages,
 * ranker, dedupe). Falls back to the in-memory BM25 library if that cannot be built. */
export function questionLibrary(q: BenchQuestion, settings: PipelineSettings): { library: Library; kind: LibraryKind } {
  try {
    const tabs: TabsAdapter = {
      list: () => Promise.resolve(q.docs.map((d, i) => ({ id: i + 1, url: d.url, title: d.title }))),
      read: (tab) => {
        const d = q.docs[tab.id - 1];
        if (!d) return Promise.reject(new Error(`No document for tab ${tab.id}`));
        return Promise.resolve({ kind: 'page', page: { url: d.url, hash: `h${tab.id}-${d.text.length}`, title: d.title, text: d.text, headings: [] } });
      },
    };
    const library = createLibrary({ search: DEFAULT_SETTINGS.search, privacy: DEFAULT_SETTINGS.privacy, pipeline: settings, tabs, providers: [] });
    return { library, kind: 'lib/retrieval createLibrary' };
  } catch {
    return { library: createMemoryLibrary(q.docs, { passageChars: settings.passageChars }), kind: 'in-memory BM25 (fallback)' };
  }
}

/** Every retrieve pays one web search and one page fetch (result pages are fetched in parallel),
 * as the reference does per query, so both pay the same for finding evidence. */
export function withSearchLatency(inner: Library, delayMs: number, counter: { retrieves: number }): Library {
  return {
    prepare: inner.prepare?.bind(inner),
    async retrieve(req: RetrieveRequest) {
      counter.retrieves++;
      await sleep(delayMs, req.signal);
      return inner.retrieve(req);
    },
  };
}

export interface CallRecord {
  stage: string;
  inputTokens: number;
  outputTokens: number;
}

export interface RatifyRunResult {
  status: string;
  error?: string;
  retrieved: boolean;
  steps: number;
  rounds: number;
  retrieves: number;
  calls: CallRecord[];
  /** Real ms since the start. */
  ms: number;
  /** First event the side panel shows as readable text: the gate line, draft or answer text. */
  firstVisibleMs?: number;
  /** First answer content (draft, revision or answer text), not counting the gate line. */
  firstContentMs?: number;
  /** When the draft's steps arrived, and the first step was committed (its step-done). */
  draftMs?: number;
  firstStepMs?: number;
  /** Speculative revisions kept and discarded. */
  speculative: number;
  discarded: number;
  /** Why speculation went off during the run, if it did (e.g. the harness looked like a queue). */
  speculationOff?: string;
  answer: string;
  sources: number;
}

export async function runRatify(o: { q: BenchQuestion; llm: LlmClient; library: Library; settings: PipelineSettings; retrieveDelayMs: number }): Promise<RatifyRunResult> {
  const counter = { retrieves: 0 };
  const library = withSearchLatency(o.library, o.retrieveDelayMs, counter);
  const calls: CallRecord[] = [];
  const t0 = performance.now();
  let firstVisibleMs: number | undefined;
  let firstContentMs: number | undefined;
  let draftMs: number | undefined;
  let firstStepMs: number | undefined;
  const onEvent = (ev: RunEvent) => {
    const t = performance.now() - t0;
    if (ev.type === 'draft') draftMs ??= t;
    if (ev.type === 'step-done') firstStepMs ??= t;
    const text = ev.type === 'draft-delta' || ev.type === 'answer-delta' || ev.type === 'revision-delta' ? ev.text.trim() : '';
    if (firstVisibleMs === undefined && (ev.type === 'gate' || (text && ev.type !== 'revision-delta'))) firstVisibleMs = t;
    if (firstContentMs === undefined && text) firstContentMs = t;
  };
  // Every attempt's usage, as the client reports it to the pipeline.
  const record = (u: CallUsage) => calls.push({ stage: u.stage, inputTokens: u.inputTokens, outputTokens: u.outputTokens });
  // The client as the pipeline gets it (its endpoint, and what is learnt of it), counting calls.
  const llm: LlmClient = {
    ...o.llm,
    chat: (req) => o.llm.chat({ ...req, onUsage: (u) => (record(u), req.onUsage?.(u)) }),
    json: (req) => o.llm.json({ ...req, onUsage: (u) => (record(u), req.onUsage?.(u)) }),
  };
  const run = await executeRun({ run: newRun(`bench-${o.q.id}`, 'ask', { text: o.q.question }, Date.now()), llm, library, settings: o.settings, emit: onEvent });
  return {
    status: run.status,
    ...(run.error ? { error: `${run.error.code}: ${run.error.message}` } : {}),
    retrieved: run.gate?.retrieve ?? false,
    steps: run.steps.length,
    rounds: run.steps.reduce((n, s) => n + s.queries.length, 0),
    retrieves: counter.retrieves,
    calls,
    ms: performance.now() - t0,
    firstVisibleMs,
    firstContentMs,
    draftMs,
    firstStepMs,
    speculative: run.steps.filter((s) => s.speculative).length,
    discarded: run.steps.reduce((n, s) => n + (s.discarded?.length ?? 0), 0),
    ...(run.speculationOff ? { speculationOff: run.speculationOff } : {}),
    answer: run.answer ?? '',
    sources: run.sources.length,
  };
}
