import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../test/harness/fake-llm.ts';
import { faultOnce, sequence } from '../../test/harness/llm-script.ts';
import { createLlmClient, requestBody } from './client';
import { LlmError } from './errors';
import type { LlmSettings } from '../settings/schema';

let server: FakeLlm;
beforeEach(async () => {
  server = await startFakeLlm();
});
afterEach(async () => {
  await server.close();
});

const settings = (timeoutMs = 5000): LlmSettings => ({ preset: 'custom', baseURL: server.baseURL, apiKey: 'k', model: 'fake-llm', embeddingModel: '', timeoutMs });
const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
const parse = (v: unknown) => {
  const a = (v as { answer?: unknown }).answer;
  if (typeof a !== 'string') throw new Error('answer must be a string');
  return { answer: a };
};
const ask = (signal?: AbortSignal) => ({ stage: 'answer', schemaName: 'answer', schema, parse, messages: [{ role: 'user' as const, content: 'hi' }], signal });

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof LlmError ? e.info.code : `raw:${String(e)}`;
  }
}

describe('LLM client', () => {
  it('streams text deltas and records usage per stage', async () => {
    server.setResponder(() => ({ content: 'Hello there, streaming world.' }));
    const llm = createLlmClient(settings());
    const deltas: string[] = [];
    const usage: number[] = [];
    const text = await llm.chat({ stage: 'compose', messages: [{ role: 'user', content: 'hi' }], onDelta: (d) => deltas.push(d), onUsage: (u) => usage.push(u.outputTokens) });
    expect(text).toBe('Hello there, streaming world.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
    expect(llm.usage.byStage.compose?.calls).toBe(1);
    expect(llm.usage.outputTokens).toBeGreaterThan(0);
    expect(usage).toHaveLength(1);
  });

  it('sends json_schema with the stage name and streams partial objects', async () => {
    server.setResponder(() => ({ json: { answer: 'forty-two is the answer' } }));
    const llm = createLlmClient(settings());
    const partials: unknown[] = [];
    const out = await llm.json({ ...ask(), onPartial: (p) => partials.push(p) });
    expect(out).toEqual({ answer: 'forty-two is the answer' });
    const body = server.chatRequests()[0]!.body as { response_format: { type: string; json_schema: { name: string } } };
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.name).toBe('answer');
    expect(partials.some((p) => typeof (p as { answer?: string })?.answer === 'string' && (p as { answer: string }).answer.length < 23)).toBe(true);
  });

  it('retries a 429 after the retry-after the server asked for', async () => {
    server.setResponder(faultOnce({ kind: 'status', status: 429, retryAfter: 1 }, { json: { answer: 'ok' } }));
    const llm = createLlmClient(settings());
    const t0 = Date.now();
    expect(await llm.json(ask())).toEqual({ answer: 'ok' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('fails a 429 at once when retry-after is longer than we are willing to wait', async () => {
    server.setResponder(() => ({ fault: { kind: 'status', status: 429, retryAfter: 120 } }));
    const llm = createLlmClient(settings());
    const err = await llm.json(ask()).catch((e: LlmError) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).info).toMatchObject({ code: 'rate-limit', status: 429, retryAfter: 120 });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('retries 500s with back-off and gives up after maxRetries', async () => {
    server.setResponder(faultOnce({ kind: 'status', status: 500 }, { json: { answer: 'ok' } }, 2));
    const llm = createLlmClient(settings(), { backoffMs: 10 });
    expect(await llm.json(ask())).toEqual({ answer: 'ok' });
    expect(server.chatRequests()).toHaveLength(3);
    server.reset();
    server.setResponder(() => ({ fault: { kind: 'status', status: 500 } }));
    expect(await codeOf(llm.json(ask()))).toBe('server');
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('does not retry a 401', async () => {
    server.setResponder(() => ({ fault: { kind: 'status', status: 401 } }));
    const llm = createLlmClient(settings());
    expect(await codeOf(llm.json(ask()))).toBe('auth');
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('times out a stream that stalls after its headers, and retries it', async () => {
    server.setResponder(faultOnce({ kind: 'stall', afterChars: 5, content: '{"answer": "stalled"}' }, { json: { answer: 'second try' } }));
    const llm = createLlmClient(settings(), { idleMs: 150, backoffMs: 10 });
    expect(await llm.json(ask())).toEqual({ answer: 'second try' });
    expect(server.chatRequests()).toHaveLength(2);
    server.setResponder(() => ({ fault: { kind: 'stall', afterChars: 5 } }));
    const llm2 = createLlmClient(settings(), { idleMs: 100, backoffMs: 10, maxRetries: 0 });
    expect(await codeOf(llm2.json(ask()))).toBe('timeout');
  });

  it('enforces the per-call time-out even while tokens keep arriving', async () => {
    server.setResponder(() => ({ json: { answer: 'x'.repeat(400) } }));
    server.setLatency({ tokensPerSec: 100 });
    const llm = createLlmClient(settings(300), { idleMs: 5000, maxRetries: 0 });
    const t0 = Date.now();
    expect(await codeOf(llm.json(ask()))).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('treats a stream cut off without finish_reason as a failure and retries it', async () => {
    server.setResponder(faultOnce({ kind: 'truncate', afterChars: 8, content: '{"answer": "cut"}' }, { json: { answer: 'whole' } }));
    const llm = createLlmClient(settings(), { backoffMs: 10 });
    expect(await llm.json(ask())).toEqual({ answer: 'whole' });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('repairs malformed JSON once, then reports bad-output', async () => {
    server.setResponder(sequence({ fault: { kind: 'malformed' } }, { json: { answer: 'repaired' } }));
    const llm = createLlmClient(settings());
    expect(await llm.json(ask())).toEqual({ answer: 'repaired' });
    const repair = server.chatRequests()[1]!.body as { messages: { role: string; content: string }[] };
    expect(repair.messages.at(-1)?.content).toMatch(/could not be used/);
    server.setResponder(() => ({ content: 'I would rather chat than write JSON.' }));
    expect(await codeOf(llm.json(ask()))).toBe('bad-output');
  });

  it('accepts JSON wrapped in a code fence or prose (tolerant parse)', async () => {
    server.setResponder(() => ({ content: 'Sure!\n```json\n{"answer": "fenced"}\n```' }));
    const llm = createLlmClient(settings());
    expect(await llm.json(ask())).toEqual({ answer: 'fenced' });
  });

  it('falls back to the schema in the prompt when the endpoint rejects json_schema (400), and remembers it', async () => {
    let schemaCalls = 0;
    server.setResponder(() => ({ content: '{"answer": "from prompt mode"}' }));
    // The fake has no 400 fault; answer 400 through a custom fetch in front of it.
    const fetch400: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (body.includes('"json_schema"')) {
        schemaCalls++;
        return new Response(JSON.stringify({ error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", type: 'invalid_request_error', param: 'response_format', code: null } }), { status: 400, headers: { 'content-type': 'application/json' } });
      }
      return fetch(input, init);
    };
    const llm = createLlmClient(settings(), { fetch: fetch400 });
    expect(await llm.json(ask())).toEqual({ answer: 'from prompt mode' });
    expect(await llm.json(ask())).toEqual({ answer: 'from prompt mode' });
    expect(schemaCalls).toBe(1);
    const sys = (server.chatRequests()[0]!.body as { messages: { role: string; content: string }[] }).messages[0];
    expect(sys?.content).toMatch(/for the schema "answer"/);
  });

  it('stops a hanging call within 1 s of abort', async () => {
    server.setResponder(() => ({ fault: { kind: 'hang' } }));
    const llm = createLlmClient(settings(30_000), { idleMs: 30_000 });
    const ctrl = new AbortController();
    const p = codeOf(llm.json(ask(ctrl.signal)));
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    ctrl.abort();
    expect(await p).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('stops waiting out a retry-after when aborted', async () => {
    server.setResponder(() => ({ fault: { kind: 'status', status: 429, retryAfter: 10 } }));
    const llm = createLlmClient(settings(30_000), { maxRetryWaitMs: 60_000 });
    const ctrl = new AbortController();
    const p = codeOf(llm.json(ask(ctrl.signal)));
    await new Promise((r) => setTimeout(r, 150));
    const t0 = Date.now();
    ctrl.abort();
    expect(await p).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe('LLM client: failures named for what they are', () => {
  it('a TCP reset mid-stream is a connection cut, retried', async () => {
    server.setResponder(() => ({ fault: { kind: 'reset', afterChars: 10 } }));
    const err = (await createLlmClient(settings(), { maxRetries: 0 }).chat({ stage: 'compose', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as LlmError;
    expect(err.info).toMatchObject({ code: 'unreachable' });
    expect(err.info.message).toMatch(/cut off mid-answer/);
    server.setResponder(faultOnce({ kind: 'reset', afterChars: 10 }, { content: 'whole' }));
    expect(await createLlmClient(settings()).chat({ stage: 'compose', messages: [{ role: 'user', content: 'hi' }] })).toBe('whole');
  });

  it('never puts a web page into a message (a proxy’s HTML error page)', async () => {
    server.setResponder(() => ({ fault: { kind: 'status', status: 500, message: '<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>' } }));
    const err = (await createLlmClient(settings(), { maxRetries: 0 }).json(ask()).catch((e: unknown) => e)) as LlmError;
    expect(err.info.message).toMatch(/web page \("502 Bad Gateway"\)/);
    expect(err.info.message).not.toMatch(/<|>/);
  });
});

describe('requestBody: what a request asks of the model, from what is known of it', () => {
  const req = { stage: 'revise', messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.2 };
  const o = { effort: 'low' as const, ollama: false };

  it('a plain model: max_tokens and the temperature; streamed with usage', () => {
    expect(requestBody('m', {}, o, req, undefined, 500)).toEqual({ model: 'm', messages: req.messages, stream: true, stream_options: { include_usage: true }, max_tokens: 500, temperature: 0.2 });
  });

  it('a reasoning model: max_completion_tokens with room for its thought, its effort, no temperature', () => {
    const b = requestBody('o4', { reasoning: true }, o, req, undefined, 500);
    expect(b).toMatchObject({ max_completion_tokens: 3500, reasoning_effort: 'low' });
    expect(b).not.toHaveProperty('temperature');
    expect(b).not.toHaveProperty('max_tokens');
  });

  it('an Ollama model that thinks: no thought for the gate, the chosen effort elsewhere', () => {
    const thinks = { thinking: 'reasoning-field' as const };
    expect(requestBody('qwen3', thinks, { ...o, ollama: true }, { ...req, stage: 'gate' }, undefined, 100)).toMatchObject({ reasoning_effort: 'none', max_tokens: 100 });
    expect(requestBody('qwen3', thinks, { ...o, ollama: true }, req, undefined, 100)).toMatchObject({ reasoning_effort: 'low', max_tokens: 3100 });
  });

  it('the response format when given, and nothing the model refused before', () => {
    const format = { type: 'json_schema' as const, json_schema: { name: 'answer', schema, strict: true } };
    const b = requestBody('m', { refused: ['stream_options', 'temperature'] }, o, req, format, undefined);
    expect(b).toEqual({ model: 'm', messages: req.messages, stream: true, response_format: format });
  });
});
