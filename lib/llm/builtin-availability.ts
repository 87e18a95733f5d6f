/** Whether the browser offers its own on-device model (Chrome's Prompt API). Kept apart from the
 * client so pages that only need to know (panel, options) don't bundle the OpenAI SDK. */
import type { Settings } from '../settings/schema';
import { isLlmConfigured } from '../settings/schema';
import type { ChatMessage } from './types';

type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

interface PromptOptions {
  signal?: AbortSignal;
  responseConstraint?: Record<string, unknown>;
}

export interface LanguageModelSession {
  prompt(input: string, opts?: PromptOptions): Promise<string>;
  promptStreaming(input: string, opts?: PromptOptions): ReadableStream<string>;
  destroy(): void;
}

interface LanguageModelStatic {
  availability(opts?: Record<string, unknown>): Promise<Availability>;
  create(opts?: { initialPrompts?: ChatMessage[]; signal?: AbortSignal }): Promise<LanguageModelSession>;
}

export function api(): LanguageModelStatic | undefined {
  return (globalThis as { LanguageModel?: LanguageModelStatic }).LanguageModel;
}

export const BUILTIN_MODEL_ID = 'chrome-built-in';

/** Whether the on-device model can answer now (not merely downloadable). */
export async function builtinAvailable(): Promise<boolean> {
  try {
    return (await api()?.availability()) === 'available';
  } catch {
    return false;
  }
}

/** Settings with the built-in model filled in when nothing else is configured and it is ready. */
export async function withBuiltinDefault(s: Settings): Promise<Settings> {
  if (isLlmConfigured(s) || !(await builtinAvailable())) return s;
  return { ...s, llm: { ...s.llm, preset: 'builtin', model: BUILTIN_MODEL_ID } };
}

