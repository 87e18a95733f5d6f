/** A stand-in for Chrome's Prompt API (`globalThis.LanguageModel`), shaped like the current
 * spec: availability() and create() with expected input/output languages (the model handles
 * English, Spanish and Japanese; other languages are 'unavailable' and refused with
 * NotSupportedError), a download with `monitor` downloadprogress events (only with a user
 * gesture, as Chrome requires), a session with `contextWindow`, `contextUsage` and
 * `measureContextUsage()` (tokens ≈ 4 characters), initial prompts over the window refused with
 * QuotaExceededError, and promptStreaming() that streams the scripted answer in small pieces. */
import type { ChatMessageIn } from './fake-llm.ts';

export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export interface PromptSeen {
  initialPrompts: ChatMessageIn[];
  prompt: string;
  constraint?: Record<string, unknown>;
  languages: { inputs?: string[]; outputs?: string[] };
}

export interface FakeLanguageModelOptions {
  availability?: Availability;
  /** Tokens a session holds (Gemini Nano's is a few thousand). */
  contextWindow?: number;
  languages?: string[];
  /** The answer to one prompt. */
  answer: (p: PromptSeen) => string;
}

export interface FakeLanguageModel {
  prompts: PromptSeen[];
  downloads: number[][];
  /** Simulates the click the browser requires before it downloads. */
  userGesture(): void;
  availability: Availability;
  uninstall(): void;
}

const tokens = (text: string) => Math.ceil(text.length / 4);

type LangOpts = { expectedInputs?: { languages?: string[] }[]; expectedOutputs?: { languages?: string[] }[] };

export function installFakeLanguageModel(o: FakeLanguageModelOptions): FakeLanguageModel {
  const supported = new Set(o.languages ?? ['en', 'es', 'ja']);
  const window = o.contextWindow ?? 6144;
  let gesture = false;
  const fake: FakeLanguageModel = {
    prompts: [],
    downloads: [],
    availability: o.availability ?? 'available',
    userGesture: () => {
      gesture = true;
    },
    uninstall: () => {
      delete (globalThis as Record<string, unknown>).LanguageModel;
    },
  };
  const langsOf = (opts: LangOpts = {}) => ({ inputs: opts.expectedInputs?.flatMap((e) => e.languages ?? []), outputs: opts.expectedOutputs?.flatMap((e) => e.languages ?? []) });
  const unsupported = (opts: LangOpts = {}) => {
    const l = langsOf(opts);
    return [...(l.inputs ?? []), ...(l.outputs ?? [])].some((x) => !supported.has(x.split('-')[0]!));
  };

  (globalThis as Record<string, unknown>).LanguageModel = {
    availability(opts?: LangOpts): Promise<Availability> {
      return Promise.resolve(unsupported(opts) ? 'unavailable' : fake.availability);
    },
    async create(opts: LangOpts & { initialPrompts?: ChatMessageIn[]; signal?: AbortSignal; monitor?: (m: { addEventListener(t: string, f: (e: { loaded: number }) => void): void }) => void } = {}) {
      if (fake.availability === 'unavailable') throw new DOMException('The device is not eligible for running on-device model.', 'NotSupportedError');
      if (unsupported(opts)) throw new DOMException('The requested language options are not supported.', 'NotSupportedError');
      if (fake.availability !== 'available') {
        if (!gesture) throw new DOMException('Requires a user gesture when availability is "downloading" or "downloadable".', 'NotAllowedError');
        const listeners: ((e: { loaded: number }) => void)[] = [];
        opts.monitor?.({ addEventListener: (_t, f) => listeners.push(f) });
        const seen: number[] = [];
        for (const loaded of [0, 0.3, 0.75, 1]) {
          await new Promise((r) => setTimeout(r, 5));
          seen.push(loaded);
          listeners.forEach((f) => f({ loaded }));
        }
        fake.downloads.push(seen);
        fake.availability = 'available';
      }
      const initialPrompts = opts.initialPrompts ?? [];
      const used = tokens(initialPrompts.map((m) => m.content).join('\n'));
      if (used > window) throw new DOMException('The initial prompts are too large to fit in the context window.', 'QuotaExceededError');
      const languages = langsOf(opts);
      return {
        contextWindow: window,
        contextUsage: used,
        measureContextUsage(input: string) {
          return Promise.resolve(tokens(input));
        },
        prompt() {
          return Promise.reject(new Error('not used by Ratify'));
        },
        promptStreaming(prompt: string, popts: { signal?: AbortSignal; responseConstraint?: Record<string, unknown> } = {}) {
          const seen: PromptSeen = { initialPrompts, prompt, constraint: popts.responseConstraint, languages };
          fake.prompts.push(seen);
          const over = used + tokens(prompt) > window;
          const pieces = over ? [] : (o.answer(seen).match(/[\s\S]{1,6}/g) ?? []);
          return new ReadableStream<string>({
            async pull(c) {
              if (over) return c.error(new DOMException('The input is too large.', 'QuotaExceededError'));
              if (popts.signal?.aborted) return c.error(new DOMException('aborted', 'AbortError'));
              await new Promise((r) => setTimeout(r, 1));
              const next = pieces.shift();
              if (next === undefined) c.close();
              else c.enqueue(next);
            },
          });
        },
        destroy() {},
      };
    },
  };
  return fake;
}
