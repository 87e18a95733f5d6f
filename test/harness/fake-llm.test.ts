import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { match } from './matchers.ts';
import { startFakeLlm, type FakeLlm } from './fake-llm.ts';
import { byStage, faultOnce, sequence } from './llm-script.ts';
import { cosine } from './text.ts';

let llm: FakeLlm;
let client: OpenAI;

beforeAll(async () => {
  llm = await startFakeLlm({ apiKey: 'sk-test-key' });
  // maxRetries 0: each fault must reach the caller exactly as the server sent it.
  client = new OpenAI({ baseURL: llm.baseURL, apiKey: 'sk-test-key', maxRetries: 0 });
});
afterAll(() => llm.close());
beforeEach(() => llm.reset());

const schema = { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' } } }, required: ['steps'], additionalProperties: false };

describe('chat completions through the real openai SDK', () => {
  it('answers a plain request with a chat.completion and usage', async () => {
    const res = await client.chat.completions.create({ model: 'fake-llm', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there' }] });
    expect(res.object).toBe('chat.completion');
    expect(res.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Echo: Hello there' });
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(res.usage).toEqual({ prompt_tokens: Math.ceil('Be brief.Hello there'.length / 4), completion_tokens: Math.ceil('Echo: Hello there'.length / 4), total_tokens: match.any(Number) });
    expect(llm.requests[0]!.headers.authorization).toBe('Bearer sk-test-key');
  });

  it('streams chunks, ends with finish_reason stop, a usage chunk and [DONE]', async () => {
    llm.setResponder(() => ({ content: 'Paris is the capital of France. 巴黎是法国的首都。' }));
    const stream = await client.chat.completions.create({ model: 'fake-llm', messages: [{ role: 'user', content: 'Capital?' }], stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Paris is the capital of France. 巴黎是法国的首都。');
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0]!.id)).toBe(true);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.completion_tokens).toBe(Math.ceil(text.length / 4));
    expect(chunks[chunks.length - 2]!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.slice(0, -2).every((c) => c.choices[0]!.finish_reason === null && c.usage === null)).toBe(true);
  });

  it('sends raw SSE lines ending in data: [DONE]', async () => {
    const res = await fetch(`${llm.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const raw = await res.text();
    expect(raw.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(raw.split('\n\n').filter(Boolean).every((l) => l.startsWith('data: '))).toBe(true);
    expect(raw).not.toContain('"usage"'); // not asked for
  });

  it('routes json_schema requests by stage and serializes { json }', async () => {
    llm.setResponder(byStage({ draft: { json: { steps: ['a', 'b'] } } }));
    const res = await client.chat.completions.create({
      model: 'fake-llm',
      messages: [{ role: 'user', content: 'Plan it' }],
      response_format: { type: 'json_schema', json_schema: { name: 'draft', schema, strict: true } },
    });
    expect(JSON.parse(res.choices[0]!.message.content ?? '')).toEqual({ steps: ['a', 'b'] });
    expect(llm.requests[0]!.stage).toBe('draft');
    const other = await client.chat.completions.create({ model: 'fake-llm', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_object' } });
    expect(other.choices[0]!.message.content).toBe('{}');
  });

  it('exposes the parsed request to the responder', async () => {
    let seen: { system: string; lastUser: string; stage?: string; stream: boolean } | undefined;
    llm.setResponder((req) => {
      seen = { system: req.system, lastUser: req.lastUser, stage: req.stage, stream: req.stream };
      return { content: 'ok' };
    });
    await client.chat.completions.create({
      model: 'fake-llm',
      messages: [{ role: 'system', content: 'S1' }, { role: 'system', content: 'S2' }, { role: 'user', content: [{ type: 'text', text: 'part one' }] }],
    });
    expect(seen).toEqual({ system: 'S1\n\nS2', lastUser: 'part one', stage: undefined, stream: false });
  });

  it('lets a stateful responder fail once and then succeed', async () => {
    llm.setResponder(faultOnce({ kind: 'status', status: 500 }, { content: 'second time lucky' }));
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    const ok = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(ok.choices[0]!.message.content).toBe('second time lucky');
    llm.setResponder(sequence({ content: 'one' }, { content: 'two' }));
    const a = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const b = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const c = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect([a, b, c].map((r) => r.choices[0]!.message.content)).toEqual(['one', 'two', 'two']);
  });
});

describe('faults', () => {
  const ask = (c: OpenAI = client, signal?: AbortSignal) => c.chat.completions.create({ model: 'fake-llm', messages: [{ role: 'user', content: 'x' }] }, { signal });

  it('401 for a wrong key is an AuthenticationError with invalid_api_key', async () => {
    const wrong = new OpenAI({ baseURL: llm.baseURL, apiKey: 'sk-wrong-key-123', maxRetries: 0 });
    const err = await ask(wrong).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
  });

  it('401 as a scripted fault too', async () => {
    llm.setResponder(() => ({ fault: { kind: 'status', status: 401 } }));
    await expect(ask()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('429 carries retry-after and OpenAI error fields', async () => {
    llm.setResponder(() => ({ fault: { kind: 'status', status: 429, retryAfter: 7 } }));
    const err = await ask().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const rl = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rl.headers.get('retry-after')).toBe('7');
    expect(rl.code).toBe('rate_limit_exceeded');
  });

  it('the SDK retries a 429 after retry-after and then succeeds', async () => {
    llm.setResponder(faultOnce({ kind: 'status', status: 429, retryAfter: 0.2 }, { content: 'fine' }));
    const retrying = new OpenAI({ baseURL: llm.baseURL, apiKey: 'sk-test-key', maxRetries: 1 });
    const res = await ask(retrying);
    expect(res.choices[0]!.message.content).toBe('fine');
    expect(llm.chatRequests()).toHaveLength(2);
  });

  it('500, 503, 403 and 404 map to the SDK error classes', async () => {
    const cases = [
      [500, OpenAI.InternalServerError],
      [503, OpenAI.InternalServerError],
      [403, OpenAI.PermissionDeniedError],
      [404, OpenAI.NotFoundError],
    ] as const;
    for (const [status, cls] of cases) {
      llm.setResponder(() => ({ fault: { kind: 'status', status } }));
      const err = await ask().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(cls);
      expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
    }
  });

  it('a hang ends only when the client aborts', async () => {
    llm.setResponder(() => ({ fault: { kind: 'hang' } }));
    const t0 = Date.now();
    const err = await ask(client, AbortSignal.timeout(300)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('a stalled stream delivers some content and then nothing until aborted', async () => {
    llm.setResponder(() => ({ fault: { kind: 'stall', afterChars: 20, content: 'The quick brown fox jumps over the lazy dog.' } }));
    const ctrl = new AbortController();
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }, { signal: ctrl.signal });
    let text = '';
    const done = (async () => {
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
      return 'ended';
    })();
    const raced = await Promise.race([done, new Promise((r) => setTimeout(() => r('stalled'), 400))]);
    expect(raced).toBe('stalled');
    expect(text).toBe('The quick brown fox ');
    ctrl.abort();
    // An aborted stream ends silently in openai 7 (see PLATFORM-NOTES): the loop just stops.
    await expect(done).resolves.toBe('ended');
  });

  it('a truncated stream ends without finish_reason and without [DONE]', async () => {
    llm.setResponder(() => ({ fault: { kind: 'truncate', afterChars: 15, content: 'The quick brown fox jumps over the lazy dog.' } }));
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('The quick brown');
    expect(chunks.every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    const raw = await fetch(`${llm.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test-key' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
    }).then((r) => r.text());
    expect(raw).not.toContain('[DONE]');
  });

  it('a truncated non-streaming body fails to parse', async () => {
    llm.setResponder(() => ({ fault: { kind: 'truncate', afterChars: 5 } }));
    await expect(ask()).rejects.toThrow();
  });

  it('malformed JSON content arrives as a normal completion', async () => {
    llm.setResponder(() => ({ fault: { kind: 'malformed' } }));
    const res = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_schema', json_schema: { name: 'draft', schema } },
    });
    expect(res.choices[0]!.message.content).toBe('{"steps": [');
    expect((): unknown => JSON.parse(res.choices[0]!.message.content ?? '')).toThrow(SyntaxError);
  });
});

describe('latency', () => {
  it('delays the first token and paces the stream', async () => {
    llm.setLatency({ firstTokenMs: 150, tokensPerSec: 40 });
    llm.setResponder(() => ({ content: 'x'.repeat(40) })); // 10 tokens → 250 ms at 40 tok/s
    const t0 = Date.now();
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    let first = 0;
    for await (const c of stream) if (!first && c.choices[0]?.delta.content) first = Date.now() - t0;
    const total = Date.now() - t0;
    expect(first).toBeGreaterThanOrEqual(140);
    expect(total).toBeGreaterThanOrEqual(380);
    expect(total).toBeLessThan(1500);
  });

  it('charges prompt processing time from inputTokensPerSec', async () => {
    llm.setLatency({ inputTokensPerSec: 100 });
    const t0 = Date.now();
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'y'.repeat(80) }] }); // 20 tokens → 200 ms
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
  });
});

describe('origins, CORS and other endpoints', () => {
  it('rejects extension origins with a bare 403 like Ollama, but serves others', async () => {
    const ollama = await startFakeLlm({ rejectExtensionOrigins: true });
    try {
      const denied = await fetch(`${ollama.baseURL}/chat/completions`, { method: 'POST', headers: { origin: 'chrome-extension://abcdefghijklmnop' }, body: '{}' });
      expect(denied.status).toBe(403);
      expect(await denied.text()).toBe('Forbidden');
      const pre = await fetch(`${ollama.baseURL}/chat/completions`, { method: 'OPTIONS', headers: { origin: 'moz-extension://x', 'access-control-request-method': 'POST' } });
      expect(pre.status).toBe(403);
      const ok = await fetch(`${ollama.baseURL}/models`, { headers: { origin: 'http://localhost:3000' } });
      expect(ok.status).toBe(200);
    } finally {
      await ollama.close();
    }
  });

  it('answers CORS preflight permissively', async () => {
    const res = await fetch(`${llm.baseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'chrome-extension://abc', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('chrome-extension://abc');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
  });

  it('lists models', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['fake-llm', 'fake-embedding']);
    expect(models.data[0]).toMatchObject({ object: 'model', owned_by: match.any(String), created: match.any(Number) });
  });

  it('embeds deterministically; similar texts and synonyms are close (float and base64)', async () => {
    const res = await client.embeddings.create({ model: 'fake-embedding', input: ['Marie Curie won the Nobel Prize', 'Curie won a Nobel Prize in 1903', 'Tomatoes need full sun', 'the GDP of France', 'the gross domestic product of France'] });
    const [a = [], b = [], c = [], d = [], e = []] = res.data.map((x) => x.embedding);
    expect(a).toHaveLength(1024);
    expect(cosine(a, b)).toBeGreaterThan(0.5);
    expect(cosine(a, c)).toBeLessThan(0.2);
    expect(cosine(d, e)).toBeGreaterThan(0.7);
    expect(cosine(c, e)).toBeLessThan(0.2);
    const small = await client.embeddings.create({ model: 'fake-embedding', input: 'Tomatoes', dimensions: 256 });
    expect(small.data[0]!.embedding).toHaveLength(256);
    expect(res.usage.prompt_tokens).toBeGreaterThan(0);
    const floats = await client.embeddings.create({ model: 'fake-embedding', input: 'Marie Curie won the Nobel Prize', encoding_format: 'float' });
    expect(floats.data[0]!.embedding[0]).toBeCloseTo(a[0]!, 6);
    expect(llm.requests[0]!.body).toMatchObject({ encoding_format: 'base64' }); // the SDK's default
  });

  it('answers unknown paths with an OpenAI-style 404', async () => {
    const res = await fetch(`${llm.baseURL}/nope`, { headers: { authorization: 'Bearer sk-test-key' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { message: match.stringContaining('Invalid URL'), type: 'invalid_request_error' } });
  });

  it('close() returns even while a request hangs', async () => {
    const other = await startFakeLlm({ responder: () => ({ fault: { kind: 'hang' } }) });
    const pending = fetch(`${other.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
