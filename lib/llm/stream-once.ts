/** One HTTP request to the model, streamed. Distinguishes cancel, stall, deadline, truncation and
 * an answer cut at the output limit, which the SDK reports alike or not at all. */
import OpenAI from 'openai';
import type { LlmSettings } from '../settings/schema';
import { classifyLlmError, isApiError, LlmError } from './errors';
import { ThinkSplitter } from './thinking';
import { estimateTokens } from './fit';
import type { CallUsage, ChatRequest } from './types';
import { followAbort } from '../core/abort';

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

const cancelled = (stage: string) => new LlmError({ code: 'cancelled', message: 'Cancelled.', stage });

export async function streamOnce(o: AttemptOptions): Promise<string> {
  const { req, settings } = o;
  if (req.signal?.aborted) throw cancelled(req.stage);
  const ctrl = new AbortController();
  const unfollow = followAbort(req.signal, () => ctrl.abort());
  const watch = new Watchdog(o, ctrl);
  const started = Date.now();
  const got = new Received(o);
  let ok = false;
  try {
    watch.arm();
    const stream = await o.sdk.chat.completions.create(o.body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, { signal: ctrl.signal });
    for await (const chunk of stream) {
      watch.arm();
      got.chunk(chunk);
    }
    got.flush();
    const e = watch.ended() ?? got.unfinished();
    if (e) throw e;
    ok = true;
    return got.text;
  } catch (err) {
    throw watch.ended() ?? (err instanceof LlmError ? err : new AttemptError(classifyLlmError(err, settings.baseURL, req.stage, settings.preset), false, refusalOf(err)));
  } finally {
    watch.stop();
    unfollow();
    o.onUsage(got.usage(Date.now() - started, ok));
  }
}

/** Aborts the request when nothing arrives for `idleMs`, or at the call's deadline, and says
 * which (the SDK reports both as an abort). */
class Watchdog {
  private why: 'stall' | 'deadline' | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly deadline: ReturnType<typeof setTimeout>;

  constructor(
    private readonly o: AttemptOptions,
    private readonly ctrl: AbortController,
  ) {
    this.deadline = setTimeout(
      () => {
        this.why ??= 'deadline';
        ctrl.abort();
      },
      Math.max(0, o.deadline - Date.now()),
    );
  }

  /** Something arrived: the idle clock starts again. */
  arm(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(
      () => {
        this.why ??= 'stall';
        this.ctrl.abort();
      },
      Math.min(this.o.idleMs, Math.max(0, this.o.deadline - Date.now())),
    );
  }

  /** Why the attempt ended early, if it did: cancelled, out of the call's time, or stalled. */
  ended(): LlmError | undefined {
    const { req } = this.o;
    if (req.signal?.aborted) return cancelled(req.stage);
    const left = this.o.deadline - Date.now();
    if (this.why === 'deadline' || (this.why === 'stall' && left <= 50)) {
      return new AttemptError({ code: 'timeout', message: `The model did not finish within ${Math.round(this.o.timeoutMs / 1000)} s (the time-out in Settings).`, stage: req.stage }, true);
    }
    if (this.why === 'stall') return new AttemptError({ code: 'timeout', message: `The model stopped sending for ${Math.round(this.o.idleMs / 1000)} s.`, stage: req.stage });
    return undefined;
  }

  stop(): void {
    clearTimeout(this.idle);
    clearTimeout(this.deadline);
  }
}

/** What the stream has brought: the answer (its thinking taken out), how much the model thought,
 * how it finished, and the usage the server reported. */
class Received {
  text = '';
  private thoughtChars = 0;
  private inTok = 0;
  private outTok = 0;
  private finish: string | undefined;
  private readonly split = new ThinkSplitter();

  constructor(private readonly o: AttemptOptions) {}

  chunk(chunk: OpenAI.Chat.ChatCompletionChunk): void {
    const choice = chunk.choices?.[0];
    const delta = (choice?.delta ?? {}) as ReasoningDelta;
    // DeepSeek, vLLM and LM Studio send `reasoning_content`; Ollama and OpenRouter `reasoning`.
    this.thought(delta.reasoning_content ?? delta.reasoning ?? '', 'reasoning-field');
    if (delta.content) {
      const part = this.split.push(delta.content);
      this.thought(part.thinking, 'think-tag');
      this.answer(part.answer);
    }
    if (choice?.finish_reason) this.finish = choice.finish_reason;
    if (chunk.usage) {
      this.inTok = chunk.usage.prompt_tokens ?? 0;
      this.outTok = chunk.usage.completion_tokens ?? 0;
    }
  }

  /** The stream has ended: the answer the splitter held back. */
  flush(): void {
    this.answer(this.split.flush());
  }

  /** A stream that ended without finishing its answer: cut off, or at the output limit. */
  unfinished(): LlmError | undefined {
    const { stage } = this.o.req;
    if (!this.finish) return new LlmError({ code: 'server', message: "The model's answer was cut off (the stream ended early).", stage });
    if (this.finish !== 'length') return undefined;
    const spent = this.thoughtChars && !this.text.trim() ? ' while still thinking' : '';
    return new AttemptError({ code: 'output-limit', message: `The answer reached the output limit${spent} (finish_reason "length").`, stage });
  }

  /** The attempt's usage; servers that do not report it get an estimate. */
  usage(ms: number, ok: boolean): CallUsage {
    const { req } = this.o;
    const inputTokens = this.inTok || estimateTokens(req.messages.map((m) => m.content).join(''));
    const outputTokens = this.outTok || estimateTokens(this.text) + Math.ceil(this.thoughtChars / 4);
    return { stage: req.stage, inputTokens, outputTokens, ms, ok };
  }

  private answer(d: string): void {
    if (!d) return;
    this.text += d;
    this.o.onAnswer?.(d);
  }

  private thought(d: string, kind: 'think-tag' | 'reasoning-field'): void {
    if (!d) return;
    if (!this.thoughtChars) this.o.onThinkingKind?.(kind);
    this.thoughtChars += d.length;
    this.o.req.onThinking?.(this.thoughtChars);
  }
}

/** A 400/422/501 with the server's words, which can teach what the model accepts. */
function refusalOf(err: unknown): ApiRefusal | undefined {
  if (!isApiError(err) || ![400, 422, 501].includes(err.status ?? 0)) return undefined;
  const e = err.error as { message?: unknown; param?: unknown } | string | undefined;
  if (typeof e === 'string') return { message: e };
  return { message: typeof e?.message === 'string' ? e.message : err.message, param: typeof e?.param === 'string' ? e.param : undefined };
}
