/** Whether the browser offers its own on-device model (Chrome's Prompt API). Kept apart from the
 * client so pages that only need to know (panel, options) don't bundle the OpenAI SDK. */
import type { Settings } from '../settings/schema';
import { isLlmConfigured } from '../settings/schema';
import type { ChatMessage } from './types';

export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

interface PromptOptions {
  signal?: AbortSignal;
  responseConstraint?: Record<string, unknown>;
}

/** What the session is told to expect: text, in these BCP 47 languages. */
export interface LanguageOptions {
  expectedInputs?: { type: 'text'; languages: string[] }[];
  expectedOutputs?: { type: 'text'; languages: string[] }[];
}

export interface DownloadMonitor {
  addEventListener(type: 'downloadprogress', f: (e: { loaded: number }) => void): void;
}

export interface LanguageModelSession {
  prompt(input: string, opts?: PromptOptions): Promise<string>;
  promptStreaming(input: string, opts?: PromptOptions): ReadableStream<string>;
  /** Tokens the session can hold (current name; `inputQuota` before Chrome 142). */
  readonly contextWindow?: number;
  readonly inputQuota?: number;
  /** Tokens already used by the initial prompts (`inputUsage` before). */
  readonly contextUsage?: number;
  readonly inputUsage?: number;
  measureContextUsage?(input: string, opts?: PromptOptions): Promise<number>;
  measureInputUsage?(input: string, opts?: PromptOptions): Promise<number>;
  destroy(): void;
}

export interface LanguageModelStatic {
  availability(opts?: LanguageOptions): Promise<Availability>;
  create(opts?: LanguageOptions & { initialPrompts?: ChatMessage[]; signal?: AbortSignal; monitor?: (m: DownloadMonitor) => void }): Promise<LanguageModelSession>;
}

export function api(): LanguageModelStatic | undefined {
  return (globalThis as { LanguageModel?: LanguageModelStatic }).LanguageModel;
}

export const BUILTIN_MODEL_ID = 'chrome-built-in';

/** Whether the on-device model can answer now (not merely downloadable). */
export async function builtinAvailable(): Promise<boolean> {
  return (await builtinStatus()) === 'available';
}

/** The browser's own answer, 'unavailable' when it has no Prompt API or cannot say. */
export async function builtinStatus(): Promise<Availability> {
  try {
    return (await api()?.availability()) ?? 'unavailable';
  } catch {
    return 'unavailable'; // an API that cannot even say whether it is there is as good as absent
  }
}

/** Settings with the built-in model filled in when nothing else is configured and it is ready. */
export async function withBuiltinDefault(s: Settings): Promise<Settings> {
  if (isLlmConfigured(s) || !(await builtinAvailable())) return s;
  return { ...s, llm: { ...s.llm, preset: 'builtin', model: BUILTIN_MODEL_ID } };
}
