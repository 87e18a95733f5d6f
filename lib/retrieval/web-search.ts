/** The web part of the library: search providers and the result pages they point to.
 *
 * What reaches the network here is decided by the queries alone (`WebQuery`, written only from
 * network-safe text: lib/pipeline/flow.ts) and by the user's settings: every hit of every query
 * is fetched (or taken from the web cache), whether or not the same address is open in a tab or
 * is the page being checked, so neither the tabs nor the page decide what is requested. Those
 * rules apply at ranking time instead (the library keeps the tab's copy and leaves the checked
 * page out of its own evidence). */
import type { PageCache } from './page-cache';
import type { ReadablePage } from './page';
import { cutNote } from './pdf';
import { queryAlternatives } from './queries';
import type { SearchHit, SearchProvider } from './search';
import { ProviderError as SearchProviderError } from './search/provider';
import { mapLimit, withTimeout } from './tabs';
import { isExcludedHost, NO_SITE_ACCESS } from './read-policy';
import { documentKey } from '../core/url';
import { squash } from '../core/text';
import type { WebQuery } from '../core/flow';
import type { ProviderError, SourceStatus } from '../core/passage';
import type { WebSearchResult } from './types';
import type { PageReader } from './page';
import { fetchReadable } from './web';

/** Web pages are cached apart from tabs: a tab's text (what the user sees, logged in) must never
 * stand in for a public result page, nor its presence spare a request the web would notice. */
export const WEB_CACHE_PREFIX = 'web:';

export interface WebSearchOptions {
  providers: SearchProvider[];
  search: { timeoutMs: number; pagesPerQuery: number };
  excludedDomains: string[];
  privateNetwork?: boolean;
  reader?: PageReader;
  fetch: typeof fetch;
  cache?: PageCache;
  now: () => number;
  /** A fetched result page is reused from the cache for this long. */
  cacheTtlMs: number;
  /** Without site access result pages cannot be fetched: their snippets stand in. */
  hostAccess?: boolean;
  /** Each page read, as it joins the library. */
  onPage(page: ReadablePage, status: SourceStatus): void;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 200);

/** Search APIs take short queries; a long query is cut at a word boundary. */
export function searchQuery(q: string, max = 300): string {
  const s = squash(q);
  if (s.length <= max) return s;
  const cut = s.lastIndexOf(' ', max);
  return s.slice(0, cut > max / 2 ? cut : max);
}

/** A result represented by its search snippet (short, but from the result the provider chose). */
function snippetPage(hit: SearchHit): ReadablePage {
  return { url: hit.url, hash: `snippet:${hit.snippet?.length ?? 0}`, title: hit.title, text: hit.snippet ?? '', headings: [] };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

export class WebSearch {
  /** Each query alternative searched once, whoever asks (steps, claims, the gate's plan). */
  private readonly searched = new Map<string, Promise<WebSearchResult>>();
  private readonly fetched = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly o: WebSearchOptions) {}

  get enabled(): boolean {
    return this.o.providers.length > 0;
  }

  /** Searches not finished yet: a retrieval waits for them, so what they find can rank. */
  settled(): Promise<void> {
    return Promise.allSettled([...this.inFlight]).then(() => undefined);
  }

  /** Search every alternative of every query; each new one once. What it returns is newly looked
   * at (a query searched before returns nothing new). */
  async search(queries: WebQuery[], signal?: AbortSignal): Promise<WebSearchResult> {
    const out: WebSearchResult = { sources: [], errors: [] };
    if (!this.enabled) return out;
    const fresh: Promise<WebSearchResult>[] = [];
    for (const q of queries) {
      for (const alt of queryAlternatives(q).length ? queryAlternatives(q) : [q]) {
        const key = searchQuery(alt);
        if (!key || this.searched.has(key)) continue;
        const p = this.searchOne(key, signal);
        this.searched.set(key, p);
        // A failed or cancelled search can be tried again by the next request.
        p.catch(() => this.searched.delete(key));
        this.track(p);
        fresh.push(p);
      }
    }
    for (const r of await Promise.all(fresh)) {
      out.sources.push(...r.sources);
      out.errors.push(...r.errors);
    }
    return out;
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    const done = () => this.inFlight.delete(p);
    p.then(done, done);
  }

  private async searchOne(query: string, signal: AbortSignal | undefined): Promise<WebSearchResult> {
    const results = await Promise.all(this.o.providers.map((p) => this.hitsOf(p, query, signal)));
    const out: WebSearchResult = { sources: [], errors: [] };
    const todo: { hit: SearchHit; provider: string }[] = [];
    results.forEach((r, i) => {
      if (r.error) out.errors.push(r.error);
      const provider = this.o.providers[i]?.name ?? '';
      for (const hit of r.hits) {
        const key = documentKey(hit.url);
        if (this.fetched.has(key)) continue;
        this.fetched.add(key);
        const host = hostOf(hit.url);
        if (host && isExcludedHost(host, this.o.excludedDomains)) out.sources.push({ url: hit.url, title: hit.title, origin: 'web', provider, status: 'skipped', reason: 'excluded domain' });
        else todo.push({ hit, provider });
      }
    });
    const read = await mapLimit(todo, 4, ({ hit, provider }) => this.readHit(hit, provider, signal));
    for (const { page, status } of read) {
      out.sources.push(status);
      if (page) this.o.onPage({ ...page, url: status.url }, status);
    }
    return out;
  }

  /** One provider's hits, with its failure (if any) as a provider error. */
  private async hitsOf(p: SearchProvider, query: string, signal: AbortSignal | undefined): Promise<{ hits: SearchHit[]; error?: ProviderError }> {
    try {
      const hits = await withTimeout(this.o.search.timeoutMs, signal, (s) => p.search(query, { signal: s, limit: Math.max(1, this.o.search.pagesPerQuery), fetch: this.o.fetch }));
      return { hits };
    } catch (e) {
      if (signal?.aborted) throw e;
      const status = e instanceof SearchProviderError ? e.status : undefined;
      // Without site access only servers that answer extensions (CORS) can be reached; a
      // self-hosted SearXNG or a keyed API may not, and the user should know why it failed.
      const why = this.o.hostAccess === false && status === undefined ? `; ${NO_SITE_ACCESS} (the server may not accept extension requests without it)` : '';
      return { hits: [], error: { provider: p.name, message: `${errorText(e)}${why}`, ...(status !== undefined ? { status } : {}) } };
    }
  }

  private async readHit(hit: SearchHit, provider: string, signal: AbortSignal | undefined): Promise<{ page?: ReadablePage; status: SourceStatus }> {
    const o = this.o;
    const base = { url: hit.url, title: hit.title, origin: 'web' as const, provider };
    if (hit.page?.text.trim()) return { page: hit.page, status: { ...base, status: 'read' } };
    const key = `${WEB_CACHE_PREFIX}${hit.url}`;
    const cached = await o.cache?.get(key);
    const cut = (page: ReadablePage) => (cutNote(page) ? { reason: cutNote(page) } : {});
    if (cached && o.now() - cached.storedAt < o.cacheTtlMs) {
      return { page: { ...cached, url: hit.url }, status: { ...base, status: 'cached', ...cut(cached) } };
    }
    // Without site access the browser refuses the fetch (no CORS on ordinary pages): the snippet
    // stands in, and the trace says why the page itself was not read.
    if (o.hostAccess === false) {
      if (!hit.snippet) return { status: { ...base, status: 'skipped', reason: NO_SITE_ACCESS } };
      return { page: snippetPage(hit), status: { ...base, status: 'skipped', reason: `${NO_SITE_ACCESS}; used the search snippet` } };
    }
    try {
      const page = await withTimeout(o.search.timeoutMs, signal, (s) =>
        fetchReadable(hit.url, {
          fetch: o.fetch,
          reader: o.reader,
          signal: s,
          privateNetwork: o.privateNetwork,
          // Excluded domains hold on every redirect hop, not only for the result's own URL.
          refuse: (u) => (isExcludedHost(u.hostname, o.excludedDomains) ? 'excluded domain' : undefined),
        }),
      );
      if (!page.text.trim()) throw new Error('no readable text');
      if (!page.title || page.title === page.url) page.title = hit.title;
      await o.cache?.put({ ...page, url: key, storedAt: o.now() });
      return { page: { ...page, url: hit.url }, status: { ...base, status: 'read', ...cut(page) } };
    } catch (e) {
      if (signal?.aborted) throw e;
      // The snippet is still evidence (short, but from the result the provider chose).
      if (hit.snippet) return { page: snippetPage(hit), status: { ...base, status: 'failed', reason: `${errorText(e)}; used the search snippet` } };
      return { status: { ...base, status: 'failed', reason: errorText(e) } };
    }
  }
}
