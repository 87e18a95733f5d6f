import OpenAI from 'openai';
import type { LlmSettings } from '../settings/schema';
import type { RunError } from '../pipeline/types';
import { classifyLlmError, LlmError } from './errors';
import { parsePartialJson } from './partial-json';
import { parseJsonLoose } from './json-text';
import { BUILTIN_MODEL_ID, createBuiltinClient } from './builtin';
import { apiFetch } from '../net/api-fetch';
import { addUsage, emptyUsage, type CallUsage, type ChatRequest, type JsonRequest, type JsonSchema, type LlmClient, type Usage } from './types';

export interface LlmClientOptions {
  /** Abort a stream that sends nothing for this long (the SDK's time-out does not cover it). */
  idleMs?: number;
  /** Retries after the first attempt for 429, 5xx, connection errors, stalls and cut-off streams. */
  maxRetries?: number;
  /** Longest wait we accept between retries (a larger retry-after fails the call at once). */
  maxRetryWaitMs?: number;
  /** First back-off step in ms (doubles per retry) when the server gives no retry-after. */
  backoffMs?: number;
  /** 'prompt' skips the json_schema response format from the start (endpoints known to reject it). */
  jsonMode?: 'json_schema' | 'prompt';
  fetch?: typeof fetch;
}

type ResponseFormat = OpenAI.Chat.ChatCompletionCreateParams['response_format'];

const RETRYABLE = new Set<RunError['code']>(['rate-limit', 'server', 'unreachable', 'timeout']);

/** The one LLM client: every model call in Ratify goes through here. */
export function createLlmClient(settings: LlmSettings, opts: LlmClientOptions = {}): LlmClient {
  if (settings.preset === 'builtin') return createBuiltinClient();
  const sdk = new OpenAI({
    baseURL: settings.baseURL,
    // Local servers (Ollama, LM Studio) take no key, but the SDK insists on one.
    apiKey: settings.apiKey || 'no-key',
    timeout: settings.timeoutMs,
    // We retry ourselves: the SDK's retries do not cover stalled or cut-off streams, and one
    // policy (with abort-aware waits) is easier to reason about than two stacked ones.
    maxRetries: 0,
    // The key lives in the user's own extension storage and goes only to this base URL.
    dangerouslyAllowBrowser: true,
    // Never follows a redirect to another origin: the key and the prompt stay with their host.
    fetch: apiFetch(opts.fetch),
  });
  const idleMs = opts.idleMs ?? Math.min(settings.timeoutMs, 30_000);
  const maxRetries = opts.maxRetries ?? 2;
  const maxRetryWaitMs = opts.maxRetryWaitMs ?? 20_000;
  const backoffMs = opts.backoffMs ?? 500;
  let jsonMode: 'json_schema' | 'prompt' = opts.jsonMode ?? 'json_schema';
  const usage: Usage = emptyUsage();

  const record = (u: CallUsage) => addUsage(usage, u);

  /** One HTTP attempt, streamed. Distinguishes cancel, stall, deadline and truncation, which the
   * SDK reports alike (an aborted stream just ends). */
  async function streamOnce(req: ChatRequest, responseFormat: ResponseFormat | undefined): Promise<string> {
    if (req.signal?.aborted) throw new LlmError({ code: 'cancelled', message: 'Cancelled.', stage: req.stage });
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = req.timeoutMs ?? settings.timeoutMs;
    let why: 'stall' | 'deadline' | undefined;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        why ??= 'stall';
        ctrl.abort();
      }, idleMs);
    };
    const deadline = setTimeout(() => {
      why ??= 'deadline';
      ctrl.abort();
    }, timeoutMs);
    const started = Date.now();
    let text = '';
    let inTok = 0;
    let outTok = 0;
    let ok = false;
    const ended = (): LlmError | undefined => {
      if (req.signal?.aborted) return new LlmError({ code: 'cancelled', message: 'Cancelled.', stage: req.stage });
      if (why === 'stall') return new LlmError({ code: 'timeout', message: `The model stopped sending for ${Math.round(idleMs / 1000)} s.`, stage: req.stage });
      if (why === 'deadline') return new LlmError({ code: 'timeout', message: `The model did not finish within ${Math.round(timeoutMs / 1000)} s.`, stage: req.stage });
      return undefined;
    };
    try {
      arm();
      const stream = await sdk.chat.completions.create(
        {
          model: settings.model,
          messages: req.messages,
          stream: true,
          stream_options: { include_usage: true },
          ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
          ...(responseFormat ? { response_format: responseFormat } : {}),
        },
        { signal: ctrl.signal },
      );
      let finished = false;
      for await (const chunk of stream) {
        arm();
        const delta = chunk.choices?.[0]?.delta?.content ?? '';
        if (delta) {
          text += delta;
          req.onDelta?.(delta);
        }
        if (chunk.choices?.[0]?.finish_reason) finished = true;
        if (chunk.usage) {
          inTok = chunk.usage.prompt_tokens ?? 0;
          outTok = chunk.usage.completion_tokens ?? 0;
        }
      }
      const e = ended();
      if (e) throw e;
      if (!finished) throw new LlmError({ code: 'server', message: "The model's answer was cut off (the stream ended early).", stage: req.stage });
      ok = true;
      return text;
    } catch (err) {
      const e = ended();
      if (e) throw e;
      if (err instanceof LlmError) throw err;
      throw new LlmError(classifyLlmError(err, settings.baseURL, req.stage, settings.preset));
    } finally {
      clearTimeout(idle);
      clearTimeout(deadline);
      req.signal?.removeEventListener('abort', onAbort);
      // Servers that do not report usage get an estimate (4 characters a token).
      if (!inTok) inTok = Math.ceil(req.messages.reduce((n, m) => n + m.content.length, 0) / 4);
      if (!outTok) outTok = Math.ceil(text.length / 4);
      const u: CallUsage = { stage: req.stage, inputTokens: inTok, outputTokens: outTok, ms: Date.now() - started, ok };
      record(u);
      req.onUsage?.(u);
    }
  }

  /** streamOnce with retries for transient failures; waits honour retry-after and abort. */
  async function withRetry(req: ChatRequest, responseFormat: ResponseFormat | undefined, onAttempt?: () => void): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        onAttempt?.();
        return await streamOnce(req, responseFormat);
      } catch (err) {
        const info = err instanceof LlmError ? err.info : classifyLlmError(err, settings.baseURL, req.stage, settings.preset);
        if (!RETRYABLE.has(info.code) || attempt >= maxRetries) throw err;
        const wait = info.retryAfter !== undefined ? info.retryAfter * 1000 : backoffMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
        if (wait > maxRetryWaitMs) throw err;
        await sleep(wait, req.signal, req.stage);
      }
    }
  }

  /** Some OpenAI-compatible servers reject `response_format: json_schema` with a 400. */
  function rejectsSchema(err: unknown): boolean {
    if (!(err instanceof LlmError)) return false;
    const s = err.info.status;
    return (s === 400 || s === 422 || s === 501) && !RETRYABLE.has(err.info.code);
  }

  async function jsonCall<T>(req: JsonRequest<T>): Promise<T> {
    const format: ResponseFormat = { type: 'json_schema', json_schema: { name: req.schemaName, schema: req.schema, strict: true } };
    let partialText = '';
    const onDelta = (d: string) => {
      req.onDelta?.(d);
      if (req.onPartial) {
        partialText += d;
        req.onPartial(parsePartialJson(partialText));
      }
    };
    const reset = () => {
      partialText = '';
    };
    const run = async (messages: ChatRequest['messages'], stream: boolean): Promise<string> => {
      const base: ChatRequest = { ...req, messages, onDelta: stream ? onDelta : undefined };
      if (jsonMode === 'json_schema') {
        try {
          return await withRetry(base, format, reset);
        } catch (err) {
          if (!rejectsSchema(err)) throw err;
          jsonMode = 'prompt'; // remember for the rest of this client's life
        }
      }
      return withRetry({ ...base, messages: withSchemaInPrompt(messages, req.schemaName, req.schema) }, undefined, reset);
    };
    const first = await run(req.messages, true);
    try {
      return req.parse(parseJsonLoose(first));
    } catch (err) {
      // One repair round: show the model its output and the problem.
      const problem = err instanceof Error ? err.message : String(err);
      const repaired = await run(
        [
          ...req.messages,
          { role: 'assistant', content: first.slice(0, 8000) },
          { role: 'user', content: `That reply could not be used (${problem.slice(0, 300)}). Reply with only the corrected JSON object for ${req.schemaName}.` },
        ],
        false,
      );
      try {
        return req.parse(parseJsonLoose(repaired));
      } catch (err2) {
        throw new LlmError({ code: 'bad-output', message: `The model's answer could not be read as ${req.schemaName} JSON: ${err2 instanceof Error ? err2.message : String(err2)}`, stage: req.stage });
      }
    }
  }

  return {
    usage,
    endpoint: `${settings.baseURL.replace(/\/+$/, '')} ${settings.model}`,
    chat: (req) => withRetry(req, undefined),
    json: jsonCall,
    async embed(texts, signal) {
      const started = Date.now();
      try {
        const res = await sdk.embeddings.create({ model: settings.embeddingModel, input: texts }, { signal, maxRetries: maxRetries });
        record({ stage: 'embed', inputTokens: res.usage?.prompt_tokens ?? 0, outputTokens: 0, ms: Date.now() - started, ok: true });
        return res.data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
      } catch (err) {
        throw new LlmError(classifyLlmError(err, settings.baseURL, 'embed', settings.preset));
      }
    },
  };
}

/** For endpoints without json_schema: the schema goes into the system message instead. */
function withSchemaInPrompt(messages: ChatRequest['messages'], name: string, schema: JsonSchema): ChatRequest['messages'] {
  const note = `\n\nReply with only one JSON object (no prose, no code fence) for the schema "${name}":\n${JSON.stringify(schema)}`;
  const i = messages.findIndex((m) => m.role === 'system');
  if (i < 0) return [{ role: 'system', content: note.trim() }, ...messages];
  return messages.map((m, j) => (j === i ? { ...m, content: m.content + note } : m));
}

function sleep(ms: number, signal: AbortSignal | undefined, stage: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LlmError({ code: 'cancelled', message: 'Cancelled.', stage }));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new LlmError({ code: 'cancelled', message: 'Cancelled.', stage }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function listModels(settings: LlmSettings, signal?: AbortSignal): Promise<string[]> {
  if (settings.preset === 'builtin') return [BUILTIN_MODEL_ID];
  const sdk = new OpenAI({ baseURL: settings.baseURL, apiKey: settings.apiKey || 'no-key', timeout: 10_000, maxRetries: 0, dangerouslyAllowBrowser: true, fetch: apiFetch() });
  try {
    const ids: string[] = [];
    for await (const m of sdk.models.list({ signal })) ids.push(m.id);
    return ids.sort();
  } catch (err) {
    throw new LlmError(classifyLlmError(err, settings.baseURL, 'models', settings.preset));
  }
}
