/** How the fake server's model behaves beyond its scripted answers, the way real models and
 * servers do: OpenAI reasoning models (refuse `max_tokens` and `temperature`, spend hidden
 * reasoning tokens out of `max_completion_tokens`), thinking models (a `<think>` block in the
 * content or `reasoning_content` / `reasoning` deltas, turned off by Ollama's
 * `reasoning_effort: "none"`, spending `max_tokens` like any output), servers that ignore
 * `stream: true`, refuse json_schema, or have a small context window. */
import { contextLengthError, errorBody, jsonSchemaError, reasoningParamError, type ContextWording } from './fake-llm-errors.ts';
import { estimateTokens } from './text.ts';

type Effort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

export interface ModelBehaviour {
  /** An OpenAI reasoning model. Hidden reasoning tokens per effort (OpenAI's default effort is
   * medium). */
  reasoning?: { tokens?: Partial<Record<Effort, number>> };
  /** A thinking model: this thought comes before every answer. */
  thinking?: { style: 'think-tag' | 'reasoning_content' | 'reasoning'; text: string };
  /** Answers a streamed request with one JSON body (stream: true ignored). */
  ignoreStream?: boolean;
  /** Refuses response_format json_schema with a 400. */
  rejectJsonSchema?: boolean;
  /** Prompts over this many tokens are refused, in this server's words ('413': a proxy's limit). */
  contextWindow?: { tokens: number; wording: ContextWording | '413' };
}

const HIDDEN: Record<Effort, number> = { none: 0, minimal: 60, low: 600, medium: 2400, high: 8000 };

/** The 4xx this request gets before the model runs, if any. */
export function refusalFor(b: ModelBehaviour, body: Record<string, unknown>, promptTokens: number): { status: number; body: unknown } | undefined {
  if (b.reasoning) {
    const e = reasoningParamError(body);
    if (e) return { status: 400, body: e };
  }
  if (b.rejectJsonSchema && (body.response_format as { type?: unknown } | undefined)?.type === 'json_schema') return { status: 400, body: jsonSchemaError() };
  if (b.contextWindow && promptTokens > b.contextWindow.tokens) {
    const { wording, tokens } = b.contextWindow;
    if (wording === '413') return { status: 413, body: errorBody('Request Entity Too Large', 'invalid_request_error', 'request_too_large') };
    return { status: 400, body: contextLengthError(wording, tokens, promptTokens, Number(body.max_tokens ?? body.max_completion_tokens ?? 0)) };
  }
  return undefined;
}

export interface Generation {
  thought: string;
  content: string;
  finishReason: 'stop' | 'length';
  /** Hidden reasoning tokens (counted in completion_tokens, never sent). */
  hiddenTokens: number;
}

/** The thought and the answer this request gets, cut at its output limit as a real server cuts
 * them (the thought first: a thinking model that runs out while thinking sends no answer). */
export function generate(b: ModelBehaviour, body: Record<string, unknown>, content: string, finishReason: 'stop' | 'length'): Generation {
  const effort = (typeof body.reasoning_effort === 'string' ? body.reasoning_effort : undefined) as Effort | undefined;
  const hiddenTokens = b.reasoning ? ({ ...HIDDEN, ...b.reasoning.tokens })[effort ?? 'medium'] : 0;
  const thought = b.thinking && effort !== 'none' ? b.thinking.text : '';
  const limit = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : typeof body.max_tokens === 'number' ? body.max_tokens : undefined;
  if (limit === undefined || (!b.reasoning && !b.thinking)) return { thought, content, finishReason, hiddenTokens };
  let left = limit - hiddenTokens;
  if (left <= 0) return { thought: '', content: '', finishReason: 'length', hiddenTokens: limit };
  if (estimateTokens(thought) >= left) return { thought: thought.slice(0, left * 4), content: '', finishReason: 'length', hiddenTokens };
  left -= estimateTokens(thought);
  if (estimateTokens(content) > left) return { thought, content: content.slice(0, left * 4), finishReason: 'length', hiddenTokens };
  return { thought, content, finishReason, hiddenTokens };
}
