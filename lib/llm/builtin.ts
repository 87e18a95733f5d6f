/** The browser's own on-device model (Chrome's Prompt API, `LanguageModel`), behind the same
 * LlmClient contract as the OpenAI-compatible client. Used when the user picks it, and by
 * default while no endpoint is configured and the browser has a model ready. */
import { parseJsonLoose } from './json-text';
import { LlmError } from './errors';
import { api, type LanguageModelSession } from './builtin-availability';
import { addUsage, emptyUsage, type ChatRequest, type JsonRequest, type LlmClient, type Usage } from './types';

export { BUILTIN_MODEL_ID, builtinAvailable, withBuiltinDefault } from './builtin-availability';

const estimate = (text: string) => Math.ceil(text.length / 4);

export function createBuiltinClient(): LlmClient {
  const usage: Usage = emptyUsage();


  async function run(req: ChatRequest, constraint?: Record<string, unknown>): Promise<string> {
    const lm = api();
    if (!lm) throw new LlmError({ code: 'not-configured', message: 'This browser has no built-in model. Choose a provider in Settings.', stage: req.stage });
    if (req.signal?.aborted) throw new LlmError({ code: 'cancelled', message: 'Cancelled.', stage: req.stage });
    // The Prompt API takes earlier turns as the session's initial prompts and the last user
    // message as the prompt itself.
    const last = req.messages.at(-1);
    const history = req.messages.slice(0, -1);
    const started = Date.now();
    let text = '';
    let session: LanguageModelSession | undefined;
    try {
      session = await lm.create({ initialPrompts: history, signal: req.signal });
      const stream = session.promptStreaming(last?.content ?? '', { signal: req.signal, responseConstraint: constraint });
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += value;
        req.onDelta?.(value);
      }
      if (req.signal?.aborted) throw new LlmError({ code: 'cancelled', message: 'Cancelled.', stage: req.stage });
      return text;
    } catch (err) {
      if (err instanceof LlmError) throw err;
      if (req.signal?.aborted || (err instanceof DOMException && err.name === 'AbortError')) throw new LlmError({ code: 'cancelled', message: 'Cancelled.', stage: req.stage });
      throw new LlmError({ code: 'server', message: `The built-in model failed: ${err instanceof Error ? err.message : String(err)}`, stage: req.stage });
    } finally {
      session?.destroy();
      const input = estimate(req.messages.map((m) => m.content).join('\n'));
      addUsage(usage, { stage: req.stage, inputTokens: input, outputTokens: estimate(text) });
      req.onUsage?.({ stage: req.stage, inputTokens: input, outputTokens: estimate(text), ms: Date.now() - started, ok: text.length > 0 });
    }
  }

  return {
    usage,
    endpoint: 'chrome-built-in',
    // One on-device session at a time: parallel prompts would only queue.
    serial: true,
    chat: (req) => run(req),
    async json<T>(req: JsonRequest<T>): Promise<T> {
      const first = await run(req, req.schema);
      try {
        return req.parse(parseJsonLoose(first));
      } catch (err) {
        const problem = err instanceof Error ? err.message : String(err);
        const repaired = await run(
          {
            ...req,
            onDelta: undefined,
            messages: [...req.messages, { role: 'assistant', content: first.slice(0, 8000) }, { role: 'user', content: `That reply could not be used (${problem.slice(0, 300)}). Reply with only the corrected JSON object.` }],
          },
          req.schema,
        );
        try {
          return req.parse(parseJsonLoose(repaired));
        } catch (err2) {
          throw new LlmError({ code: 'bad-output', message: `The built-in model's answer could not be read as ${req.schemaName} JSON: ${err2 instanceof Error ? err2.message : String(err2)}`, stage: req.stage });
        }
      }
    },
    async embed() {
      throw new LlmError({ code: 'not-configured', message: 'The built-in model has no embeddings; dense ranking is off.', stage: 'embed' });
    },
  };
}
