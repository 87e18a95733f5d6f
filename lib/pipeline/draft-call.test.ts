/** When revisions may overlap the draft, the draft of the question as typed is sent once the
 * gate's reply has begun, and the draft a decision calls for otherwise as soon as it is written; the
 * answer is the one the sequential schedule gives, and a draft sent early is kept only for
 * exactly the request the run then builds. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonRequest, LlmClient } from '../llm/types';
import { pipelineSettings, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { createMemoryLibrary } from '../../test/harness/memory-library';
import { emptyUsage } from '../core/usage';
import type { RetrieveRequest } from '../retrieval/types';
import { startEarlyDraft } from './draft-call';
import { executeRun } from './run';
import { newRun } from './run-state';
import { resetSpeculationPolicy } from './speculation-policy';
import type { RunEvent } from '../core/run';

const WORDS = ['amber', 'basalt', 'cobalt'];
const DOCS = WORDS.map((w, i) => ({ url: `https://example.org/${w}`, title: w, text: `${w} is mineral number ${i + 1}.` }));
const scenario = {
  steps: WORDS.map((w) => `The archive holds ${w}.`),
  facts: WORDS.map((w, step) => ({ step, phrase: `${w} is mineral` })),
  // A gate whose web searches take a while to write, as a model's do.
  gate: { label: 'clear' as const, question: '', confidence: 0.1, search: ['what the archive holds, minerals amber basalt cobalt, museum catalogue and inventory records'] },
};

/** Steps long enough that the draft is still being written when the gate decides. */
const longSteps = { ...scenario, steps: WORDS.map((w) => `The archive holds ${w}, as its catalogue of minerals and the inventory records of the museum's collections of stones and ores both show.`) };
const SLOW_DRAFT = { firstTokenMs: 100, tokensPerSec: 60 };

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  resetSpeculationPolicy();
});

interface TimedCall {
  stage: string;
  sent: number;
  first?: number;
  ended?: number;
  failed?: boolean;
}

/** The run, with when each call was sent, first heard from and ended (ms since the start). */
async function timedRun(llm: LlmClient, speculate: boolean, question = 'What does the archive hold?') {
  const t0 = performance.now();
  const calls: TimedCall[] = [];
  const timed: LlmClient = {
    ...llm,
    json: async <T,>(req: JsonRequest<T>) => {
      const c: TimedCall = { stage: req.stage ?? '', sent: performance.now() - t0 };
      calls.push(c);
      try {
        return await llm.json({ ...req, onPartial: (p) => ((c.first ??= performance.now() - t0), req.onPartial?.(p)) });
      } catch (err) {
        c.failed = true;
        throw err;
      } finally {
        c.ended = performance.now() - t0;
      }
    },
  };
  let decided: number | undefined;
  const emit = (ev: RunEvent) => {
    if (ev.type === 'gate') decided ??= performance.now() - t0;
  };
  const run = await executeRun({ run: newRun('d', 'ask', { text: question }, 0), llm: timed, library: createMemoryLibrary(DOCS), settings: pipelineSettings({ maxSteps: 3, speculate }), emit });
  return { run, calls, decided };
}

describe('the draft, sent beside the gate', () => {
  it('goes out once the gate has begun its reply, before it has decided, and the answer is the sequential one', async () => {
    world = await startWorld(longSteps, { latency: SLOW_DRAFT });
    const fast = await timedRun(world.llm, true);
    const gate = fast.calls.find((c) => c.stage === 'gate');
    const draft = fast.calls.find((c) => c.stage === 'draft');
    expect(fast.run.status).toBe('done');
    expect(gate?.first).toBeDefined();
    // Behind the gate (the server was already answering it), before the gate's decision was
    // written, and only once.
    expect(world.server.chatRequests().map((r) => r.stage).slice(0, 2)).toEqual(['gate', 'draft']);
    expect(draft?.sent).toBeGreaterThanOrEqual(gate?.first ?? Infinity);
    expect(draft?.sent).toBeLessThan(fast.decided ?? 0);
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

  it('to an endpoint seen streaming two replies at once, the next question\'s draft goes out with the gate, before its reply has begun, in a restarted worker too', async () => {
    world = await startWorld(longSteps, { latency: SLOW_DRAFT });
    const first = await timedRun(world.llm, true);
    const firstGate = first.calls.find((c) => c.stage === 'gate');
    // Not yet known: behind the gate's first word, as before.
    expect(first.calls.find((c) => c.stage === 'draft')?.sent).toBeGreaterThanOrEqual(firstGate?.first ?? Infinity);
    // Its revisions streamed beside its draft: the endpoint answers in parallel.
    expect(first.run.steps.filter((s) => s.speculative)).not.toHaveLength(0);

    const second = await timedRun(world.llm, true);
    const gate = second.calls.find((c) => c.stage === 'gate');
    const drafts = second.calls.filter((c) => c.stage === 'draft');
    expect(second.run.status).toBe('done');
    expect(drafts).toHaveLength(1);
    // Sent while the gate's prompt was still being read, and kept.
    expect(drafts[0]?.sent).toBeLessThan(gate?.first ?? 0);
    expect(drafts[0]?.failed).toBeUndefined();
    expect(second.run.answer).toBe(first.run.answer);
    expect(second.run.steps.map((s) => s.revised ?? s.draft)).toEqual(first.run.steps.map((s) => s.revised ?? s.draft));

    // Kept with what else is learnt of the endpoint, which a restarted worker loads.
    expect(world.llm.servesParallel?.()).toBe(true);
    resetSpeculationPolicy();
    const third = await timedRun(world.llm, true);
    expect(third.calls.find((c) => c.stage === 'draft')?.sent).toBeLessThan(third.calls.find((c) => c.stage === 'gate')?.first ?? 0);
    expect(third.run.answer).toBe(first.run.answer);
  });

  it('a question the gate answers unaided: the draft beside it is cancelled and the answer sent when the decision is written, and the answer is the one without it', async () => {
    world = await startWorld({ ...longSteps, gate: { ...scenario.gate, confidence: 0.9 }, answer: 'The archive holds minerals.' }, { latency: SLOW_DRAFT });
    const fast = await timedRun(world.llm, true);
    expect(fast.run.status).toBe('done');
    expect(fast.run.gate?.retrieve).toBe(false);
    const gate = fast.calls.find((c) => c.stage === 'gate');
    const drafts = fast.calls.filter((c) => c.stage === 'draft');
    expect(drafts).toHaveLength(1);
    // Stopped before the gate had written its web searches (its last field), unused (nobody
    // waits for a cancelled call to settle, so the test does).
    await vi.waitFor(() => expect(drafts[0]?.ended).toBeDefined());
    expect(drafts[0]?.failed).toBe(true);
    expect(drafts[0]?.ended).toBeLessThan(gate?.ended ?? 0);
    expect(fast.calls.map((c) => c.stage).filter((s) => s !== 'draft')).toEqual(['gate', 'answer']);
    // The answer went out when the decision was written, while the gate still wrote its searches.
    const answer = fast.calls.find((c) => c.stage === 'answer');
    expect(answer?.sent).toBeLessThan(gate?.ended ?? 0);
    expect(answer?.sent).toBeGreaterThanOrEqual(fast.decided ?? Infinity);

    // "Faster answers" off: exactly two calls, and the same answer (sent at the decision too: it
    // is no speculation, the decision shown is the one the run keeps).
    resetSpeculationPolicy();
    const sequential = await timedRun(world.llm, false);
    expect(sequential.calls.map((c) => c.stage)).toEqual(['gate', 'answer']);
    expect(sequential.calls[1]?.sent).toBeLessThan(sequential.calls[0]?.ended ?? 0);
    expect(fast.run.answer).toBe(sequential.run.answer);
    expect(fast.run.answer).toContain('The archive holds minerals.');
  });

  it('a question the gate rewrites: the draft of the question as typed is cancelled, and the rewrite is drafted at the decision', async () => {
    const rewrite = 'What minerals does the city archive hold?';
    world = await startWorld({ ...longSteps, gate: { ...scenario.gate, label: 'incomplete', question: rewrite } }, { latency: SLOW_DRAFT });
    const fast = await timedRun(world.llm, true, 'and the archive?');
    expect(fast.run.status).toBe('done');
    expect(fast.run.gate?.rewritten).toBe(rewrite);
    const gate = fast.calls.find((c) => c.stage === 'gate');
    const drafts = fast.calls.filter((c) => c.stage === 'draft');
    expect(drafts).toHaveLength(2);
    await vi.waitFor(() => expect(drafts[0]?.ended).toBeDefined());
    expect(drafts[0]?.failed).toBe(true);
    // The rewrite's draft went out when the decision was written, before the gate's reply ended.
    expect(drafts[1]?.sent).toBeLessThan(gate?.ended ?? 0);
    const sentDrafts = world.server.chatRequests().filter((r) => r.stage === 'draft').map((r) => JSON.stringify(r.body));
    expect(sentDrafts[0]).toContain('and the archive?');
    expect(sentDrafts.at(-1)).toContain(rewrite);

    resetSpeculationPolicy();
    const sequential = await timedRun(world.llm, false, 'and the archive?');
    expect(sequential.calls.filter((c) => c.stage === 'draft')).toHaveLength(1);
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
