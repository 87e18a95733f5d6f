/** What one model at one endpoint accepts and how it answers, learned once and remembered.
 *
 * Reasoning models (OpenAI's o-series and gpt-5 family) refuse `max_tokens` and a `temperature`
 * other than 1; some servers refuse `response_format: json_schema`; thinking models write a
 * `<think>` block or send `reasoning_content` / `reasoning` deltas; some servers ignore
 * `stream: true`. Each is known from the model id where that is reliable, otherwise from the
 * server's own answer (one failed request at most), and kept per endpoint and model so the next
 * call, and the next run, gets it right the first time. */

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

export interface Capabilities {
  /** Takes `max_completion_tokens` and only the default temperature; `reasoning_effort` applies. */
  reasoning?: boolean;
  /** Optional parameters the server refused by name (e.g. 'reasoning_effort', 'stream_options'). */
  refused?: string[];
  /** false: the server rejected `response_format: json_schema`; the schema goes in the prompt. */
  jsonSchema?: boolean;
  /** How the model's thinking arrives, once seen. */
  thinking?: 'think-tag' | 'reasoning-field';
  /** false: the server answered a streamed request with one JSON body. */
  streams?: boolean;
  /** true: seen streaming two replies at once; false: a request sent beside another was seen
   * queued behind it or refused (lib/pipeline/speculation-policy.ts). */
  parallel?: boolean;
}

/** Where capabilities are kept. The default is this process's memory; a caller can pass a store
 * that also persists them. */
export interface CapabilityStore {
  get(key: string): Capabilities | undefined;
  set(key: string, caps: Capabilities): void;
}

const shared = new Map<string, Capabilities>();
const learnt = new Set<(all: Record<string, Capabilities>) => void>();
export const memoryCapabilityStore: CapabilityStore = {
  get: (k) => shared.get(k),
  set: (k, c) => {
    shared.set(k, c);
    const all = Object.fromEntries(shared);
    learnt.forEach((f) => f(all));
  },
};

/** Persistence for the shared store (lib/browser/capability-storage.ts): what a previous worker
 * learnt is loaded at start, without overriding anything this one has learnt meanwhile, and every
 * new lesson is handed to `onLearnt`, so a restarted worker does not pay the extra request again. */
export function persistCapabilities(saved: Record<string, Capabilities> | undefined, onLearnt: (all: Record<string, Capabilities>) => void): () => void {
  for (const [k, c] of Object.entries(saved ?? {})) if (!shared.has(k)) shared.set(k, c);
  learnt.add(onLearnt);
  return () => void learnt.delete(onLearnt);
}

export function capabilityKey(baseURL: string, model: string): string {
  return `${baseURL.replace(/\/+$/, '')} ${model}`;
}

/** OpenAI's reasoning families by bare model id (o1, o3-mini, o4-mini, gpt-5, gpt-5-mini, …;
 * not gpt-5-chat, which is a chat model). Ids behind a router prefix ("openai/o3") are left to
 * the router, which translates parameters itself. */
export function reasoningById(model: string): boolean | undefined {
  const id = model.trim().toLowerCase();
  if (id.includes('/')) return undefined;
  if (/^o\d(?:$|-)/.test(id)) return true;
  if (/^gpt-5/.test(id)) return !/chat/.test(id);
  return undefined;
}

export function initialCapabilities(model: string): Capabilities {
  const reasoning = reasoningById(model);
  return reasoning === undefined ? {} : { reasoning };
}

/** What a 400 teaches, read from the server's own error (OpenAI words it as
 * "Unsupported parameter: 'max_tokens' is not supported with this model. Use
 * 'max_completion_tokens' instead." or "Unsupported value: 'temperature' does not support 0 with
 * this model. Only the default (1) value is supported."). Undefined: the error is about
 * something else and must not change what we send. */
export function learnFromError(message: string, param: string | undefined, sent: Record<string, unknown>): Partial<Capabilities> | undefined {
  const m = message.toLowerCase();
  const named = param ?? /unsupported (?:parameter|value):\s*'([a-z_.]+)'/.exec(m)?.[1] ?? /'([a-z_]+)' is not supported/.exec(m)?.[1];
  if (named === 'max_tokens' || m.includes("use 'max_completion_tokens'")) return { reasoning: true };
  if (named === 'temperature' && 'temperature' in sent) return { reasoning: true };
  if (named && named !== 'messages' && named !== 'model' && named in sent && OPTIONAL.has(named)) return { refused: [named] };
  if (isSchemaRejection(m, named)) return { jsonSchema: false };
  return undefined;
}

/** Parameters we can drop and still get an answer. */
const OPTIONAL = new Set(['reasoning_effort', 'stream_options', 'temperature', 'max_completion_tokens']);

/** A 400/422/501 that is really about structured output, not any 400. */
function isSchemaRejection(m: string, param: string | undefined): boolean {
  if (param?.startsWith('response_format')) return true;
  return /response_format|json_schema|structured output|response format|grammar|guided_json|json mode/.test(m);
}

export function merge(caps: Capabilities, learnt: Partial<Capabilities>): Capabilities {
  const refused = [...new Set([...(caps.refused ?? []), ...(learnt.refused ?? [])])];
  return { ...caps, ...learnt, ...(refused.length ? { refused } : {}) };
}

/** Extra output budget for reasoning or thinking: those tokens count against the same limit
 * (`max_completion_tokens` includes reasoning tokens; a `<think>` block is ordinary output). */
export function thinkingAllowance(effort: ReasoningEffort): number {
  return { none: 0, minimal: 1000, low: 3000, medium: 8000, high: 20000 }[effort];
}

/** Stages that are a quick classification: thinking is turned off (Ollama) or kept at the
 * setting's effort. */
export const LIGHT_STAGES = new Set(['gate']);
