import OpenAI from 'openai';
import type { LlmSettings } from '../settings/schema';
import { classifyLlmError, LlmError } from './errors';
import { emptyUsage, type ChatRequest, type JsonRequest, type LlmClient, type Usage } from './types';

export interface LlmClientOptions {
  /** Abort a stream that sends nothing for this long (the SDK's time-out does not cover it). */
  idleMs?: number;
  maxRetries?: number;
  fetch?: typeof fetch;
}

/** The one LLM client: every model call in Ratify goes through here. */
export function createLlmClient(settings: LlmSettings, opts: LlmClientOptions = {}): LlmClient {
  const sdk = new OpenAI({
    baseURL: settings.baseURL,
    // Local servers (Ollama, LM Studio) take no key, but the SDK insists on one.
    apiKey: settings.apiKey || 'no-key',
    timeout: settings.timeoutMs,
    maxRetries: opts.maxRetries ?? 2,
    // The key lives in the user's own extension storage and goes only to this base URL.
    dangerouslyAllowBrowser: true,
    fetch: opts.fetch,
  });
  const idleMs = opts.idleMs ?? Math.min(settings.timeoutMs, 30_000);
  const usage: Usage = emptyUsage();

  function record(stage: string, input: number, output: number) {
    usage.calls += 1;
    usage.inputTokens += input;
    usage.outputTokens += output;
    const s = (usage.byStage[stage] ??= { calls: 0, inputTokens: 0, outputTokens: 0 });
    s.calls += 1;
    s.inputTokens += input;
    s.outputTokens += output;
  }

  async function streamOnce(req: ChatRequest, responseFormat?: OpenAI.Chat.ChatCompletionCreateParams['response_format']): Promise<string> {
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    if (req.signal?.aborted) ctrl.abort();
    let idle: ReturnType<typeof setTimeout> | undefined;
    let stalled = false;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        stalled = true;
        ctrl.abort();
      }, idleMs);
    };
    let text = '';
    let inTok = 0;
    let outTok = 0;
    try {
      arm();
      const stream = await sdk.chat.completions.create(
        {
          model: settings.model,
          messages: req.messages,
          stream: true,
          stream_options: { include_usage: true },
          ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
          ...(responseFormat ? { response_format: responseFormat } : {}),
        },
        { signal: ctrl.signal },
      );
      let finished = false;
      for await (const chunk of stream) {
        arm();
        const delta = chunk.choices[0]?.delta?.content ?? '';
        if (delta) {
          text += delta;
          req.onDelta?.(delta);
        }
        if (chunk.choices[0]?.finish_reason) finished = true;
        if (chunk.usage) {
          inTok = chunk.usage.prompt_tokens;
          outTok = chunk.usage.completion_tokens;
        }
      }
      // An aborted stream ends silently in the SDK: tell the three endings apart ourselves.
      if (stalled) throw new LlmError({ code: 'timeout', message: `The model stopped sending for ${Math.round(idleMs / 1000)} s.`, stage: req.stage });
      if (req.signal?.aborted) throw new LlmError({ code: 'cancelled', message: 'Cancelled.', stage: req.stage });
      if (!finished) throw new LlmError({ code: 'server', message: 'The model\'s answer was cut off (the stream ended early).', stage: req.stage });
      return text;
    } catch (err) {
      if (stalled) throw new LlmError({ code: 'timeout', message: `The model stopped sending for ${Math.round(idleMs / 1000)} s.`, stage: req.stage });
      if (err instanceof LlmError) throw err;
      throw new LlmError(classifyLlmError(err, settings.baseURL, req.stage));
    } finally {
      clearTimeout(idle);
      req.signal?.removeEventListener('abort', onAbort);
      // Servers that do not report usage get an estimate (4 characters a token).
      if (!inTok) inTok = Math.ceil(req.messages.reduce((n, m) => n + m.content.length, 0) / 4);
      if (!outTok) outTok = Math.ceil(text.length / 4);
      record(req.stage, inTok, outTok);
    }
  }

  return {
    usage,
    chat: (req) => streamOnce(req),
    async json<T>(req: JsonRequest<T>): Promise<T> {
      const format = { type: 'json_schema' as const, json_schema: { name: req.schemaName, schema: req.schema, strict: true } };
      const first = await streamOnce(req, format);
      try {
        return req.parse(parseJsonLoose(first));
      } catch (err) {
        // One repair round: show the model its output and the problem.
        const problem = err instanceof Error ? err.message : String(err);
        const repaired = await streamOnce(
          {
            ...req,
            stage: req.stage,
            onDelta: undefined,
            messages: [
              ...req.messages,
              { role: 'assistant', content: first },
              { role: 'user', content: `That was not valid JSON for the schema (${problem}). Reply with only the corrected JSON object.` },
            ],
          },
          format,
        );
        try {
          return req.parse(parseJsonLoose(repaired));
        } catch (err2) {
          throw new LlmError({ code: 'bad-output', message: `The model's answer could not be read as ${req.schemaName} JSON: ${err2 instanceof Error ? err2.message : String(err2)}`, stage: req.stage });
        }
      }
    },
    async embed(texts, signal) {
      try {
        const res = await sdk.embeddings.create({ model: settings.embeddingModel, input: texts }, { signal });
        record('embed', res.usage?.prompt_tokens ?? 0, 0);
        return res.data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
      } catch (err) {
        throw new LlmError(classifyLlmError(err, settings.baseURL, 'embed'));
      }
    },
  };
}

/** Parse JSON that may be wrapped in a code fence or surrounded by prose. */
export function parseJsonLoose(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
    if (fenced) {
      try {
        return JSON.parse(fenced[1]);
      } catch {
        /* fall through */
      }
    }
    const start = trimmed.search(/[[{]/);
    const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
    if (start >= 0 && end > start) return JSON.parse(trimmed.slice(start, end + 1));
    throw new SyntaxError('no JSON object found');
  }
}

/** List model ids at the endpoint (options page and Test connection). */
export async function listModels(settings: LlmSettings, signal?: AbortSignal): Promise<string[]> {
  const sdk = new OpenAI({ baseURL: settings.baseURL, apiKey: settings.apiKey || 'no-key', timeout: 10_000, maxRetries: 0, dangerouslyAllowBrowser: true });
  try {
    const ids: string[] = [];
    for await (const m of sdk.models.list({ signal })) ids.push(m.id);
    return ids.sort();
  } catch (err) {
    throw new LlmError(classifyLlmError(err, settings.baseURL, 'models'));
  }
}
