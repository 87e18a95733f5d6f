/** When speculative revision is used: on by default, off by itself for a model that answers one
 * request at a time or a server that queues or rate-limits parallel requests, and said so. */
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient } from '../llm/client';
import type { LlmClient } from '../llm/types';
import { llmSettings, pipelineSettings, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { startQueueingProxy, type QueueingProxy } from '../../test/harness/queueing-proxy.ts';
import { executeRun } from './run';
import { newRun } from './run-state';
import { noteQueued, queuedBehind, resetSpeculationPolicy } from './speculation-policy';
import { createMemoryLibrary } from '../../test/harness/memory-library';

const WORDS = ['amber', 'basalt', 'cobalt', 'dolomite'];
const DOCS = WORDS.map((w, i) => ({ url: `https://example.org/${w}`, title: w, text: `${w} is mineral number ${i + 1}.` }));
const scenario = { steps: WORDS.map((w) => `The archive holds ${w}.`), facts: WORDS.map((w, step) => ({ step, phrase: `${w} is mineral` })) };

let world: TestWorld | undefined;
let proxy: QueueingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await world?.close();
  world = proxy = undefined;
  resetSpeculationPolicy();
});

async function ask(llm: LlmClient) {
  return executeRun({ run: newRun('s', 'ask', { text: 'What does the archive hold?' }, 0), llm, library: createMemoryLibrary(DOCS), settings: pipelineSettings({ maxSteps: 4 }), emit: () => {} });
}

describe('when to speculate', () => {
  it('a server that serves requests in parallel: on, nothing said', async () => {
    world = await startWorld(scenario, { latency: { firstTokenMs: 300, tokensPerSec: 400 } });
    const r = await ask(world.llm);
    expect(r.status).toBe('done');
    expect(r.speculationOff).toBeUndefined();
    expect(r.steps.filter((s) => s.speculative)).toHaveLength(3);
    // Its revisions streamed beside the draft: remembered, so the next question's draft need not
    // wait for the gate's first word (ask.ts draftBesideGate).
    expect(world.llm.servesParallel?.()).toBe(true);
  });

  it('a server that serves requests in parallel but starts long prompts slowly: not taken for a queue', async () => {
    // Revisions (long prompts) take ~0.7 s to start, the draft (short) ~0.1 s: revisions sent
    // while the draft streams start after others have ended, and each waited far longer than the
    // draft did, as behind a queue. But they start while the draft still streams.
    world = await startWorld({ ...scenario, steps: [...scenario.steps, ...scenario.steps.map((s) => `${s} Again.`)] }, { latency: { firstTokenMs: 50, tokensPerSec: 60, inputTokensPerSec: 1000 } });
    const r = await executeRun({ run: newRun('s', 'ask', { text: 'What does the archive hold?' }, 0), llm: world.llm, library: createMemoryLibrary(DOCS), settings: pipelineSettings({ maxSteps: 8 }), emit: () => {} });
    expect(r.status).toBe('done');
    expect(r.speculationOff).toBeUndefined();
    expect(r.steps.filter((s) => s.discarded?.length)).toHaveLength(0);
  });

  it('a client short of CPU, which hears every reply late and in bursts, does not take the server for a queue', async () => {
    world = await startWorld(scenario, { latency: { firstTokenMs: 100, tokensPerSec: 2000 } });
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    let stalls = 0;
    const r = await executeRun({
      run: newRun('s', 'ask', { text: 'What does the archive hold?' }, 0),
      llm: world.llm,
      library: createMemoryLibrary(DOCS),
      settings: pipelineSettings({ maxSteps: 4 }),
      // The worker is blocked for 0.8 s at a time while the revisions are answered.
      emit: (ev) => {
        if (ev.type === 'step-started' && stalls++ < 4) busy(800);
      },
    });
    expect(r.status).toBe('done');
    expect(r.speculationOff).toBeUndefined();
  });

  it('a local server that answers one request at a time: detected, turned off, said, and remembered', async () => {
    world = await startWorld(scenario, { latency: { firstTokenMs: 300, tokensPerSec: 400 } });
    proxy = await startQueueingProxy(world.server.baseURL);
    const llm = createLlmClient(llmSettings(proxy.baseURL));
    const first = await ask(llm);
    expect(first.status).toBe('done');
    expect(first.speculationOff).toBe('queueing');
    expect(proxy.stats().maxInFlight).toBe(1);
    // The draft sent beside the gate went out behind it: the server answered the gate first.
    expect(world.server.chatRequests().map((r) => r.stage).slice(0, 2)).toEqual(['gate', 'draft']);
    // The next run against the same endpoint does not try again.
    const before = proxy.stats().forwarded;
    const second = await ask(createLlmClient(llmSettings(proxy.baseURL)));
    expect(second.speculationOff).toBe('queueing');
    expect(second.steps.some((s) => s.speculative || s.discarded)).toBe(false);
    expect(proxy.stats().forwarded - before).toBe(2 + WORDS.length);
    expect(llm.servesParallel?.()).toBe(false);
  });

  it('an endpoint remembered as answering side by side that now answers one request at a time: the answer is the one without speculation, and it is remembered as queueing', async () => {
    world = await startWorld(scenario, { latency: { firstTokenMs: 300, tokensPerSec: 400 } });
    proxy = await startQueueingProxy(world.server.baseURL);
    const llm = createLlmClient(llmSettings(proxy.baseURL));
    // What an earlier run saw (before the server was restarted with one slot).
    llm.learnParallel?.(true);
    const r = await ask(llm);
    expect(r.status).toBe('done');
    expect(r.speculationOff).toBe('queueing');
    expect(proxy.stats().maxInFlight).toBe(1);
    expect(llm.servesParallel?.()).toBe(false);
    resetSpeculationPolicy();
    const sequential = await executeRun({ run: newRun('s', 'ask', { text: 'What does the archive hold?' }, 0), llm: world.llm, library: createMemoryLibrary(DOCS), settings: pipelineSettings({ maxSteps: 4, speculate: false }), emit: () => {} });
    expect(r.answer).toBe(sequential.answer);
    expect(r.steps.map((s) => s.revised ?? s.draft)).toEqual(sequential.steps.map((s) => s.revised ?? s.draft));
  });

  it('a server that rate-limits parallel requests: turned off and said', async () => {
    world = await startWorld(scenario, { latency: { firstTokenMs: 200, tokensPerSec: 400 } });
    proxy = await startQueueingProxy(world.server.baseURL, 'reject');
    // No retries: the first 429 a speculative request meets is final for it.
    const r = await ask(createLlmClient(llmSettings(proxy.baseURL), { maxRetries: 0 }));
    expect(r.status).toBe('done');
    expect(r.speculationOff).toBe('rate-limit');
    expect(r.steps.map((s) => s.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    // The gate, sent first, was answered; the draft sent beside it was the one refused.
    expect(r.gate?.unreadable).toBeUndefined();
    expect(world.server.chatRequests()[0]?.stage).toBe('gate');
  });

  it('a model that answers one request at a time (Chrome’s built-in model) never speculates, and says so', async () => {
    world = await startWorld(scenario);
    const serial: LlmClient = { ...world.llm, serial: true };
    const r = await ask(serial);
    expect(r.speculationOff).toBe('one-at-a-time');
    expect(r.steps.some((s) => s.speculative)).toBe(false);
    expect(world.server.chatRequests().filter((q) => q.stage === 'revise')).toHaveLength(WORDS.length);
  });

  it('the setting turns it off without a word in the trace', async () => {
    world = await startWorld(scenario);
    const r = await executeRun({ run: newRun('s', 'ask', { text: 'What does the archive hold?' }, 0), llm: world.llm, library: createMemoryLibrary(DOCS), settings: pipelineSettings({ maxSteps: 4, speculate: false }), emit: () => {} });
    expect(r.speculationOff).toBeUndefined();
    expect(r.steps.some((s) => s.speculative)).toBe(false);
  });
});

describe('queuedBehind: a first word that waited for another request to end', () => {
  // Another request sent at 0 spoke at 100 and ended at 3000.
  const other = { sentAt: 0, firstTokenAt: 100, endedAt: 3000 };

  it('sent while the other answered, silent until its end, then speaking about as fast as it did: queued', () => {
    expect(queuedBehind({ sentAt: 500, firstTokenAt: 3150 }, [other])).toBe(true);
  });

  it('a wait no longer than the quickest start allows, or a first word long after the other ended: not queued', () => {
    expect(queuedBehind({ sentAt: 2900, firstTokenAt: 3150 }, [other])).toBe(false); // waited 250 ms: not far longer than 100 ms + 500 ms
    expect(queuedBehind({ sentAt: 500, firstTokenAt: 4000 }, [other])).toBe(false); // spoke 1 s after the other's end: a slow start, not a queue
  });

  it('a prompt far longer than the other\'s: its slow first word is the prompt being read, not a queue', () => {
    // The same timings, but this prompt is 40 times the other's (the last step, with all the
    // evidence, after the draft's short prompt): reading it may take 40 times as long.
    expect(queuedBehind({ sentAt: 500, firstTokenAt: 3150, promptChars: 40_000 }, [{ ...other, promptChars: 1000 }])).toBe(false);
    // As long as the other's, or shorter: queued, as above.
    expect(queuedBehind({ sentAt: 500, firstTokenAt: 3150, promptChars: 1000 }, [{ ...other, promptChars: 1000 }])).toBe(true);
    expect(queuedBehind({ sentAt: 500, firstTokenAt: 3150, promptChars: 500 }, [{ ...other, promptChars: 1000 }])).toBe(true);
  });

  it('behind a request that failed, or one still answering, it cannot tell', () => {
    expect(queuedBehind({ sentAt: 500, firstTokenAt: 3150 }, [{ ...other, failed: new Error('x') }])).toBe(false);
    expect(queuedBehind({ sentAt: 500, firstTokenAt: 3150 }, [{ ...other, endedAt: undefined }])).toBe(false);
  });
});

describe('noteQueued: how many queued requests turn speculation off', () => {
  it('two at the same endpoint, counted per endpoint', () => {
    expect(noteQueued('http://a/v1 m')).toBe(false);
    expect(noteQueued('http://b/v1 m')).toBe(false);
    expect(noteQueued('http://a/v1 m')).toBe(true);
  });
});
