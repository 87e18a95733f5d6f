import OpenAI from 'openai';
import type { RunError } from '../core/run';
import { NotAnApiError } from './transport';
import { RedirectRefused } from '../net/api-fetch';

/** How a connection that never got an answer is worded (./unreachable.ts tells its causes apart). */
export const NOT_REACHED = 'Could not reach the model server';

/** Map anything the SDK (or fetch) throws to a RunError with a code the UI can explain. */
/** `preset` lets a 403 from a server the user set up as Ollama be explained as Ollama's origin check. */
export function classifyLlmError(err: unknown, baseURL: string, stage?: string, preset?: string): RunError {
  if (err instanceof LlmError) return err.info;
  if (isRunError(err)) return err;
  const unanswered = transportError(err, baseURL, stage);
  if (unanswered) return unanswered;
  if (isApiError(err)) return httpError(err, baseURL, stage, preset);
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'unknown', message: plain(message), stage };
}

/** An error of the OpenAI SDK for an HTTP answer (its connection errors are subclasses). */
export type ApiError = InstanceType<typeof OpenAI.APIError>;
export function isApiError(err: unknown): err is ApiError {
  return err instanceof OpenAI.APIError;
}

function isRunError(err: unknown): err is RunError {
  return !!err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' && 'message' in err && isRunErrorCode(err.code);
}

/** A request that got no HTTP answer to tell: cancelled, timed out, redirected elsewhere, answered
 * by something that is not an API, cut off mid-answer, or never reached. (The SDK's connection
 * errors are API errors too: they are told apart here, first.) */
function transportError(err: unknown, baseURL: string, stage: string | undefined): RunError | undefined {
  if (err instanceof OpenAI.APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    return { code: 'cancelled', message: 'Cancelled.', stage };
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return { code: 'timeout', message: `The model server at ${hostOf(baseURL)} did not answer in time.`, stage };
  }
  // A redirect Ratify refused to follow (lib/net/api-fetch.ts): say where it pointed.
  if (err instanceof OpenAI.APIConnectionError && err.cause instanceof RedirectRefused) {
    return { code: 'redirected', ...(err.cause.status ? { status: err.cause.status } : {}), message: err.cause.message, stage };
  }
  if (causeOf(err, NotAnApiError)) return notAnApi(baseURL, stage);
  if (isConnectionReset(err)) {
    return { code: 'unreachable', message: `The connection to ${hostOf(baseURL)} was cut off mid-answer.`, stage };
  }
  if (err instanceof OpenAI.APIConnectionError) return notReached(baseURL, stage);
  return undefined;
}

interface HttpFailure {
  status: number;
  /** The server's own words (plain text). */
  detail: string;
  stage?: string;
  headers?: Headers;
  ollama: boolean;
}

/** What an HTTP status means to the user, by status. */
const STATUS_ERRORS = new Map<number, (f: HttpFailure) => RunError>([
  [401, ({ status, detail, stage }) => ({ code: 'auth', status, message: `The server rejected the API key (401). ${detail}`.trim(), stage })],
  [
    403,
    ({ status, detail, stage, ollama }) =>
      ollama
        ? { code: 'ollama-origin', status, message: 'Ollama refused the request from the extension (403): it only accepts origins listed in OLLAMA_ORIGINS.', stage }
        : { code: 'forbidden', status, message: `The server refused the request (403). ${detail}`.trim(), stage },
  ],
  [404, ({ status, detail, stage }) => ({ code: 'model-not-found', status, message: `Not found (404): check the base URL and the model name. ${detail}`.trim(), stage })],
  [429, ({ status, detail, stage, headers }) => ({ code: 'rate-limit', status, retryAfter: retryAfterSeconds(headers), message: `Rate limited by the server (429). ${detail}`.trim(), stage })],
  [408, ({ status, stage }) => ({ code: 'timeout', status, message: 'The server timed out (408).', stage })],
]);

/** An HTTP error answer: a prompt over the context window (however the server words it), then
 * what its status means. */
function httpError(err: ApiError, baseURL: string, stage: string | undefined, preset: string | undefined): RunError {
  const status = err.status;
  const detail = apiMessage(err);
  if (status === 413 || ((status === 400 || status === 422 || (status ?? 0) >= 500) && isContextLength(err, detail))) {
    return { code: 'context-length', status, message: `The request is larger than the model's context window${status === 413 ? ' (413)' : ''}. ${detail}`.trim(), stage };
  }
  const byStatus = status === undefined ? undefined : STATUS_ERRORS.get(status);
  if (byStatus) return byStatus({ status: status as number, detail, stage, headers: err.headers, ollama: preset === 'ollama' || looksLikeOllama(baseURL) });
  if (status !== undefined && status >= 500) return { code: 'server', status, message: `The model server failed (${status}). ${detail}`.trim(), stage };
  return { code: 'unknown', status, message: `The server refused the request (${status ?? 'no status'}). ${detail || plain(err.message)}`.trim(), stage };
}

/** No answer at all from the server (refused, unresolvable, or hidden by the browser). */
export function notReached(baseURL: string, stage?: string): RunError {
  return { code: 'unreachable', message: `${NOT_REACHED} at ${hostOf(baseURL)}.`, stage };
}

export function notAnApi(baseURL: string, stage?: string): RunError {
  return { code: 'not-an-api', message: `${hostOf(baseURL)}: this URL answers with a web page, not an OpenAI-compatible API. Check the base URL (it usually ends in /v1).`, stage };
}

/** The wording of OpenAI (`context_length_exceeded`), vLLM ("maximum context length"),
 * llama.cpp ("exceeds the available context size", `exceed_context_size_error`), Ollama and
 * LM Studio ("context length"). */
function isContextLength(err: ApiError, detail: string): boolean {
  const e = err.error;
  if (typeof e === 'object' && (('code' in e && e.code === 'context_length_exceeded') || ('type' in e && e.type === 'exceed_context_size_error'))) return true;
  return /maximum context length|context (?:length|window|size)|exceeds? the (?:available )?context|prompt is too long/i.test(`${detail} ${err.message}`);
}

/** A TCP reset mid-stream: undici says "terminated" (cause ECONNRESET / "other side closed"),
 * Chrome "network error" while reading a body. (A fetch that got no response at all rejects with
 * "Failed to fetch", "Load failed" or "NetworkError when attempting to fetch": not reached.) */
function isConnectionReset(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const msg = e instanceof Error ? e.message : '';
    const code = (e as { code?: unknown }).code;
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return true;
    if (e instanceof TypeError && /^(terminated|network error)/i.test(msg)) return true;
  }
  return false;
}

function causeOf<T>(err: unknown, type: new (...a: never[]) => T): T | undefined {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) if (e instanceof type) return e;
  return undefined;
}

/** Server text for a message: never markup (a proxy's error page), never a wall of text. */
export function plain(text: string): string {
  if (/<(?:!doctype|html|head|body|div|p|h1|title)\b/i.test(text)) {
    const title = /<title>([^<]{1,120})<\/title>/i.exec(text)?.[1]?.trim();
    return title ? `The server answered with a web page ("${title}").` : 'The server answered with a web page.';
  }
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

const CODES = new Set<string>(['not-configured', 'auth', 'forbidden', 'ollama-origin', 'ollama-down', 'no-cors', 'unreachable', 'redirected', 'rate-limit', 'timeout', 'server', 'model-not-found', 'bad-output', 'context-length', 'not-an-api', 'output-limit', 'unsupported-language', 'empty-input', 'too-long', 'cancelled', 'interrupted', 'unknown']);
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

function apiMessage(err: ApiError): string {
  const e = err.error as { message?: unknown } | string | undefined;
  if (typeof e === 'string') return plain(e);
  return typeof e?.message === 'string' ? plain(e.message) : '';
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
