/** The draft is sent as soon as the gate has decided (while the gate still writes its web
 * searches) when revisions may overlap the draft, and the answer is the one the sequential
 * schedule gives; a draft sent early is kept only for exactly the request the run then builds. */
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonRequest, LlmClient } from '../llm/types';
import { pipelineSettings, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { createMemoryLibrary } from '../../test/harness/memory-library';
import { emptyUsage } from '../core/usage';
import type { RetrieveRequest } from '../retrieval/types';
import { startEarlyDraft } from './draft-call';
import { executeRun } from './run';
import { newRun } from './run-state';
import { resetSpeculationPolicy } from './speculate';

const WORDS = ['amber', 'basalt', 'cobalt'];
const DOCS = WORDS.map((w, i) => ({ url: `https://example.org/${w}`, title: w, text: `${w} is mineral number ${i + 1}.` }));
const scenario = {
  steps: WORDS.map((w) => `The archive holds ${w}.`),
  facts: WORDS.map((w, step) => ({ step, phrase: `${w} is mineral` })),
  // A gate whose web searches take a while to write, as a model's do.
  gate: { label: 'clear' as const, question: '', confidence: 0.1, search: ['what the archive holds, minerals amber basalt cobalt, museum catalogue and inventory records'] },
};

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  resetSpeculationPolicy();
});

/** The run, with when each call was sent and ended (ms since the start). */
async function timedRun(llm: LlmClient, speculate: boolean) {
  const t0 = performance.now();
  const calls: { stage: string; sent: number; ended?: number }[] = [];
  const timed: LlmClient = {
    ...llm,
    json: async <T,>(req: JsonRequest<T>) => {
      const c: { stage: string; sent: number; ended?: number } = { stage: req.stage ?? '', sent: performance.now() - t0 };
      calls.push(c);
      try {
        return await llm.json(req);
      } finally {
        c.ended = performance.now() - t0;
      }
    },
  };
  const run = await executeRun({ run: newRun('d', 'ask', { text: 'What does the archive hold?' }, 0), llm: timed, library: createMemoryLibrary(DOCS), settings: pipelineSettings({ maxSteps: 3, speculate }), emit: () => {} });
  return { run, calls };
}

describe('the draft, sent when the gate has decided', () => {
  it('goes out while the gate still writes its searches, and the answer is the sequential one', async () => {
    world = await startWorld(scenario, { latency: { firstTokenMs: 100, tokensPerSec: 150 } });
    const fast = await timedRun(world.llm, true);
    const gate = fast.calls.find((c) => c.stage === 'gate');
    const draft = fast.calls.find((c) => c.stage === 'draft');
    expect(fast.run.status).toBe('done');
    expect(gate?.ended).toBeDefined();
    // Sent before the gate's reply had ended, and only once.
    expect(draft?.sent).toBeLessThan(gate?.ended ?? 0);
    expect(fast.calls.filter((c) => c.stage === 'draft')).toHaveLength(1);

    resetSpeculationPolicy();
    const sequential = await timedRun(world.llm, false);
    const seqGate = sequential.calls.find((c) => c.stage === 'gate');
    const seqDraft = sequential.calls.find((c) => c.stage === 'draft');
    // "Faster answers" off: one request at a time, the draft after the gate.
    expect(seqDraft?.sent).toBeGreaterThanOrEqual(seqGate?.ended ?? Infinity);
    expect(fast.run.answer).toBe(sequential.run.answer);
    expect(fast.run.steps.map((s) => s.revised ?? s.draft)).toEqual(sequential.run.steps.map((s) => s.revised ?? s.draft));
  });

  it('searches only for queries a step uses, though steps are revised while the draft streams', async () => {
    world = await startWorld(scenario, { latency: { firstTokenMs: 100, tokensPerSec: 150 } });
    const inner = createMemoryLibrary(DOCS);
    const asked: string[] = [];
    const library = { ...inner, retrieve: (req: RetrieveRequest) => (asked.push(req.query), inner.retrieve(req)) };
    const run = await executeRun({ run: newRun('q', 'ask', { text: 'What does the archive hold?' }, 0), llm: world.llm, library, settings: pipelineSettings({ maxSteps: 3 }), emit: () => {} });
    expect(run.status).toBe('done');
    expect(run.steps.filter((s) => s.speculative)).not.toHaveLength(0);
    const used = new Set(run.steps.flatMap((s) => s.queries.map((q) => q.query)));
    expect(asked.filter((q) => !used.has(q))).toEqual([]);
  });

  it('is kept only for exactly the request the run builds; otherwise it is cancelled', async () => {
    const signals: AbortSignal[] = [];
    const never: LlmClient = {
      usage: emptyUsage(),
      chat: () => Promise.reject(new Error('not used')),
      embed: () => Promise.reject(new Error('not used')),
      json: <T,>(req: JsonRequest<T>) =>
        new Promise<T>((_, reject) => {
          if (req.signal) signals.push(req.signal);
          req.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    };
    const ctx = { llm: never, signal: new AbortController().signal, onUsage: () => undefined, library: createMemoryLibrary(DOCS) };
    const request = { messages: [{ role: 'user' as const, content: 'draft this' }], maxTokens: 400, queries: true };

    const kept = startEarlyDraft(ctx, () => request);
    const call = await kept.take({ messages: [{ role: 'user', content: 'draft this' }], maxTokens: 400, queries: true });
    expect(call?.request).toEqual(request);
    expect(signals[0]?.aborted).toBe(false);

    const other = startEarlyDraft(ctx, () => request);
    expect(await other.take({ ...request, messages: [{ role: 'user', content: 'draft that' }] })).toBeUndefined();
    expect(signals[1]?.aborted).toBe(true);
    kept.cancel();
    expect(signals[0]?.aborted).toBe(true);
  });
});
