/** Whether the browser offers its own on-device model (Chrome's Prompt API). Kept apart from the
 * client so pages that only need to know (panel, options) don't bundle the OpenAI SDK. */
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

/** The session's own count of the tokens `input` would take (the method's name changed in Chrome
 * 142); undefined when it cannot count. */
export async function measureUsage(s: LanguageModelSession, input: string, opts?: PromptOptions): Promise<number | undefined> {
  if (s.measureContextUsage) return s.measureContextUsage(input, opts);
  if (s.measureInputUsage) return s.measureInputUsage(input, opts);
  return undefined;
}

export interface LanguageModelStatic {
  availability(opts?: LanguageOptions): Promise<Availability>;
  create(opts?: LanguageOptions & { initialPrompts?: ChatMessage[]; signal?: AbortSignal; monitor?: (m: DownloadMonitor) => void }): Promise<LanguageModelSession>;
}

/** This context's own Prompt API, if it has one. */
export function nativeLanguageModel(): LanguageModelStatic | undefined {
  return (globalThis as { LanguageModel?: LanguageModelStatic }).LanguageModel;
}

let elsewhere: LanguageModelStatic | undefined;

/** Where this context lacks the Prompt API (Chrome's MV3 worker), the browser layer supplies one
 * that runs in another context (the offscreen document, lib/browser/offscreen-language-model.ts). */
export function setRemoteLanguageModel(lm: LanguageModelStatic | undefined): void {
  elsewhere = lm;
}

export function api(): LanguageModelStatic | undefined {
  return nativeLanguageModel() ?? elsewhere;
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
