/** The one LLM client's contract. Implemented over the openai SDK in ./client.ts. */
import type { Usage } from '../core/usage';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A JSON Schema object (the subset OpenAI's structured outputs accept). */
export type JsonSchema = Record<string, unknown>;

export interface ChatRequest {
  /** Pipeline stage, for usage accounting and traces: 'gate', 'draft', 'revise', 'compose', … */
  stage: string;
  messages: ChatMessage[];
  signal?: AbortSignal;
  /** Called with each streamed text delta. */
  onDelta?: (delta: string) => void;
  maxTokens?: number;
  temperature?: number;
  /** Per-call time-out in ms (whole call, including the stream); defaults to the client's. */
  timeoutMs?: number;
  /** Called once per HTTP attempt with that attempt's token counts (for per-run accounting). */
  onUsage?: (u: CallUsage) => void;
  /** Called while the model thinks (a `<think>` block or reasoning deltas, never the answer),
   * with the length of the thought so far in characters. */
  onThinking?: (chars: number) => void;
}

export interface CallUsage {
  stage: string;
  inputTokens: number;
  outputTokens: number;
  /** Wall time of the attempt in ms. */
  ms: number;
  /** False when the attempt failed (it still cost a call). */
  ok: boolean;
}

export interface JsonRequest<T> extends ChatRequest {
  /** Sent as response_format.json_schema.name; also names the stage for servers and logs. */
  schemaName: string;
  schema: JsonSchema;
  /** Checks and narrows the parsed value; throws on a shape mismatch (triggers one repair retry). */
  parse: (value: unknown) => T;
  /** Called with the best-effort parse of the JSON streamed so far (see ./partial-json.ts), so
   * readable fields can be shown while the object is still arriving. */
  onPartial?: (partial: unknown) => void;
  /** The stage's value from a reply that is prose, not JSON (a final answer written as plain
   * text); undefined where prose is of no use. Tried before the repair round is sent. */
  fromText?: (text: string) => T | undefined;
}

export interface LlmClient {
  chat(req: ChatRequest): Promise<string>;
  json<T>(req: JsonRequest<T>): Promise<T>;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** Running totals for this client instance. */
  readonly usage: Usage;
  /** The endpoint and model it talks to (what the pipeline learns about a server is kept by it). */
  readonly endpoint?: string;
  /** Answers one request at a time (an on-device model): parallel requests would only queue. */
  readonly serial?: boolean;
  /** Whether this endpoint was seen answering requests side by side (kept with what else is
   * learnt about it, across runs and worker restarts); undefined while not known. */
  servesParallel?(): boolean | undefined;
  /** Remembers what a run saw: two replies streaming at once (true), or a request beside another
   * queued or refused (false). */
  learnParallel?(parallel: boolean): void;
}
