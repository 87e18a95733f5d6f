/** The one LLM client's contract. Implemented over the openai SDK in ./client.ts. */

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
}

export interface JsonRequest<T> extends ChatRequest {
  /** Sent as response_format.json_schema.name; also names the stage for servers and logs. */
  schemaName: string;
  schema: JsonSchema;
  /** Checks and narrows the parsed value; throws on a shape mismatch (triggers one repair retry). */
  parse: (value: unknown) => T;
}

export interface StageUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

export interface Usage extends StageUsage {
  byStage: Record<string, StageUsage>;
}

export interface LlmClient {
  chat(req: ChatRequest): Promise<string>;
  json<T>(req: JsonRequest<T>): Promise<T>;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** Running totals for this client instance. */
  readonly usage: Usage;
}

export function emptyUsage(): Usage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, byStage: {} };
}
