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
import type { SearchProviderId } from '../../lib/settings/search-providers.ts';
import { fixtureCorpus, type SearchDoc } from './fixture-corpus.ts';
import { clientGone, headerString, listen, parseJson, readBody, sendJson, sleep, waitForClientGone } from './http-util.ts';
import { FAKE_SEARCH, FAKE_SEARCH_IDS } from './search/registry.ts';

export type SearchProvider = SearchProviderId;
export const SEARCH_PROVIDERS: readonly SearchProvider[] = FAKE_SEARCH_IDS;
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
  keys?: Partial<Record<SearchProvider, string>>;
}

export interface FakeSearch {
  origin: string;
  port: number;
  /** Base URLs to put in Ratify's search settings. `wikipediaLang` contains "{lang}". */
  urls: Record<SearchProvider, string> & { wikipediaLang: string };
  /** The key each keyed fake expects. */
  keys: Record<string, string>;
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

/** The key each keyed fake expects unless told otherwise. */
export const DEFAULT_KEYS: Partial<Record<SearchProvider, string>> = Object.fromEntries(SEARCH_PROVIDERS.flatMap((p) => (FAKE_SEARCH[p].defaultKey ? [[p, FAKE_SEARCH[p].defaultKey]] : [])));

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
  const keys: Record<string, string> = { ...DEFAULT_KEYS, ...opts.keys };
  const requests: SearchRequest[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/([a-z]+)(\/.*)?$/.exec(url.pathname);
    const provider = m?.[1] as SearchProvider | undefined;
    if (!m || !provider || !(provider in FAKE_SEARCH)) return sendJson(res, 404, { error: 'unknown provider path', path: url.pathname });
    const path = m[2] ?? '/';
    const text = await readBody(req);
    const body = (headerString(req, 'content-type') ?? '').includes('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(text)) : parseJson(text);
    const startedAt = Date.now();
    requests.push({ provider, method: req.method ?? 'GET', path, query: Object.fromEntries(url.searchParams), headers: req.headers, body, time: startedAt });

    const fake = FAKE_SEARCH[provider];
    const k = knobs[provider];
    const signal = clientGone(res);
    if (!(await sleep(k.latencyMs, signal))) return;
    if (k.fault && k.faultTimes > 0) {
      k.faultTimes--;
      if (k.fault.kind === 'hang') return waitForClientGone(signal);
      const f = k.fault;
      return fake.fault(res, f.status, f.status === 429 || f.retryAfter !== undefined ? { 'retry-after': String(f.retryAfter ?? 1) } : {});
    }
    const handled = await fake.handle({ req, res, url, path, body, docs: corpus, key: keys[provider] ?? '', startedAt, searxngJson: searxngJsonEnabled });
    if (!handled) sendJson(res, 404, { error: 'Not Found', provider, path });
  }

  const server = await listen(handle, opts.port);
  const base = server.origin;
  const each = (p: SearchProvider | 'all'): SearchProvider[] => (p === 'all' ? [...SEARCH_PROVIDERS] : [p]);
  return {
    origin: base,
    port: server.port,
    urls: { ...(Object.fromEntries(SEARCH_PROVIDERS.map((p) => [p, `${base}/${p}`])) as Record<SearchProvider, string>), wikipediaLang: `${base}/wikipedia/{lang}` },
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
    close: () => server.close(),
  };
}
