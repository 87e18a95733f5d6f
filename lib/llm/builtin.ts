/** The browser's own on-device model (Chrome's Prompt API, `LanguageModel`), behind the same
 * LlmClient contract as the OpenAI-compatible client: streamed, with partial JSON, the same
 * repair round (./json-call.ts), prompts fitted to its small context window, and the languages
 * it is to expect declared. Used when the user picks it, and by default while no endpoint is
 * configured and the browser has a model ready. */
import { LlmError } from './errors';
import { api, builtinAvailable, BUILTIN_MODEL_ID, measureUsage, type LanguageModelSession, type LanguageModelStatic, type LanguageOptions } from './builtin-availability';
import { languageName, scriptLanguage } from './builtin-language';
import { estimateTokens, shrinkPrompt } from './fit';
import { jsonWithRepair, type PartialSink } from './json-call';
import { addUsage, emptyUsage, type Usage } from '../core/usage';
import type { ChatMessage, ChatRequest, JsonRequest, LlmClient } from './types';
import { isLlmConfigured, type Settings } from '../settings/schema';

export { BUILTIN_MODEL_ID, builtinAvailable, builtinStatus } from './builtin-availability';

/** Settings with the built-in model filled in when nothing else is configured and it is ready. */
export async function withBuiltinDefault(s: Settings): Promise<Settings> {
  if (isLlmConfigured(s) || !(await builtinAvailable())) return s;
  return { ...s, llm: { ...s.llm, preset: 'builtin', model: BUILTIN_MODEL_ID } };
}

/** Tokens kept free for the answer when fitting a prompt (the session holds both). */
const OUTPUT_RESERVE = 512;

const cancelled = (stage: string) => new LlmError({ code: 'cancelled', message: 'Cancelled.', stage });

export function createBuiltinClient(): LlmClient {
  const usage: Usage = emptyUsage();
  const languageOk = new Map<string, boolean>();

  async function run(req: ChatRequest, constraint: Record<string, unknown> | undefined, sink: PartialSink | undefined): Promise<string> {
    const lm = api();
    if (!lm) throw new LlmError({ code: 'not-configured', message: 'This browser has no built-in model. Choose a provider in Settings.', stage: req.stage });
    if (req.signal?.aborted) throw cancelled(req.stage);
    const started = Date.now();
    const got = { text: '', sent: req.messages };
    let session: LanguageModelSession | undefined;
    try {
      await modelReady(lm, req.stage);
      const langs = await languages(lm, languageOk, req.messages, req.stage);
      // The Prompt API takes earlier turns as the session's initial prompts and the last user
      // message as the prompt itself.
      const fit = await fitted(lm, req, langs);
      session = fit.session;
      got.sent = fit.messages;
      sink?.reset();
      await streamInto(got, session.promptStreaming(got.sent.at(-1)?.content ?? '', { signal: req.signal, responseConstraint: constraint }), sink ? sink.delta : req.onDelta);
      if (req.signal?.aborted) throw cancelled(req.stage);
      return got.text;
    } catch (err) {
      throw builtinFailure(err, req);
    } finally {
      session?.destroy();
      const input = estimateTokens(got.sent.map((m) => m.content).join('\n'));
      addUsage(usage, { stage: req.stage, inputTokens: input, outputTokens: estimateTokens(got.text) });
      req.onUsage?.({ stage: req.stage, inputTokens: input, outputTokens: estimateTokens(got.text), ms: Date.now() - started, ok: got.text.length > 0 });
    }
  }

  return {
    usage,
    endpoint: 'chrome-built-in',
    // One on-device session at a time: parallel prompts would only queue.
    serial: true,
    chat: (req) => run(req, undefined, undefined),
    json<T>(req: JsonRequest<T>): Promise<T> {
      return jsonWithRepair(req, (messages, sink) => run({ ...req, messages, onDelta: undefined }, req.schema, sink), "The built-in model's");
    },
    embed: () => Promise.reject(new LlmError({ code: 'not-configured', message: 'The built-in model has no embeddings; dense ranking is off.', stage: 'embed' })),
  };
}

/** The model is on this device and ready (not still to download). */
async function modelReady(lm: LanguageModelStatic, stage: string): Promise<void> {
  const state = await lm.availability();
  if (state === 'downloadable' || state === 'downloading') {
    throw new LlmError({ code: 'not-configured', message: `Chrome's built-in model is ${state === 'downloading' ? 'still downloading' : 'not downloaded yet'}: use "Download Chrome's built-in model" in Settings (or the welcome card), then ask again.`, stage });
  }
  if (state === 'unavailable') throw new LlmError({ code: 'not-configured', message: "Chrome's built-in model is not available on this device. Choose a provider in Settings.", stage });
}

/** The language options for this prompt, after checking the model handles that language (`known`:
 * what was found for each language before). */
async function languages(lm: LanguageModelStatic, known: Map<string, boolean>, messages: ChatMessage[], stage: string): Promise<LanguageOptions> {
  const lang = scriptLanguage(messages.filter((m) => m.role !== 'system').map((m) => m.content).join('\n'));
  const opts: LanguageOptions = { expectedInputs: [{ type: 'text', languages: [...new Set(['en', lang])] }], expectedOutputs: [{ type: 'text', languages: [lang] }] };
  let ok = known.get(lang);
  if (ok === undefined) {
    ok = (await lm.availability(opts).catch(() => 'unavailable')) !== 'unavailable';
    known.set(lang, ok);
  }
  if (!ok) throw new LlmError({ code: 'unsupported-language', message: `Chrome's built-in model does not handle ${languageName(lang)} (${lang}). Ask in a language it supports, or choose another model in Settings.`, stage });
  return opts;
}

/** A session holding the earlier turns, with room for the last one and the answer; the prompt is
 * cut (fewer passages, shorter quotes) until it fits, or the call fails saying so. */
async function fitted(lm: LanguageModelStatic, req: ChatRequest, langs: LanguageOptions): Promise<{ session: LanguageModelSession; messages: ChatMessage[] }> {
  let messages = req.messages;
  for (let cut = 0; ; cut++) {
    const session = await sessionThatFits(lm, req, langs, messages);
    if (session) return { session, messages };
    const smaller = cut < 3 ? shrinkPrompt(messages) : undefined;
    if (!smaller) throw new LlmError({ code: 'context-length', message: "The request is larger than the built-in model's context window, even with fewer, shorter passages. Choose fewer tabs or turn web search off for this question, or use a model with a larger context window.", stage: req.stage });
    messages = smaller;
  }
}

/** A session for `messages`, if they and the answer fit its window. */
async function sessionThatFits(lm: LanguageModelStatic, req: ChatRequest, langs: LanguageOptions, messages: ChatMessage[]): Promise<LanguageModelSession | undefined> {
  const last = messages.at(-1)?.content ?? '';
  let session: LanguageModelSession | undefined;
  let fits = true;
  try {
    session = await lm.create({ ...langs, initialPrompts: messages.slice(0, -1), signal: req.signal });
    const window = session.contextWindow ?? session.inputQuota;
    if (window !== undefined && Number.isFinite(window)) {
      const used = session.contextUsage ?? session.inputUsage ?? 0;
      const needs = (await measureUsage(session, last)) ?? estimateTokens(last);
      fits = used + needs + Math.min(OUTPUT_RESERVE, req.maxTokens ?? OUTPUT_RESERVE) <= window;
    }
  } catch (err) {
    // Initial prompts over the window: the browser refuses the session (QuotaExceededError).
    if (!(err instanceof DOMException && err.name === 'QuotaExceededError')) throw err;
    fits = false;
  }
  if (fits && session) return session;
  session?.destroy();
  return undefined;
}

/** Reads the answer's chunks into `got.text`, handing each on. */
async function streamInto(got: { text: string }, stream: ReadableStream<string>, onDelta: ((d: string) => void) | undefined): Promise<void> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    got.text += value;
    onDelta?.(value);
  }
}

/** What the user is told for a failed prompt: cancelled, over the window, or the model's own words. */
function builtinFailure(err: unknown, req: ChatRequest): LlmError {
  if (err instanceof LlmError) return err;
  if (req.signal?.aborted || (err instanceof DOMException && err.name === 'AbortError')) return cancelled(req.stage);
  if (err instanceof DOMException && err.name === 'QuotaExceededError') {
    return new LlmError({ code: 'context-length', message: "The answer did not fit the built-in model's context window.", stage: req.stage });
  }
  return new LlmError({ code: 'server', message: `The built-in model failed: ${err instanceof Error ? err.message : String(err)}`, stage: req.stage });
}
