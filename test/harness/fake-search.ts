/**
 * Local search endpoints in the real response formats of the providers Ratify supports, all on
 * one server under a path prefix per provider (so each has its own base URL and its own request
 * log):
 *
 *   wikipedia  {origin}/wikipedia          → {base}/w/api.php          (all languages)
 *              {origin}/wikipedia/{lang}   → {base}/w/api.php          (docs whose lang matches)
 *   searxng    {origin}/searxng            → {base}/search?q=…&format=json
 *   brave      {origin}/brave              → {base}/res/v1/web/search  (X-Subscription-Token)
 *   tavily     {origin}/tavily             → {base}/search             (POST, Bearer tvly-…)
 *
 * Results come from a corpus of documents (by default the fixture site's articles), matched
 * lexically, and link to pages that exist on the fixture site.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { fixtureCorpus, type SearchDoc } from './fixture-corpus.ts';
import { clientGone, headerString, listen, parseJson, readBody, sendJson, sleep, waitForClientGone } from './http-util.ts';
import { braveInvalidToken, braveMissingToken, braveSearch, braveStatusError } from './search/brave.ts';
import { searxngHtml, searxngJson } from './search/searxng.ts';
import { TAVILY_UNAUTHORIZED, tavilyError, tavilySearch } from './search/tavily.ts';
import { wikipediaApi, wikipediaErrorPage } from './search/wikipedia.ts';

export type SearchProvider = 'wikipedia' | 'searxng' | 'brave' | 'tavily';
export const SEARCH_PROVIDERS: readonly SearchProvider[] = ['wikipedia', 'searxng', 'brave', 'tavily'];

export type SearchFault =
  /** Answered in the provider's own error format; 429 carries retry-after. */
  | { kind: 'status'; status: 429 | 500 | 502 | 503; retryAfter?: number }
  /** No answer until the client gives up. */
  | { kind: 'hang' };

export interface SearchRequest {
  provider: SearchProvider;
  method: string;
  /** Path below the provider's base URL, e.g. /w/api.php */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  time: number;
}

export interface FakeSearchOptions {
  port?: number;
  /** Documents to search. Default: the fixture articles at `siteOrigin` (empty without it). */
  corpus?: SearchDoc[];
  siteOrigin?: string;
  keys?: { brave?: string; tavily?: string };
}

export interface FakeSearch {
  origin: string;
  port: number;
  /** Base URLs to put in Ratify's search settings. `wikipediaLang` contains "{lang}". */
  urls: Record<SearchProvider, string> & { wikipediaLang: string };
  keys: { brave: string; tavily: string };
  requests: SearchRequest[];
  requestsFor(provider: SearchProvider): SearchRequest[];
  setCorpus(docs: SearchDoc[]): void;
  /** Delay before every answer of that provider (or all). */
  setLatency(provider: SearchProvider | 'all', ms: number): void;
  /** Make the next `times` requests (default: all) of a provider fail; null clears. */
  setFault(provider: SearchProvider | 'all', fault: SearchFault | null, times?: number): void;
  /** SearXNG answers 403 to format=json when its settings do not enable the json format. */
  setSearxngJson(enabled: boolean): void;
  /** Clears the log, latencies and faults; restores the corpus and SearXNG json setting. */
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_KEYS = { brave: 'BSA-test-brave-key', tavily: 'tvly-test-key' };

interface Knobs {
  latencyMs: number;
  fault: SearchFault | null;
  faultTimes: number;
}

const freshKnobs = (): Record<SearchProvider, Knobs> =>
  Object.fromEntries(SEARCH_PROVIDERS.map((p) => [p, { latencyMs: 0, fault: null, faultTimes: Infinity }])) as Record<SearchProvider, Knobs>;

export async function startFakeSearch(opts: FakeSearchOptions = {}): Promise<FakeSearch> {
  const initialCorpus = opts.corpus ?? (opts.siteOrigin ? fixtureCorpus(opts.siteOrigin) : []);
  let corpus = initialCorpus;
  let knobs = freshKnobs();
  let searxngJsonEnabled = true;
  const keys = { ...DEFAULT_KEYS, ...opts.keys };
  const requests: SearchRequest[] = [];

  /** Sends the provider's own error body for a status fault. */
  function sendFault(provider: SearchProvider, res: ServerResponse, f: Extract<SearchFault, { kind: 'status' }>): void {
    const headers: Record<string, string> = f.status === 429 || f.retryAfter !== undefined ? { 'retry-after': String(f.retryAfter ?? 1) } : {};
    switch (provider) {
      case 'wikipedia': {
        const page = wikipediaErrorPage(f.status);
        res.writeHead(f.status, { 'content-type': page.type, ...headers });
        res.end(page.body);
        return;
      }
      case 'searxng':
        res.writeHead(f.status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
        res.end(f.status === 429 ? 'Too Many Requests' : 'Internal Server Error');
        return;
      case 'brave':
        return sendJson(res, f.status, braveStatusError(f.status), headers);
      case 'tavily':
        return sendJson(res, f.status, tavilyError(f.status === 429 ? 'Rate limit exceeded. Please upgrade your plan or try again later.' : 'Internal server error.'), headers);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/(wikipedia|searxng|brave|tavily)(\/.*)?$/.exec(url.pathname);
    if (!m) return sendJson(res, 404, { error: 'unknown provider path', path: url.pathname });
    const provider = m[1] as SearchProvider;
    let path = m[2] ?? '/';
    const text = await readBody(req);
    const body = (headerString(req, 'content-type') ?? '').includes('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(text)) : parseJson(text);
    requests.push({ provider, method: req.method ?? 'GET', path, query: Object.fromEntries(url.searchParams), headers: req.headers, body, time: Date.now() });

    // Wikipedia is per language: /wikipedia/zh/w/api.php searches the Chinese docs only.
    let docs = corpus;
    const lang = provider === 'wikipedia' ? /^\/([a-z]{2,3}(?:-[a-z]+)?)(\/w\/api\.php)$/i.exec(path) : null;
    if (lang) {
      path = lang[2];
      docs = corpus.filter((d) => (d.lang ?? 'en').toLowerCase().startsWith(lang[1].toLowerCase()));
    }

    const k = knobs[provider];
    const signal = clientGone(res);
    if (!(await sleep(k.latencyMs, signal))) return;
    if (k.fault && k.faultTimes > 0) {
      k.faultTimes--;
      if (k.fault.kind === 'hang') return waitForClientGone(signal);
      return sendFault(provider, res, k.fault);
    }

    switch (provider) {
      case 'wikipedia': {
        if (path !== '/w/api.php') break;
        const result = wikipediaApi(docs, url.searchParams);
        // MediaWiki sends CORS headers only for origin=* (anonymous) requests.
        const cors: Record<string, string> = url.searchParams.get('origin') === '*' ? { 'access-control-allow-origin': '*' } : {};
        if ('error' in result) cors['mediawiki-api-error'] = String((result.error as { code: string }).code);
        if (url.searchParams.get('format') !== 'json') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...cors });
          res.end(`<!DOCTYPE html><html><body><pre>${JSON.stringify(result, null, 4).replace(/</g, '&lt;')}</pre></body></html>`);
          return;
        }
        return sendJson(res, 200, result, cors);
      }
      case 'searxng': {
        if (path !== '/search') break;
        // SearXNG reads GET query parameters or a POSTed form.
        const params = new URLSearchParams(url.searchParams);
        if (body && typeof body === 'object') for (const [key, v] of Object.entries(body)) if (typeof v === 'string') params.set(key, v);
        const format = params.get('format');
        if (format === 'json') {
          if (!searxngJsonEnabled) {
            res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' });
            res.end('<!doctype html><html lang=en><title>403 Forbidden</title><h1>Forbidden</h1><p>You don\'t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>');
            return;
          }
          return sendJson(res, 200, searxngJson(docs, params));
        }
        if (format && format !== 'html') {
          res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('Bad Request');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(searxngHtml(docs, params));
        return;
      }
      case 'brave': {
        if (path !== '/res/v1/web/search' || req.method !== 'GET') break;
        const token = headerString(req, 'x-subscription-token');
        if (!token) return sendJson(res, 422, braveMissingToken());
        if (token !== keys.brave) return sendJson(res, 401, braveInvalidToken());
        const r = braveSearch(docs, url.searchParams);
        return sendJson(res, r.status, r.body, { 'x-ratelimit-limit': '1, 2000', 'x-ratelimit-remaining': '0, 1990', 'x-ratelimit-reset': '1, 1000000' });
      }
      case 'tavily': {
        if (path !== '/search') break;
        if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' });
        const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
        // Newer clients send the key as a bearer token; older ones put api_key in the body.
        const bearer = headerString(req, 'authorization')?.replace(/^Bearer\s+/i, '');
        const key = bearer || (typeof b.api_key === 'string' ? b.api_key : undefined);
        if (key !== keys.tavily) return sendJson(res, 401, tavilyError(TAVILY_UNAUTHORIZED));
        const started = requests[requests.length - 1].time;
        const r = tavilySearch(docs, b, started);
        return sendJson(res, r.status, r.body);
      }
    }
    return sendJson(res, 404, { error: 'Not Found', provider, path });
  }

  const server = await listen(handle, opts.port);
  const base = server.origin;
  const each = (p: SearchProvider | 'all'): SearchProvider[] => (p === 'all' ? [...SEARCH_PROVIDERS] : [p]);
  return {
    origin: base,
    port: server.port,
    urls: {
      wikipedia: `${base}/wikipedia`,
      wikipediaLang: `${base}/wikipedia/{lang}`,
      searxng: `${base}/searxng`,
      brave: `${base}/brave`,
      tavily: `${base}/tavily`,
    },
    keys,
    requests,
    requestsFor: (p) => requests.filter((r) => r.provider === p),
    setCorpus: (docs) => {
      corpus = docs;
    },
    setLatency: (p, ms) => each(p).forEach((x) => (knobs[x].latencyMs = ms)),
    setFault: (p, fault, times = Infinity) =>
      each(p).forEach((x) => {
        knobs[x].fault = fault;
        knobs[x].faultTimes = times;
      }),
    setSearxngJson: (enabled) => {
      searxngJsonEnabled = enabled;
    },
    reset: () => {
      requests.length = 0;
      knobs = freshKnobs();
      corpus = initialCorpus;
      searxngJsonEnabled = true;
    },
    close: server.close,
  };
}
