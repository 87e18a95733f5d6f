/** Ask and verify runs through the real client and executeRun against a server that behaves
 * like the ones people run: reasoning models, thinking models, servers that ignore streaming,
 * web pages, small context windows, connection resets, output limits, stalls and slow streams.
 * Each scenario asserts what the user sees (state, message, answer, citations) and how many
 * requests it took; each also prints one row of the table in the issue (scenario | outcome |
 * requests | time) to the test log. */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type Fault, type FakeLlm, type ModelBehaviour, type Responder } from '../../test/harness/fake-llm.ts';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { curieLibrary, llmSettings, notBeside, runOnce, type RunResult, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { createLlmClient } from './client';

const steps = ['Marie Curie was born in 1867.'];
const facts = [{ step: 0, phrase: 'born 7 November 1867' }];
const SCENARIO = { steps, facts, finalAnswer: 'Born in 1867.', claims: [{ claim: 'Marie Curie was born in 1867.', phrase: 'born 7 November 1867', verdict: 'supported' as const }] };
/** Requests a plain run makes: ask = gate, draft, one step with the answer; verify = the search
 * plan, the claims, one check. */
const PLAIN = { ask: 3, verify: 3 };

const THOUGHT = 'The user wants a date. Maybe the JSON is {"steps": ["wrong"]} and I could cite [P1] or [P2]; no, let me answer properly.';

interface Scenario {
  name: string;
  model?: string;
  behaviour?: ModelBehaviour;
  /** Wraps the scripted model, e.g. to inject a fault into the first call. */
  wrap?: (inner: Responder) => Responder;
  timeoutMs?: number;
  idleMs?: number;
  latency?: { tokensPerSec?: number; firstTokenMs?: number };
}

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function start(s: Scenario): Promise<TestWorld> {
  const server: FakeLlm = await startFakeLlm({ responder: pipelineResponder(SCENARIO), model: s.behaviour, latency: s.latency });
  if (s.wrap) server.setResponder(s.wrap(pipelineResponder(SCENARIO)));
  const llm = createLlmClient({ ...llmSettings(server.baseURL, s.timeoutMs ?? 10_000), model: s.model ?? 'fake-llm' }, { backoffMs: 20, idleMs: s.idleMs });
  return { server, llm, close: () => server.close() };
}

async function run(s: Scenario, mode: 'ask' | 'verify' = 'ask'): Promise<RunResult & { requests: number }> {
  world = await start(s);
  const input = mode === 'ask' ? { text: 'When was Marie Curie born?' } : { text: 'Marie Curie was born in 1867.' };
  const r = await runOnce(world, input, curieLibrary(), { mode });
  const requests = world.server.chatRequests().filter(notBeside).length;
  const outcome = r.run.status === 'done' ? `done: ${JSON.stringify(r.run.answer ?? '')}` : `${r.run.status}: ${r.run.error?.code} — ${r.run.error?.message}`;
  console.log(`| ${s.name} (${mode}) | ${outcome.slice(0, 140)}${r.run.gate?.unreadable ? ' (gate unreadable, skipped)' : ''} | ${requests} | ${(r.ms / 1000).toFixed(1)} s |`);
  return { ...r, requests };
}

/** Done, with the scripted answer and its citation, every stage read (no silent fallback). */
function expectAnswered(r: RunResult, mode: 'ask' | 'verify' = 'ask') {
  expect([r.run.status, r.run.error?.message]).toEqual(['done', undefined]);
  expect(r.run.answer).toMatch(/1867.*\[1\]/);
  expect(r.run.sources?.[0]?.url).toContain('Marie_Curie');
  if (mode === 'ask') expect(r.run.gate).toMatchObject({ label: 'clear', beta: 0.2 });
  else expect(r.run.claims?.[0]?.verdict).toBe('supported');
}

function once(fault: Fault): (inner: Responder) => Responder {
  let n = 0;
  return (inner) => (req) => (n++ === 0 ? { fault } : inner(req));
}

/** Requests of a run whose gate failed after its reply had begun: the gate's, and the draft sent
 * beside it once the reply began ("Faster answers", ask.ts), stopped with the run. */
function gateAndBeside(w: TestWorld): { gate: number; draft: number; other: number } {
  const stages = w.server.chatRequests().map((q) => q.stage);
  const gate = stages.filter((s) => s === 'gate').length;
  const draft = stages.filter((s) => s === 'draft').length;
  return { gate, draft, other: stages.length - gate - draft };
}

const body = (w: TestWorld, i = 0) => w.server.chatRequests()[i]?.body as Record<string, unknown>;

describe('reasoning models (OpenAI o-series, gpt-5)', () => {
  it('known by id: max_completion_tokens, no temperature, reasoning_effort low, no extra request', async () => {
    for (const mode of ['ask', 'verify'] as const) {
      const r = await run({ name: 'reasoning model, known id', model: 'gpt-5-mini', behaviour: { reasoning: {} } }, mode);
      expectAnswered(r, mode);
      expect(r.requests).toBe(PLAIN[mode]);
      const b = body(world!);
      expect(b).toMatchObject({ reasoning_effort: 'low' });
      expect(b).not.toHaveProperty('temperature');
      expect(b).not.toHaveProperty('max_tokens');
      expect(Number(b.max_completion_tokens)).toBeGreaterThan(600 + 400); // the reasoning is paid for
      await world!.close();
      world = undefined;
    }
  });

  it('unknown id (an Azure deployment): learnt from the 400 in one extra request, then remembered', async () => {
    const r = await run({ name: 'reasoning model, unknown id', model: 'my-deployment', behaviour: { reasoning: {} } });
    expectAnswered(r);
    expect(r.requests).toBe(PLAIN.ask + 1);
    expect(world!.server.chatRequests().filter((q) => 'max_tokens' in (q.body as object))).toHaveLength(1);
  });
});

describe('thinking models', () => {
  for (const style of ['think-tag', 'reasoning_content', 'reasoning'] as const) {
    it(`a thought (${style}) with braces and "[P1]" is never read as the answer`, async () => {
      for (const mode of ['ask', 'verify'] as const) {
        world = await start({ name: style, behaviour: { thinking: { style, text: THOUGHT } } });
        const input = mode === 'ask' ? { text: 'When was Marie Curie born?' } : { text: 'Marie Curie was born in 1867.' };
        const r = await runOnce(world, input, curieLibrary(), { mode });
        console.log(`| thinking, ${style} (${mode}) | ${r.run.status}: ${JSON.stringify(r.run.answer ?? r.run.error?.message ?? '').slice(0, 100)} | ${world.server.chatRequests().length} | ${(r.ms / 1000).toFixed(1)} s |`);
        expectAnswered(r, mode);
        expect(r.run.answer).not.toMatch(/wrong|let me|\[P1\]/);
        // The trace shows that the model thought, and how much, never what as the answer.
        expect(Object.values(r.run.thinking ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
        expect(r.events.some((e) => e.type === 'thinking')).toBe(true);
        expect(world.server.chatRequests().filter(notBeside)).toHaveLength(PLAIN[mode]);
        await world.close();
        world = undefined;
      }
    });
  }
});

describe('Ollama thinking models', () => {
  it('thinking is turned off for the gate once the model is known to think, and stays on elsewhere', async () => {
    world = await start({ name: 'ollama', behaviour: { thinking: { style: 'reasoning', text: THOUGHT } } });
    const llm = createLlmClient({ ...llmSettings(world.server.baseURL), preset: 'ollama' }, { backoffMs: 20 });
    const w = { ...world, llm };
    const first = await runOnce(w, { text: 'When was Marie Curie born?' }, curieLibrary());
    expectAnswered(first);
    const second = await runOnce(w, { text: 'When was Marie Curie born?' }, curieLibrary());
    expectAnswered(second);
    const gates = world.server.chatRequests().filter((q) => q.stage === 'gate');
    expect(gates.map((q) => (q.body as { reasoning_effort?: string }).reasoning_effort)).toEqual([undefined, 'none']);
    expect(second.run.thinking?.gate).toBeUndefined(); // Ollama did not think for it
    expect(second.run.thinking?.draft).toBeGreaterThan(0);
    expect(world.server.chatRequests().filter(notBeside)).toHaveLength(2 * PLAIN.ask);
  });
});

describe('servers', () => {
  it('a server that ignores stream: true (one JSON body) is used', async () => {
    const r = await run({ name: 'ignores stream', behaviour: { ignoreStream: true } });
    expectAnswered(r);
    expect(r.requests).toBe(PLAIN.ask);
  });

  it('a web page with status 200 is named as such, once, with no HTML in the message', async () => {
    const r = await run({ name: 'HTML 200', wrap: () => () => ({ fault: { kind: 'html' } }) });
    expect(r.run.status).toBe('error');
    expect(r.run.error?.code).toBe('not-an-api');
    expect(r.run.error?.message).toMatch(/answers with a web page, not an OpenAI-compatible API/);
    expect(r.run.error?.message).not.toMatch(/</);
    expect(r.requests).toBe(1);
  });

  it('json_schema refused: prompt mode after one extra request, remembered; any other 400 is not taken for it', async () => {
    const r = await run({ name: 'json_schema refused', behaviour: { rejectJsonSchema: true } });
    expectAnswered(r);
    expect(r.requests).toBe(PLAIN.ask + 1);
    await world!.close();
    const other = await run({ name: 'unrelated 400', wrap: () => () => ({ fault: { kind: 'status', status: 400, message: "Invalid 'messages[0].content': string too long. Expected a string with maximum length 10485760, but got a string with length 10485761 instead." } }) });
    expect(other.run.status).toBe('error');
    expect(other.requests).toBe(1);
    expect(world!.server.chatRequests().every((q) => (q.body as { response_format?: { type?: string } }).response_format?.type === 'json_schema')).toBe(true);
  });

  it('model not found names the models the server has', async () => {
    const r = await run({ name: 'model not found', model: 'gpt-4x', wrap: () => (req) => (req.model === 'fake-llm' ? { content: '' } : { fault: { kind: 'status', status: 404 } }) });
    expect(r.run.error?.code).toBe('model-not-found');
    expect(r.run.error?.message).toMatch(/Models at this server: fake-embedding, fake-llm/);
    expect(r.requests).toBe(1);
  });
});

describe('context window', () => {
  for (const wording of ['openai', 'llama.cpp', 'ollama', '413'] as const) {
    it(`too long (${wording}): retried once with fewer, shorter passages`, async () => {
      // Only the step's prompt, with its passages, is over the window (the gate's is about 640
      // tokens, the step's 690); halved, it fits.
      const r = await run({
        name: `context length, ${wording}`,
        behaviour: { contextWindow: { tokens: 660, wording } },
      });
      expectAnswered(r);
      expect(r.requests).toBe(PLAIN.ask + 1);
    });
  }

  it('too long with no passages to cut (or still too long after the cut): a message that says what to change', async () => {
    const r = await run({ name: 'context length, hopeless', behaviour: { contextWindow: { tokens: 50, wording: 'openai' } } });
    expect(r.run.status).toBe('error');
    expect(r.run.error?.code).toBe('context-length');
    expect(r.run.error?.message).toMatch(/context window/);
    expect(r.requests).toBeLessThanOrEqual(2);
  });
});

describe('broken streams and limits', () => {
  it('a TCP reset mid-stream is retried', async () => {
    const r = await run({ name: 'TCP reset mid-stream', wrap: once({ kind: 'reset', afterChars: 10 }) });
    expectAnswered(r);
    expect(r.requests).toBe(PLAIN.ask + 1);
  });

  it('finish_reason "length": one retry with a larger budget', async () => {
    let n = 0;
    const r = await run({ name: 'finish_reason length once', wrap: (inner) => async (req) => (n++ === 0 ? { content: '{"label": "cl', finishReason: 'length' } : inner(req)) });
    expectAnswered(r);
    expect(r.requests).toBe(PLAIN.ask + 1);
    const [a, b] = world!.server.chatRequests();
    expect(Number((b!.body as { max_tokens: number }).max_tokens)).toBeGreaterThan(Number((a!.body as { max_tokens: number }).max_tokens));
  });

  it('finish_reason "length" again: a clear message, no junk answer', async () => {
    const r = await run({ name: 'finish_reason length always', wrap: () => () => ({ content: '{"label": "cl', finishReason: 'length' }) });
    expect(r.run.status).toBe('error');
    expect(r.run.error?.code).toBe('output-limit');
    expect(gateAndBeside(world!)).toEqual({ gate: 2, draft: 1, other: 0 });
  });

  it('a thinking model whose thought eats the budget gets it raised, then remembered', async () => {
    const long = `${THOUGHT} `.repeat(20); // ~700 tokens of thought: more than the gate's 400
    const r = await run({ name: 'thinking eats max_tokens', behaviour: { thinking: { style: 'reasoning_content', text: long } } });
    expectAnswered(r);
    expect(r.requests).toBe(PLAIN.ask + 1);
  });

  it('a stalled stream fails within the configured time-out in total, not per try', async () => {
    const r = await run({ name: 'stalled stream (time-out 2 s)', timeoutMs: 2000, wrap: () => () => ({ fault: { kind: 'stall', afterChars: 5, content: '{"label": "clear"}' } }) });
    expect(r.run.status).toBe('error');
    expect(r.run.error?.code).toBe('timeout');
    expect(r.run.error?.message).toMatch(/within 2 s/);
    expect(r.ms).toBeLessThan(2000 + 1000);
    expect(gateAndBeside(world!)).toEqual({ gate: 1, draft: 1, other: 0 });
  });

  it('a slow but live stream is never restarted', async () => {
    const r = await run({ name: 'slow but alive (20 tokens/s, idle limit 2 s)', timeoutMs: 30_000, idleMs: 2000, latency: { tokensPerSec: 20 } });
    expectAnswered(r);
    expect(r.requests).toBe(PLAIN.ask);
  });

  it('a live stream slower than the time-out ends at the time-out, once, not restarted', async () => {
    const r = await run({ name: 'alive but slower than the time-out (2 s)', timeoutMs: 2000, latency: { tokensPerSec: 8 } });
    expect(r.run.status).toBe('error');
    expect(r.run.error?.code).toBe('timeout');
    expect(r.ms).toBeLessThan(2000 + 1000);
    expect(gateAndBeside(world!)).toEqual({ gate: 1, draft: 1, other: 0 });
  });
});
