import OpenAI from 'openai';
import type { RunError } from '../pipeline/types';
import { RedirectRefused } from '../net/api-fetch';

/** Map anything the SDK (or fetch) throws to a RunError with a code the UI can explain. */
/** `preset` lets a 403 from a server the user set up as Ollama be explained as Ollama's origin check. */
export function classifyLlmError(err: unknown, baseURL: string, stage?: string, preset?: string): RunError {
  if (err instanceof LlmError) return err.info;
  if (err && typeof err === 'object' && 'code' in err && typeof (err as RunError).code === 'string' && 'message' in err && isRunErrorCode((err as RunError).code)) {
    return err as RunError;
  }
  if (err instanceof OpenAI.APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    return { code: 'cancelled', message: 'Cancelled.', stage };
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return { code: 'timeout', message: `The model server at ${hostOf(baseURL)} did not answer in time.`, stage };
  }
  // A redirect Ratify refused to follow (lib/net/api-fetch.ts): say where it pointed.
  if (err instanceof OpenAI.APIConnectionError && err.cause instanceof RedirectRefused) {
    return { code: 'unreachable', ...(err.cause.status ? { status: err.cause.status } : {}), message: err.cause.message, stage };
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return { code: 'unreachable', message: `Could not reach the model server at ${hostOf(baseURL)}.`, stage };
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status;
    const detail = apiMessage(err);
    if (status === 401) return { code: 'auth', status, message: `The server rejected the API key (401). ${detail}`.trim(), stage };
    if (status === 403) {
      if (preset === 'ollama' || looksLikeOllama(baseURL)) {
        return { code: 'ollama-origin', status, message: 'Ollama refused the request from the extension (403): it only accepts origins listed in OLLAMA_ORIGINS.', stage };
      }
      return { code: 'forbidden', status, message: `The server refused the request (403). ${detail}`.trim(), stage };
    }
    if (status === 404) return { code: 'model-not-found', status, message: `Not found (404): check the base URL and the model name. ${detail}`.trim(), stage };
    if (status === 429) {
      const retryAfter = retryAfterSeconds(err.headers);
      return { code: 'rate-limit', status, retryAfter, message: `Rate limited by the server (429). ${detail}`.trim(), stage };
    }
    if (status === 408) return { code: 'timeout', status, message: 'The server timed out (408).', stage };
    if (status !== undefined && status >= 500) return { code: 'server', status, message: `The model server failed (${status}). ${detail}`.trim(), stage };
    return { code: 'unknown', status, message: `${err.message}`, stage };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'unknown', message, stage };
}

const CODES = new Set<string>(['not-configured', 'auth', 'forbidden', 'ollama-origin', 'unreachable', 'rate-limit', 'timeout', 'server', 'model-not-found', 'bad-output', 'empty-input', 'too-long', 'cancelled', 'interrupted', 'unknown']);
function isRunErrorCode(c: string): boolean {
  return CODES.has(c);
}

export function looksLikeOllama(baseURL: string): boolean {
  try {
    const u = new URL(baseURL);
    return u.port === '11434' || /ollama/i.test(u.hostname);
  } catch {
    return false;
  }
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL || '(no URL)';
  }
}

function apiMessage(err: InstanceType<typeof OpenAI.APIError>): string {
  const e = err.error as { message?: unknown } | undefined;
  return typeof e?.message === 'string' ? e.message : '';
}

function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const v = headers?.get?.('retry-after');
  if (!v) return undefined;
  const n = Number(v);
  if (Number.isFinite(n)) return n;
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, Math.round((t - Date.now()) / 1000)) : undefined;
}

/** Thrown by the client itself (e.g. a watchdog) with a RunError attached. */
export class LlmError extends Error {
  constructor(public readonly info: RunError) {
    super(info.message);
    this.name = 'LlmError';
  }
}
