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
import { followAbort } from '../core/abort';

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
  const endpoint = new Endpoint(settings, opts);
  /** A server that could not be reached: said why, when that can be told (./unreachable.ts). */
  const explained = <T>(p: Promise<T>): Promise<T> =>
    p.catch(async (err: unknown) => {
      throw err instanceof LlmError ? new LlmError(await explainUnreachable(err.info, settings, opts.fetch)) : err;
    });
  const budgetFor = (req: ChatRequest): CallBudget => ({ used: 0, deadline: Date.now() + (req.timeoutMs ?? settings.timeoutMs) });

  return {
    usage: endpoint.usage,
    endpoint: capabilityKey(settings.baseURL, settings.model),
    chat: (req) => explained(new ModelCall(endpoint, req, undefined, budgetFor(req)).run()),
    json<T>(req: JsonRequest<T>): Promise<T> {
      const budget = budgetFor(req);
      const schema = { name: req.schemaName, schema: req.schema };
      return explained(
        jsonWithRepair(req, async (messages, sink, repair) => {
          if (repair && budget.used >= MAX_REQUESTS) throw new LlmError({ code: 'bad-output', message: `The model's answer could not be read as ${req.schemaName} JSON, and this call has used its ${MAX_REQUESTS} requests.`, stage: req.stage });
          return new ModelCall(endpoint, { ...req, messages, onDelta: undefined }, schema, budget, sink).run();
        }),
      );
    },
    embed: (texts, signal) => endpoint.embed(texts, signal),
    servesParallel: () => endpoint.capabilities.parallel,
    learnParallel: (parallel) => {
      if (endpoint.capabilities.parallel !== parallel) endpoint.learn({ parallel });
    },
  };
}

/** Requests a call has made, and the time by which all of them must end. */
interface CallBudget {
  used: number;
  deadline: number;
}

/** An OpenAI-compatible endpoint, and what is known of its model (learnt from its refusals and
 * replies, and kept in the capability store). */
class Endpoint {
  readonly sdk: OpenAI;
  readonly usage: Usage = emptyUsage();
  readonly idleMs: number;
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
  readonly backoffMs: number;
  readonly effort: ReasoningEffort;
  private caps: Capabilities;
  private readonly store: CapabilityStore;
  private readonly key: string;
  private readonly ollama: boolean;

  constructor(
    readonly settings: LlmSettings,
    private readonly opts: LlmClientOptions,
  ) {
    this.store = opts.capabilities ?? memoryCapabilityStore;
    this.key = capabilityKey(settings.baseURL, settings.model);
    this.caps = this.store.get(this.key) ?? initialCapabilities(settings.model);
    if (opts.jsonMode === 'prompt') this.caps = { ...this.caps, jsonSchema: false };
    this.sdk = new OpenAI({
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
      fetch: apiFetch(noRedirects(opts.fetch), { onSingleBody: () => this.caps.streams !== false && this.learn({ streams: false }) }),
    });
    this.idleMs = opts.idleMs ?? Math.min(settings.timeoutMs, 30_000);
    this.maxRetries = opts.maxRetries ?? 2;
    this.maxRetryWaitMs = opts.maxRetryWaitMs ?? 20_000;
    this.backoffMs = opts.backoffMs ?? 500;
    this.effort = settings.reasoningEffort ?? 'low';
    this.ollama = settings.preset === 'ollama' || looksLikeOllama(settings.baseURL);
  }

  get capabilities(): Capabilities {
    return this.caps;
  }

  learn(l: Partial<Capabilities>): void {
    this.caps = merge(this.caps, l);
    this.store.set(this.key, this.caps);
  }

  /** Whether learning `l` would change what is known. */
  teaches(l: Partial<Capabilities>): boolean {
    return JSON.stringify(merge(this.caps, l)) !== JSON.stringify(this.caps);
  }

  /** The request body for what we know of the model now. */
  body(req: ChatRequest, format: ResponseFormat | undefined, maxTokens: number | undefined): Record<string, unknown> {
    return requestBody(this.settings.model, this.caps, { effort: this.effort, ollama: this.ollama }, req, format, maxTokens);
  }

  /** A model-not-found message, with the models the server does have. */
  async withAvailableModels(message: string, signal: AbortSignal | undefined): Promise<string> {
    try {
      const ids = await listModels(this.settings, signal, this.opts.fetch);
      if (!ids.length) return message;
      return `${message} Models at this server: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? ', …' : ''}.`;
    } catch {
      return message; // the list is a help, not the error
    }
  }

  async embed(texts: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const { settings } = this;
    try {
      const res = await this.sdk.embeddings.create({ model: settings.embeddingModel, input: texts }, { signal, maxRetries: this.maxRetries });
      addUsage(this.usage, { stage: 'embed', inputTokens: res.usage?.prompt_tokens ?? 0, outputTokens: 0 });
      return res.data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
    } catch (err) {
      throw new LlmError(classifyLlmError(err, settings.baseURL, 'embed', settings.preset));
    }
  }
}

/** The request body for a model with capabilities `caps`: the output budget under the name the
 * model takes (with room for its thought if it thinks), its reasoning effort (Ollama's thinking
 * models think not at all for a quick classification), and nothing the model refused before. */
export function requestBody(model: string, caps: Capabilities, o: { effort: ReasoningEffort; ollama: boolean }, req: ChatRequest, format: ResponseFormat | undefined, maxTokens: number | undefined): Record<string, unknown> {
  const b: Record<string, unknown> = { model, messages: req.messages, stream: true, stream_options: { include_usage: true } };
  const thinks = caps.reasoning || caps.thinking !== undefined;
  const light = LIGHT_STAGES.has(req.stage);
  // Ollama turns a thinking model's thought off with reasoning_effort "none"; a quick
  // classification does not need it.
  const stageEffort: ReasoningEffort | undefined = caps.reasoning ? o.effort : o.ollama && caps.thinking ? (light ? 'none' : o.effort) : undefined;
  const budget = maxTokens === undefined ? undefined : maxTokens + (thinks ? thinkingAllowance(stageEffort ?? o.effort) : 0);
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
class ModelCall {
  private messages: ChatRequest['messages'];
  private maxTokens: number | undefined;
  private lengthRetried = false;
  private shrunk = false;
  /** Retries of transient failures so far. */
  private transient = 0;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly req: ChatRequest,
    private readonly schema: { name: string; schema: JsonSchema } | undefined,
    private readonly budget: CallBudget,
    private readonly sink?: PartialSink,
  ) {
    this.messages = req.messages;
    this.maxTokens = req.maxTokens;
  }

  async run(): Promise<string> {
    for (;;) {
      const { req, schema, endpoint, sink } = this;
      const useSchema = schema && endpoint.capabilities.jsonSchema !== false;
      const attemptReq: ChatRequest = { ...req, messages: schema && !useSchema ? withSchemaInPrompt(this.messages, schema.name, schema.schema) : this.messages };
      const format: ResponseFormat | undefined = useSchema ? { type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: true } } : undefined;
      const body = endpoint.body(attemptReq, format, this.maxTokens);
      this.budget.used++;
      sink?.reset();
      try {
        return await this.attempt(attemptReq, body);
      } catch (err) {
        await this.recover(err, body);
      }
    }
  }

  private attempt(attemptReq: ChatRequest, body: Record<string, unknown>): Promise<string> {
    const { endpoint, req, sink } = this;
    return streamOnce({
      sdk: endpoint.sdk,
      settings: endpoint.settings,
      req: attemptReq,
      body,
      idleMs: endpoint.idleMs,
      deadline: this.budget.deadline,
      timeoutMs: req.timeoutMs ?? endpoint.settings.timeoutMs,
      onAnswer: sink ? sink.delta : req.onDelta,
      onThinkingKind: (kind) => endpoint.capabilities.thinking !== kind && endpoint.learn({ thinking: kind }),
      onUsage: (u: CallUsage) => {
        addUsage(endpoint.usage, u);
        req.onUsage?.(u);
      },
    });
  }

  /** After a failed request: returns when another is worth making (what it changes is set), else
   * throws the call's error. */
  private async recover(err: unknown, body: Record<string, unknown>): Promise<void> {
    if (!(err instanceof LlmError)) throw err;
    const last = this.budget.used >= MAX_REQUESTS;
    if (this.learnt(err, body, last)) return;
    const info = err.info;
    if (info.code === 'output-limit') return this.widenOutput(info, last);
    if (info.code === 'context-length') return this.shrinkPrompt(info, last);
    if (info.code === 'model-not-found') throw new LlmError({ ...info, message: await this.endpoint.withAvailableModels(info.message, this.req.signal) });
    await this.backOff(err, last);
  }

  /** A refusal that teaches what the model accepts: learnt, and asked again. */
  private learnt(err: LlmError, body: Record<string, unknown>, last: boolean): boolean {
    const refusal = err instanceof AttemptError ? err.refusal : undefined;
    const learnt = refusal && learnFromError(refusal.message, refusal.param, body);
    if (!learnt || last || !this.endpoint.teaches(learnt)) return false;
    this.endpoint.learn(learnt);
    return true;
  }

  /** Cut at the output limit: once more with a larger budget. A thinking model spends the budget
   * on its thought: the next request allows for it. */
  private widenOutput(info: RunError, last: boolean): void {
    if (this.lengthRetried || last) throw new LlmError({ ...info, message: `${info.message} A retry with a larger budget was cut off too.` });
    this.lengthRetried = true;
    const effort = this.endpoint.effort;
    this.maxTokens = Math.max(2 * (this.maxTokens ?? 1000), (this.maxTokens ?? 0) + thinkingAllowance(effort === 'none' ? 'low' : effort));
  }

  /** Over the context window: once more with fewer, shorter passages, if there are any to cut. */
  private shrinkPrompt(info: RunError, last: boolean): void {
    const smaller = !this.shrunk && !last ? shrinkPrompt(this.messages) : undefined;
    if (!smaller) throw new LlmError({ ...info, message: `${info.message}${this.shrunk ? ' Retried with fewer, shorter passages; still too long.' : ''}` });
    this.shrunk = true;
    this.messages = smaller;
  }

  /** A transient failure: waits (the server's retry-after, else a jittered back-off) and asks
   * again, while retries, requests and the call's time last. */
  private async backOff(err: LlmError, last: boolean): Promise<void> {
    const { info } = err;
    const { maxRetries, backoffMs, maxRetryWaitMs } = this.endpoint;
    if (!RETRYABLE.has(info.code) || last || this.transient >= maxRetries || (err instanceof AttemptError && err.outOfTime)) throw err;
    const wait = info.retryAfter !== undefined ? info.retryAfter * 1000 : backoffMs * 2 ** this.transient * (0.75 + Math.random() * 0.5);
    if (wait > maxRetryWaitMs || Date.now() + wait >= this.budget.deadline) throw err;
    this.transient++;
    await sleep(wait, this.req.signal, this.req.stage);
  }
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
    const t = setTimeout(() => {
      unfollow();
      resolve();
    }, ms);
    const unfollow = followAbort(signal, () => {
      clearTimeout(t);
      reject(new LlmError({ code: 'cancelled', message: 'Cancelled.', stage }));
    });
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
