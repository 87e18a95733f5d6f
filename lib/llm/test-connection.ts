import type { RunError } from '../core/run';
import type { LlmSettings } from '../settings/schema';
import { createLlmClient, listModels } from './client';
import { classifyLlmError, LlmError } from './errors';

/** What the options page's connection test found. */
export interface ConnectionReport {
  ok: boolean;
  /** Models the endpoint lists (may be empty for servers without /models). */
  models: string[];
  /** Whether the configured model is among them (undefined when the list is empty). */
  modelFound?: boolean;
  /** Milliseconds for the test chat call. */
  latencyMs?: number;
  error?: RunError;
}

/** "Test connection": list the endpoint's models, then make one tiny chat call with the chosen
 * model, so a wrong key, URL, model or CORS/origin refusal shows up here and not mid-run. */
export async function testConnection(llm: LlmSettings, signal?: AbortSignal): Promise<ConnectionReport> {
  let models: string[] = [];
  try {
    models = await listModels(llm, signal);
  } catch (err) {
    const e = err instanceof LlmError ? err.info : classifyLlmError(err, llm.baseURL, 'models', llm.preset);
    // Some OpenAI-compatible servers have no /models; only a 404 there is not fatal.
    if (e.code !== 'model-not-found') return { ok: false, models: [], error: e };
  }
  const modelFound = models.length ? models.includes(llm.model) : undefined;
  if (modelFound === false) {
    return { ok: false, models, modelFound, error: { code: 'model-not-found', message: `The server does not offer the model "${llm.model}".` } };
  }
  const client = createLlmClient({ ...llm, timeoutMs: Math.min(llm.timeoutMs, 30_000) }, { maxRetries: 0 });
  const t0 = Date.now();
  try {
    await client.chat({ stage: 'ping', messages: [{ role: 'user', content: 'Reply with the single word: ok' }], maxTokens: 5, signal });
    return { ok: true, models, modelFound, latencyMs: Date.now() - t0 };
  } catch (err) {
    return { ok: false, models, modelFound, error: err instanceof LlmError ? err.info : classifyLlmError(err, llm.baseURL, 'ping', llm.preset) };
  }
}
