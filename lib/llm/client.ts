import OpenAI from 'openai';
import type { LlmSettings } from '../settings/schema';
import type { RunError } from '../core/run';
import { MARK } from '../core/prompt-sections';
import { classifyLlmError, LlmError, looksLikeOllama } from './errors';
import { BUILTIN_MODEL_ID, createBuiltinClient } from './builtin';
import { capabilityKey, initialCapabilities, learnFromError, LIGHT_STAGES, memoryCapabilityStore, merge, thinkingAllowance, type Capabilities, type CapabilityStore, type ReasoningEffort } from './capabilities';
import { shrinkPrompt } from './fit';
import { jsonWithRepair, type PartialSink } from './json-call';
import { AttemptError, streamOnce } from './stream-once';
import { apiFetch } from './transport';
import { explainUnreachable } from './unreachable';
import { apiFetch as noRedirects } from '../net/api-fetch';
import { addUsage, emptyUsage, type Usage } from '../core/usage';
import type { CallUsage, ChatRequest, JsonRequest, JsonSchema, LlmClient } from './types';

export interface LlmClientOptions {
  /** Abort a stream that sends nothing for this long (the SDK's time-out does not cover it). */
  idleMs?: number;
  /** Retries after the first attempt for 429, 5xx, connection errors, stalls and cut-off streams
   * (never more than MAX_REQUESTS requests per call in all). */
  maxRetries?: number;
  /** Longest wait we accept between retries (a larger retry-after fails the call at once). */
  maxRetryWaitMs?: number;
  /** First back-off step in ms (doubles per retry) when the server gives no retry-after. */
  backoffMs?: number;
  /** 'prompt' skips the json_schema response format from the start (endpoints known to reject it). */
  jsonMode?: 'json_schema' | 'prompt';
  /** Where what is learnt about the model is kept (default: this process's memory). */
  capabilities?: CapabilityStore;
  fetch?: typeof fetch;
}

type ResponseFormat = OpenAI.Chat.ChatCompletionCreateParams['response_format'];

/** Requests one call (one pipeline stage's model call, its repair round included) may make:
 * learning a capability, a retry and the repair round all count. */
export const MAX_REQUESTS = 3;

const RETRYABLE = new Set<RunError['code']>(['rate-limit', 'server', 'unreachable', 'timeout']);

/** The one LLM client: every model call in Ratify goes through here. */
export function createLlmClient(settings: LlmSettings, opts: LlmClientOptions = {}): LlmClient {
  if (settings.preset === 'builtin') return createBuiltinClient();
  const store = opts.capabilities ?? memoryCapabilityStore;
  const key = capabilityKey(settings.baseURL, settings.model);
  let caps: Capabilities = store.get(key) ?? initialCapabilities(settings.model);
  if (opts.jsonMode === 'prompt') caps = { ...caps, jsonSchema: false };
  const learn = (l: Partial<Capabilities>) => {
    caps = merge(caps, l);
    store.set(key, caps);
  };
  const sdk = new OpenAI({
    baseURL: settings.baseURL,
    // Local servers (Ollama, LM Studio) take no key, but the SDK insists on one.
    apiKey: settings.apiKey || 'no-key',
    timeout: settings.timeoutMs,
    // We retry ourselves: the SDK's retries do not cover stalled or cut-off streams, and one
    // policy (with abort-aware waits and one time budget) is easier to reason about than two.
    maxRetries: 0,
    // The key lives in the user's own extension storage and goes only to this base URL.
    dangerouslyAllowBrowser: true,
    // Never follows a redirect to another origin: the key and the prompt stay with their host.
    fetch: apiFetch(noRedirects(opts.fetch), { onSingleBody: () => caps.streams !== false && learn({ streams: false }) }),
  });
  const idleMs = opts.idleMs ?? Math.min(settings.timeoutMs, 30_000);
  const maxRetries = opts.maxRetries ?? 2;
  const maxRetryWaitMs = opts.maxRetryWaitMs ?? 20_000;
  const backoffMs = opts.backoffMs ?? 500;
  const effort: ReasoningEffort = settings.reasoningEffort ?? 'low';
  const ollama = settings.preset === 'ollama' || looksLikeOllama(settings.baseURL);
  const usage: Usage = emptyUsage();

  /** The request body for what we know of the model now. */
  function bodyFor(req: ChatRequest, format: ResponseFormat | undefined, maxTokens: number | undefined): Record<string, unknown> {
    const b: Record<string, unknown> = { model: settings.model, messages: req.messages, stream: true, stream_options: { include_usage: true } };
    const thinks = caps.reasoning || caps.thinking !== undefined;
    const light = LIGHT_STAGES.has(req.stage);
    // Ollama turns a thinking model's thought off with reasoning_effort "none"; a quick
    // classification does not need it.
    const stageEffort: ReasoningEffort | undefined = caps.reasoning ? effort : ollama && caps.thinking ? (light ? 'none' : effort) : undefined;
    const budget = maxTokens === undefined ? undefined : maxTokens + (thinks ? thinkingAllowance(stageEffort ?? effort) : 0);
    if (caps.reasoning) {
      if (budget !== undefined) b.max_completion_tokens = budget;
    } else {
      if (budget !== undefined) b.max_tokens = budget;
      if (req.temperature !== undefined) b.temperature = req.temperature;
    }
    if (stageEffort) b.reasoning_effort = stageEffort;
    if (format) b.response_format = format;
    for (const p of caps.refused ?? []) delete b[p];
    return b;
  }

  /** One call: up to MAX_REQUESTS requests within the call's time-out, learning what the model
   * accepts from its refusals, retrying what is transient, once with a larger output budget and
   * once with a smaller prompt. */
  async function call(req: ChatRequest, schema: { name: string; schema: JsonSchema } | undefined, budget: { used: number; deadline: number }, sink?: PartialSink): Promise<string> {
    let messages = req.messages;
    let maxTokens = req.maxTokens;
    let lengthRetried = false;
    let shrunk = false;
    let transient = 0;
    for (;;) {
      const useSchema = schema && caps.jsonSchema !== false;
      const attemptReq: ChatRequest = { ...req, messages: schema && !useSchema ? withSchemaInPrompt(messages, schema.name, schema.schema) : messages };
      const format: ResponseFormat | undefined = useSchema ? { type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: true } } : undefined;
      const body = bodyFor(attemptReq, format, maxTokens);
      budget.used++;
      sink?.reset();
      try {
        return await streamOnce({
          sdk,
          settings,
          req: attemptReq,
          body,
          idleMs,
          deadline: budget.deadline,
          timeoutMs: req.timeoutMs ?? settings.timeoutMs,
          onAnswer: sink ? sink.delta : req.onDelta,
          onThinkingKind: (kind) => caps.thinking !== kind && learn({ thinking: kind }),
          onUsage: (u: CallUsage) => {
            addUsage(usage, u);
            req.onUsage?.(u);
          },
        });
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        const info = err.info;
        const last = budget.used >= MAX_REQUESTS;
        const refusal = err instanceof AttemptError ? err.refusal : undefined;
        const learnt = refusal && learnFromError(refusal.message, refusal.param, body);
        if (learnt && !last && JSON.stringify(merge(caps, learnt)) !== JSON.stringify(caps)) {
          learn(learnt);
          continue;
        }
        if (info.code === 'output-limit') {
          if (lengthRetried || last) throw new LlmError({ ...info, message: `${info.message} A retry with a larger budget was cut off too.` });
          lengthRetried = true;
          // A thinking model spends the budget on its thought: the next call allows for it.
          maxTokens = Math.max(2 * (maxTokens ?? 1000), (maxTokens ?? 0) + thinkingAllowance(effort === 'none' ? 'low' : effort));
          continue;
        }
        if (info.code === 'context-length') {
          const smaller = !shrunk && !last ? shrinkPrompt(messages) : undefined;
          if (!smaller) throw new LlmError({ ...info, message: `${info.message}${shrunk ? ' Retried with fewer, shorter passages; still too long.' : ''}` });
          shrunk = true;
          messages = smaller;
          continue;
        }
        if (info.code === 'model-not-found') throw new LlmError({ ...info, message: await withAvailableModels(info.message, req.signal) });
        if (!RETRYABLE.has(info.code) || last || transient >= maxRetries || (err instanceof AttemptError && err.outOfTime)) throw err;
        const wait = info.retryAfter !== undefined ? info.retryAfter * 1000 : backoffMs * 2 ** transient * (0.75 + Math.random() * 0.5);
        if (wait > maxRetryWaitMs || Date.now() + wait >= budget.deadline) throw err;
        transient++;
        await sleep(wait, req.signal, req.stage);
      }
    }
  }

  async function withAvailableModels(message: string, signal: AbortSignal | undefined): Promise<string> {
    try {
      const ids = await listModels(settings, signal, opts.fetch);
      if (!ids.length) return message;
      return `${message} Models at this server: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? ', …' : ''}.`;
    } catch {
      return message; // the list is a help, not the error
    }
  }

  /** A server that could not be reached: said why, when that can be told (./unreachable.ts). */
  const explained = <T>(p: Promise<T>): Promise<T> => p.catch(async (err: unknown) => Promise.reject(err instanceof LlmError ? new LlmError(await explainUnreachable(err.info, settings, opts.fetch)) : err));

  const budgetFor = (req: ChatRequest) => ({ used: 0, deadline: Date.now() + (req.timeoutMs ?? settings.timeoutMs) });

  return {
    usage,
    endpoint: capabilityKey(settings.baseURL, settings.model),
    chat: (req) => explained(call(req, undefined, budgetFor(req))),
    json<T>(req: JsonRequest<T>): Promise<T> {
      const budget = budgetFor(req);
      const schema = { name: req.schemaName, schema: req.schema };
      return explained(
        jsonWithRepair(req, async (messages, sink, repair) => {
          if (repair && budget.used >= MAX_REQUESTS) throw new LlmError({ code: 'bad-output', message: `The model's answer could not be read as ${req.schemaName} JSON, and this call has used its ${MAX_REQUESTS} requests.`, stage: req.stage });
          return call({ ...req, messages, onDelta: undefined }, schema, budget, sink);
        }),
      );
    },
    async embed(texts, signal) {
      try {
        const res = await sdk.embeddings.create({ model: settings.embeddingModel, input: texts }, { signal, maxRetries: maxRetries });
        addUsage(usage, { stage: 'embed', inputTokens: res.usage?.prompt_tokens ?? 0, outputTokens: 0 });
        return res.data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
      } catch (err) {
        throw new LlmError(classifyLlmError(err, settings.baseURL, 'embed', settings.preset));
      }
    },
  };
}

/** For endpoints without json_schema: the schema goes into the system message instead. */
function withSchemaInPrompt(messages: ChatRequest['messages'], name: string, schema: JsonSchema): ChatRequest['messages'] {
  const note = `\n\nReply with only one JSON object (no prose, no code fence) ${MARK.schema(name)}:\n${JSON.stringify(schema)}`;
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

/** List model ids at the endpoint (options page and Test connection). */
export async function listModels(settings: LlmSettings, signal?: AbortSignal, fetchImpl?: typeof fetch): Promise<string[]> {
  if (settings.preset === 'builtin') return [BUILTIN_MODEL_ID];
  const sdk = new OpenAI({ baseURL: settings.baseURL, apiKey: settings.apiKey || 'no-key', timeout: 10_000, maxRetries: 0, dangerouslyAllowBrowser: true, fetch: apiFetch(noRedirects(fetchImpl)) });
  try {
    const ids: string[] = [];
    for await (const m of sdk.models.list({ signal })) ids.push(m.id);
    return ids.sort();
  } catch (err) {
    throw new LlmError(await explainUnreachable(classifyLlmError(err, settings.baseURL, 'models', settings.preset), settings, fetchImpl));
  }
}
