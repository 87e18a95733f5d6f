/** One HTTP request to the model, streamed. Distinguishes cancel, stall, deadline, truncation and
 * an answer cut at the output limit, which the SDK reports alike or not at all. */
import OpenAI from 'openai';
import type { LlmSettings } from '../settings/schema';
import { classifyLlmError, LlmError } from './errors';
import { ThinkSplitter } from './thinking';
import { estimateTokens } from './fit';
import type { CallUsage, ChatRequest } from './types';

export interface AttemptOptions {
  sdk: OpenAI;
  settings: LlmSettings;
  req: ChatRequest;
  body: Record<string, unknown>;
  /** Abort when nothing arrives for this long. */
  idleMs: number;
  /** Absolute time (Date.now()) by which the whole call, all attempts, must end. */
  deadline: number;
  /** The call's time-out, for the message. */
  timeoutMs: number;
  /** Answer text as it arrives (thinking taken out). */
  onAnswer?: (delta: string) => void;
  /** How this model delivers its thinking, once seen. */
  onThinkingKind?: (kind: 'think-tag' | 'reasoning-field') => void;
  onUsage: (u: CallUsage) => void;
}

/** Thrown for a 4xx that the server's own message explains, with the request we sent. */
export interface ApiRefusal {
  message: string;
  param?: string;
}

export class AttemptError extends LlmError {
  constructor(
    info: LlmError['info'],
    /** The request timed out because the call's time is used up (not worth another try). */
    public readonly outOfTime = false,
    public readonly refusal?: ApiRefusal,
  ) {
    super(info);
  }
}

interface ReasoningDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
}

export async function streamOnce(o: AttemptOptions): Promise<string> {
  const { req, settings } = o;
  if (req.signal?.aborted) throw new LlmError({ code: 'cancelled', message: 'Cancelled.', stage: req.stage });
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort();
  req.signal?.addEventListener('abort', onAbort, { once: true });
  let why: 'stall' | 'deadline' | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      why ??= 'stall';
      ctrl.abort();
    }, Math.min(o.idleMs, Math.max(0, o.deadline - Date.now())));
  };
  const deadline = setTimeout(
    () => {
      why ??= 'deadline';
      ctrl.abort();
    },
    Math.max(0, o.deadline - Date.now()),
  );
  const started = Date.now();
  const split = new ThinkSplitter();
  let text = '';
  let thoughtChars = 0;
  let inTok = 0;
  let outTok = 0;
  let ok = false;
  const ended = (): LlmError | undefined => {
    if (req.signal?.aborted) return new LlmError({ code: 'cancelled', message: 'Cancelled.', stage: req.stage });
    const left = o.deadline - Date.now();
    if (why === 'deadline' || (why === 'stall' && left <= 50)) {
      return new AttemptError({ code: 'timeout', message: `The model did not finish within ${Math.round(o.timeoutMs / 1000)} s (the time-out in Settings).`, stage: req.stage }, true);
    }
    if (why === 'stall') return new AttemptError({ code: 'timeout', message: `The model stopped sending for ${Math.round(o.idleMs / 1000)} s.`, stage: req.stage });
    return undefined;
  };
  const answer = (d: string) => {
    if (!d) return;
    text += d;
    o.onAnswer?.(d);
  };
  const thought = (d: string, kind: 'think-tag' | 'reasoning-field') => {
    if (!d) return;
    if (!thoughtChars) o.onThinkingKind?.(kind);
    thoughtChars += d.length;
    req.onThinking?.(thoughtChars);
  };
  try {
    arm();
    const stream = await o.sdk.chat.completions.create(o.body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, { signal: ctrl.signal });
    let finish: string | undefined;
    for await (const chunk of stream) {
      arm();
      const choice = chunk.choices?.[0];
      const delta = (choice?.delta ?? {}) as ReasoningDelta;
      // DeepSeek, vLLM and LM Studio send `reasoning_content`; Ollama and OpenRouter `reasoning`.
      thought(delta.reasoning_content ?? delta.reasoning ?? '', 'reasoning-field');
      if (delta.content) {
        const part = split.push(delta.content);
        thought(part.thinking, 'think-tag');
        answer(part.answer);
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) {
        inTok = chunk.usage.prompt_tokens ?? 0;
        outTok = chunk.usage.completion_tokens ?? 0;
      }
    }
    answer(split.flush());
    const e = ended();
    if (e) throw e;
    if (!finish) throw new LlmError({ code: 'server', message: "The model's answer was cut off (the stream ended early).", stage: req.stage });
    if (finish === 'length') {
      const spent = thoughtChars && !text.trim() ? ' while still thinking' : '';
      throw new AttemptError({ code: 'output-limit', message: `The answer reached the output limit${spent} (finish_reason "length").`, stage: req.stage });
    }
    ok = true;
    return text;
  } catch (err) {
    const e = ended();
    if (e) throw e;
    if (err instanceof LlmError) throw err;
    const info = classifyLlmError(err, settings.baseURL, req.stage, settings.preset);
    throw new AttemptError(info, false, refusalOf(err));
  } finally {
    clearTimeout(idle);
    clearTimeout(deadline);
    req.signal?.removeEventListener('abort', onAbort);
    // Servers that do not report usage get an estimate.
    if (!inTok) inTok = estimateTokens(req.messages.map((m) => m.content).join(''));
    if (!outTok) outTok = estimateTokens(text) + Math.ceil(thoughtChars / 4);
    o.onUsage({ stage: req.stage, inputTokens: inTok, outputTokens: outTok, ms: Date.now() - started, ok });
  }
}

/** A 400/422/501 with the server's words, which can teach what the model accepts. */
function refusalOf(err: unknown): ApiRefusal | undefined {
  if (!(err instanceof OpenAI.APIError) || ![400, 422, 501].includes(err.status ?? 0)) return undefined;
  const e = err.error as { message?: unknown; param?: unknown } | string | undefined;
  if (typeof e === 'string') return { message: e };
  return { message: typeof e?.message === 'string' ? e.message : err.message, param: typeof e?.param === 'string' ? e.param : undefined };
}
