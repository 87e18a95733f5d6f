/**
 * A local OpenAI-compatible server for tests, the benchmark and the demo. It speaks the real
 * wire protocol (checked against the `openai` SDK's own types and by tests that use the SDK), so
 * the extension's real client code runs against it unchanged.
 *
 * Answers come from a Responder, a function of the parsed request. Scripting per pipeline stage:
 * the stage is `response_format.json_schema.name` (see llm-script.ts for `byStage`, `sequence`,
 * `faultOnce`). Stateful behaviour ("fail the first call, then succeed") is just a closure:
 *
 *   let calls = 0;
 *   llm.setResponder(() => (++calls === 1 ? { fault: { kind: 'status', status: 429, retryAfter: 1 } } : { content: 'ok' }));
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CreateEmbeddingResponse, Embedding } from 'openai/resources/embeddings';
import type { Model } from 'openai/resources/models';
import type { CompletionUsage } from 'openai/resources/completions';
import { clientGone, headerString, listen, parseJson, readBody, sendJson, sendText, sleep, waitForClientGone } from './http-util.ts';
import { conceptEmbedding } from './fake-embeddings.ts';
import { inSchemaOrder } from './schema-order.ts';
import { estimateTokens } from './text.ts';
import { errorBody, HTML_PAGE, statusError, type FaultStatus } from './fake-llm-errors.ts';
import { generate, refusalFor, type ModelBehaviour } from './fake-llm-model.ts';
import { writeStream } from './fake-llm-stream.ts';
import { contentText, isRecord, stageOf } from './fake-llm-request.ts';
import { applyOriginRule, type OriginRule } from './fake-llm-origins.ts';

export type { FaultStatus } from './fake-llm-errors.ts';
export type { ModelBehaviour } from './fake-llm-model.ts';

export type Fault =
  /** An HTTP error with OpenAI's error body; 429 (and 503 when retryAfter is set) carry retry-after. */
  | { kind: 'status'; status: FaultStatus; retryAfter?: number; message?: string }
  /** No response at all (not even headers) until the client aborts. */
  | { kind: 'hang' }
  /** Streams the first `afterChars` characters of `content`, then sends nothing more and leaves the
   * connection open. Non-streaming: sends 200 headers, then nothing. */
  | { kind: 'stall'; afterChars: number; content?: string }
  /** Streams the first `afterChars` characters, then closes the stream cleanly but without a
   * finish_reason and without `data: [DONE]`. Non-streaming: a JSON body cut short. */
  | { kind: 'truncate'; afterChars: number; content?: string }
  /** A normal, successful answer whose content is not valid JSON (default '{"steps": ['). */
  | { kind: 'malformed'; content?: string }
  /** Status 200 with a web page (a captive portal, a site at the wrong URL). */
  | { kind: 'html' }
  /** Streams the first `afterChars` characters, then the TCP connection is reset. */
  | { kind: 'reset'; afterChars: number; content?: string };

export type Reply =
  | { content: string; finishReason?: 'stop' | 'length' }
  /** Serialized with JSON.stringify as the message content. */
  | { json: unknown }
  | { fault: Fault };

export interface ChatMessageIn {
  role: string;
  content: string;
}

export interface LlmRequest {
  /** response_format.json_schema.name when present: which pipeline stage is asking. */
  stage?: string;
  messages: ChatMessageIn[];
  /** All system messages joined with a blank line. */
  system: string;
  /** Content of the last user message ('' when none). */
  lastUser: string;
  stream: boolean;
  model: string;
  /** 'text' | 'json_object' | 'json_schema' */
  responseFormat: string;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

export type Responder = (req: LlmRequest) => Reply | Promise<Reply>;

export interface Latency {
  /** Delay before the first token, ms. Default 0. */
  firstTokenMs?: number;
  /** Output pacing. Default Infinity (no delay). */
  tokensPerSec?: number;
  /** Prompt processing: adds promptTokens / inputTokensPerSec seconds before the first token. Default Infinity. */
  inputTokensPerSec?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (raw text when it did not parse; undefined when empty). */
  body: unknown;
  stage?: string;
  /** Date.now() when the request arrived. */
  time: number;
}

export interface FakeLlmOptions {
  port?: number;
  /** When set, `Authorization: Bearer <apiKey>` is required. */
  apiKey?: string;
  /** Answer 403 "Forbidden" to chrome-extension:// and moz-extension:// origins, like Ollama
   * without OLLAMA_ORIGINS. */
  rejectExtensionOrigins?: boolean;
  /** How browser origins are treated (default 'allow'; `rejectExtensionOrigins` is 'refuse-extensions'). */
  origins?: OriginRule;
  latency?: Latency;
  responder?: Responder;
  /** Ids listed by GET /v1/models. */
  models?: string[];
  /** Answer 404 model_not_found for models not in `models`. Off by default. */
  strictModels?: boolean;
  /** Reasoning, thinking, streaming, json_schema and context-window behaviour (none by default). */
  model?: ModelBehaviour;
}

export interface FakeLlm {
  /** e.g. http://127.0.0.1:40123/v1 — pass straight to `new OpenAI({ baseURL })`. */
  baseURL: string;
  origin: string;
  port: number;
  requests: LoggedRequest[];
  /** Chat-completion requests only, in arrival order. */
  chatRequests(): LoggedRequest[];
  setResponder(fn: Responder): void;
  setLatency(l: Latency): void;
  setApiKey(key: string | undefined): void;
  setRejectExtensionOrigins(on: boolean): void;
  setOrigins(rule: OriginRule): void;
  setModelBehaviour(b: ModelBehaviour): void;
  /** Clears the request log and restores responder, latency, key and origin rule to the start options. */
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_MODELS = ['fake-llm', 'fake-embedding'];
const DEFAULT_MALFORMED = '{"steps": [';
const DEFAULT_CUT_CONTENT =
  'This answer starts normally and keeps going for a while so that a client can see a few chunks arrive before the stream goes wrong.';

/** Plain chat → "Echo: <last user message>"; JSON modes → {}. */
export const defaultResponder: Responder = (req) =>
  req.responseFormat === 'text' ? { content: `Echo: ${req.lastUser}` } : { json: {} };

let idCounter = 0;
const nextId = (prefix: string): string => `${prefix}-fake${(++idCounter).toString().padStart(6, '0')}`;

export async function startFakeLlm(opts: FakeLlmOptions = {}): Promise<FakeLlm> {
  const initial = {
    apiKey: opts.apiKey,
    origins: opts.origins ?? (opts.rejectExtensionOrigins ? ('refuse-extensions' as const) : ('allow' as const)),
    latency: opts.latency ?? {},
    responder: opts.responder ?? defaultResponder,
    behaviour: opts.model ?? {},
  };
  let { apiKey, origins, latency, responder, behaviour }: { apiKey?: string; origins: OriginRule; latency: Latency; responder: Responder; behaviour: ModelBehaviour } = initial;
  const models = opts.models ?? DEFAULT_MODELS;
  const requests: LoggedRequest[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.setHeader('x-request-id', nextId('req'));
    const originRule = applyOriginRule(req, res, origins);
    if (originRule === 'preflight') return;

    const body = parseJson(await readBody(req));
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body, stage: stageOf(body), time: Date.now() });

    // Ollama checks the Origin before anything else and answers a bare text 403.
    if (originRule === 'refuse') return sendText(res, 403, 'Forbidden');

    if (apiKey !== undefined) {
      const auth = headerString(req, 'authorization');
      if (!auth) {
        return sendJson(res, 401, errorBody("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.", 'invalid_request_error', null));
      }
      if (auth !== `Bearer ${apiKey}`) {
        const given = auth.replace(/^Bearer\s+/i, '');
        const masked = given.length > 8 ? `${given.slice(0, 4)}${'*'.repeat(given.length - 8)}${given.slice(-4)}` : '****';
        return sendJson(res, 401, errorBody(`Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key'));
      }
    }

    const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
    if (route === 'GET /v1/models') return sendJson(res, 200, listModels());
    if (route === 'POST /v1/chat/completions') return chat(req, res, body);
    if (route === 'POST /v1/embeddings') return embeddings(res, body);
    return sendJson(res, 404, errorBody(`Invalid URL (${req.method} ${url.pathname})`, 'invalid_request_error', null));
  }

  function listModels(): { object: 'list'; data: Model[] } {
    return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'ratify-test' })) };
  }

  function embeddings(res: ServerResponse, body: unknown): void {
    if (!isRecord(body) || body.input === undefined) {
      return sendJson(res, 400, errorBody("Missing required parameter: 'input'.", 'invalid_request_error', 'missing_required_parameter', 'input'));
    }
    const model = typeof body.model === 'string' ? body.model : '';
    if (opts.strictModels && !models.includes(model)) {
      return sendJson(res, 404, statusError(404, model));
    }
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    // Token-id inputs are hashed as their decimal text; good enough for a fake.
    const texts = inputs.map((x: unknown) => (typeof x === 'string' ? x : Array.isArray(x) ? x.join(' ') : String(x)));
    const dims = typeof body.dimensions === 'number' ? body.dimensions : undefined;
    const base64 = body.encoding_format === 'base64';
    const data = texts.map((text, index) => {
      const vec = conceptEmbedding(text, dims);
      // The SDK asks for base64 by default (little-endian float32) and decodes it itself.
      const embedding = base64 ? Buffer.from(new Float32Array(vec).buffer).toString('base64') : vec;
      return { object: 'embedding', index, embedding } as unknown as Embedding; // base64 is a string on the wire; the SDK type shows the decoded form
    });
    const promptTokens = texts.reduce((s, t) => s + estimateTokens(t), 0);
    const out: CreateEmbeddingResponse = { object: 'list', data, model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } };
    sendJson(res, 200, out);
  }

  async function chat(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (!isRecord(body)) {
      return sendJson(res, 400, errorBody('We could not parse the JSON body of your request.', 'invalid_request_error', null));
    }
    if (!Array.isArray(body.messages)) {
      return sendJson(res, 400, errorBody("Missing required parameter: 'messages'.", 'invalid_request_error', 'missing_required_parameter', 'messages'));
    }
    if (typeof body.model !== 'string' || body.model === '') {
      return sendJson(res, 400, errorBody('you must provide a model parameter', 'invalid_request_error', null));
    }
    const model = body.model;
    if (opts.strictModels && !models.includes(model)) {
      return sendJson(res, 404, statusError(404, model));
    }
    const rf = isRecord(body.response_format) && typeof body.response_format.type === 'string' ? body.response_format.type : 'text';
    if (rf === 'json_schema') {
      const js = isRecord(body.response_format) ? body.response_format.json_schema : undefined;
      if (!isRecord(js) || typeof js.name !== 'string') {
        return sendJson(res, 400, errorBody("Missing required parameter: 'response_format.json_schema.name'.", 'invalid_request_error', 'missing_required_parameter', 'response_format.json_schema.name'));
      }
    }
    const messages: ChatMessageIn[] = body.messages.map((m: unknown) => ({
      role: isRecord(m) && typeof m.role === 'string' ? m.role : 'user',
      content: isRecord(m) ? contentText(m.content) : '',
    }));
    const model_ = behaviour; // a change during this request applies to the next one
    const stream = body.stream === true && !model_.ignoreStream;
    const includeUsage = stream && isRecord(body.stream_options) && body.stream_options.include_usage === true;
    const signal = clientGone(res);
    const promptTokens = estimateTokens(messages.map((m) => m.content).join(''));
    const refused = refusalFor(model_, body, promptTokens);
    if (refused) return sendJson(res, refused.status, refused.body);
    const lr: LlmRequest = {
      stage: stageOf(body),
      messages,
      system: messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content).join('\n\n'),
      lastUser: [...messages].reverse().find((m) => m.role === 'user')?.content ?? '',
      stream,
      model,
      responseFormat: rf,
      body,
      headers: req.headers,
      signal,
    };
    const lat = latency; // a setLatency() during this request applies to the next one
    const reply = await responder(lr);

    let content: string;
    let finishReason: 'stop' | 'length' = 'stop';
    let cut: { mode: 'stall' | 'truncate' | 'reset'; at: number } | undefined;
    if ('fault' in reply) {
      const f = reply.fault;
      switch (f.kind) {
        case 'status': {
          const headers: Record<string, string> = {};
          if (f.status === 429 || f.retryAfter !== undefined) {
            headers['retry-after'] = String(f.retryAfter ?? 1);
            headers['x-ratelimit-limit-requests'] = '3';
            headers['x-ratelimit-remaining-requests'] = '0';
            headers['x-ratelimit-reset-requests'] = `${f.retryAfter ?? 1}s`;
          }
          return sendJson(res, f.status, statusError(f.status, model, f.message, f.retryAfter), headers);
        }
        case 'hang':
          return waitForClientGone(signal);
        case 'html':
          return sendText(res, 200, HTML_PAGE, { 'content-type': 'text/html; charset=utf-8' });
        case 'malformed':
          content = f.content ?? DEFAULT_MALFORMED;
          break;
        case 'stall':
        case 'truncate':
        case 'reset':
          content = f.content ?? DEFAULT_CUT_CONTENT;
          cut = { mode: f.kind, at: Math.max(0, f.afterChars) };
          break;
      }
    } else if ('json' in reply) {
      const js = rf === 'json_schema' && isRecord(body.response_format) && isRecord(body.response_format.json_schema) ? body.response_format.json_schema.schema : undefined;
      content = JSON.stringify(inSchemaOrder(reply.json, js));
    } else {
      content = reply.content;
      finishReason = reply.finishReason ?? 'stop';
    }
    const gen = generate(model_, body, content, finishReason);
    const completionTokens = estimateTokens(gen.thought) + estimateTokens(gen.content) + gen.hiddenTokens;
    const usage: CompletionUsage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
    const firstTokenDelay = (lat.firstTokenMs ?? 0) + (promptTokens / (lat.inputTokensPerSec ?? Infinity)) * 1000;
    const tps = lat.tokensPerSec ?? Infinity;
    const id = nextId('chatcmpl');
    const created = Math.floor(Date.now() / 1000);

    if (!(await sleep(firstTokenDelay, signal))) return;

    if (!stream) {
      // Non-streaming answers arrive in one piece after the whole generation time.
      if (!(await sleep((completionTokens / tps) * 1000, signal))) return;
      const thinkTag = model_.thinking?.style === 'think-tag' && gen.thought;
      const message: ChatCompletion['choices'][number]['message'] & Record<string, unknown> = { role: 'assistant', content: thinkTag ? `<think>${gen.thought}</think>\n${gen.content}` : gen.content, refusal: null };
      if (gen.thought && model_.thinking && model_.thinking.style !== 'think-tag') message[model_.thinking.style] = gen.thought;
      const completion: ChatCompletion = {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: gen.finishReason }],
        usage,
        system_fingerprint: 'fp_fake',
      };
      if (cut?.mode === 'stall') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.flushHeaders();
        return waitForClientGone(signal);
      }
      if (cut) {
        const text = JSON.stringify(completion);
        const at = text.indexOf('"content":') + 11 + cut.at;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        if (cut.mode === 'reset') {
          res.write(text.slice(0, Math.min(at, text.length - 1)));
          res.socket?.destroy();
          return;
        }
        res.end(text.slice(0, Math.min(at, text.length - 1)));
        return;
      }
      return sendJson(res, 200, completion);
    }

    await writeStream(res, signal, { id, created, model, includeUsage, usage, tps, gen, thinkingStyle: model_.thinking?.style, cut });
  }

  const server = await listen(handle, opts.port);
  return {
    baseURL: `${server.origin}/v1`,
    origin: server.origin,
    port: server.port,
    requests,
    chatRequests: () => requests.filter((r) => r.path.replace(/\/+$/, '') === '/v1/chat/completions'),
    setResponder: (fn) => {
      responder = fn;
    },
    setLatency: (l) => {
      latency = l;
    },
    setApiKey: (k) => {
      apiKey = k;
    },
    setRejectExtensionOrigins: (on) => {
      origins = on ? 'refuse-extensions' : 'allow';
    },
    setOrigins: (rule) => {
      origins = rule;
    },
    setModelBehaviour: (b) => {
      behaviour = b;
    },
    reset: () => {
      requests.length = 0;
      ({ apiKey, origins, latency, responder, behaviour } = initial);
    },
    close: () => server.close(),
  };
}
