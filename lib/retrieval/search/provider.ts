/** One interface for every web search provider. A provider only searches; fetching and reading
 * result pages is shared (lib/retrieval/web.ts). Errors carry the provider's own message. */
import { apiFetch, RedirectRefused } from '../../net/api-fetch';
import type { ReadablePage } from '../page';

export interface SearchHit {
  url: string;
  title: string;
  /** Plain-text snippet (tags stripped); the fallback when the page cannot be fetched. */
  snippet: string;
  /** The page's readable text when the API already gives it (Wikipedia extracts, Tavily raw
   * content): no page fetch needed. */
  page?: ReadablePage;
}

export interface SearchContext {
  signal: AbortSignal;
  /** Results wanted. */
  limit: number;
  fetch: typeof fetch;
}

export interface SearchProvider {
  readonly name: string;
  search(query: string, ctx: SearchContext): Promise<SearchHit[]>;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Joins a base URL (which may have a path, e.g. http://host/searxng) and an API path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

/** The first of `values` that is a string or a number, as text ('' when none is). */
function firstText(...values: unknown[]): string {
  const v = values.find((x) => typeof x === 'string' || typeof x === 'number');
  return v === undefined ? '' : String(v);
}

/** A short reason from an error body in any of the providers' formats. */
function errorDetail(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const e = j.error as Record<string, unknown> | string | undefined;
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object') return firstText(e.detail, e.info, e.message, e.code);
    const d = j.detail as Record<string, unknown> | string | undefined;
    if (typeof d === 'string') return d;
    if (d && typeof d === 'object') return firstText(d.error, d.message);
    return firstText(j.message);
  } catch {
    // HTML or plain-text error pages: the title or first words say enough.
    const t = /<title>([^<]*)<\/title>/i.exec(body)?.[1] ?? body.replace(/<[^>]*>/g, ' ');
    return t.replace(/\s+/g, ' ').trim().slice(0, 120);
  }
}

/** Fetches JSON; any non-2xx or non-JSON answer becomes a ProviderError with the status. */
export async function fetchJson(fetchFn: typeof fetch, url: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    // A redirect to another origin would carry the key and the query there: refused.
    res = await apiFetch(fetchFn)(url, { credentials: 'omit', ...init });
  } catch (e) {
    if (init.signal?.aborted) throw init.signal.reason instanceof Error ? init.signal.reason : new Error('aborted');
    if (e instanceof RedirectRefused) throw new ProviderError(e.message);
    throw new ProviderError(`network error: ${e instanceof Error ? e.message : String(e)}`);
  }
  const text = await res.text();
  if (!res.ok) {
    const detail = errorDetail(text);
    const retry = res.headers.get('retry-after');
    throw new ProviderError(`HTTP ${res.status}${detail ? `: ${detail}` : ''}${retry ? ` (retry after ${retry} s)` : ''}`, res.status);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError(`not JSON (${errorDetail(text) || 'empty answer'})`, res.status);
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Only http(s) result URLs are fetched or shown. */
export function httpUrl(u: string): string | undefined {
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
