/** The library the pipeline retrieves from: the user's open tabs plus web search, cut into
 * passages, ranked, de-duplicated. Every dependency is passed in, so the same code runs in the
 * extension's worker, in Node tests and in the benchmark. */
import type { PipelineSettings, PrivacySettings, SearchSettings } from '../settings/schema';
import type { PageCache } from './page-cache';
import { dedupe } from './dedupe';
import { spreadPages } from './diversify';
import { DenseIndex, passageEmbedText, type EmbedFn, type EmbeddingStore } from './dense';
import type { PageReader, ReadablePage } from './page';
import { chunkPage } from './passages';
import { catalogueEntry, queryAlternatives } from './queries';
import { chunkPdf, cutNote } from './pdf';
import { analyzeDoc, fuseByRank, PassageIndex, type AnalyzedDoc, type RankWeights } from './rank';
import { fuseByScore, type Scored } from './fusion';
import { providersFromSettings, type SearchHit, type SearchProvider } from './search';
import { ProviderError as SearchProviderError } from './search/provider';
import { isExcludedHost, mapLimit, NO_SITE_ACCESS, readTabs, withTimeout, type TabInfo, type TabsAdapter } from './tabs';
import { documentUrl } from '../core/url';
import { squash } from '../core/text';
import type { CatalogueEntry, Origin, Passage, ProviderError, SourceStatus } from '../core/passage';
import type { Library, RetrieveRequest, RetrieveResult } from './types';
import { fetchReadable } from './web';

export type { EmbedFn } from './dense';

/** Dense ranking over the whole library up to this many passages; beyond, over the lexical
 * candidates of each query only. */
const MAX_DENSE_PASSAGES = 2000;

/** Tuned on the development set's tuning part (bench/retrieval/devset). */
const PAGE_SPREAD = 1;
/** Share of the dense score in the per-query fusion (fusion.ts fuseByScore). */
const DENSE_WEIGHT = 0.35;
/** Passages of the dense ranking fused per query: its floor is the cosine of the last. */
const DENSE_DEPTH = 50;

export interface LibraryOptions {
  search: SearchSettings;
  privacy: PrivacySettings;
  pipeline: Pick<PipelineSettings, 'passageChars' | 'passagesPerStep'>;
  /** Open tabs; without it the library is web search only. */
  tabs?: TabsAdapter;
  /** The tabs the user chose for this question: given tabs, or one window's; default: the
   * privacy setting's scope (this window or all windows). */
  tabChoice?: { tabIds?: number[]; windowId?: number };
  /** Default: the providers enabled in `search`. Pass [] for tabs only. */
  providers?: SearchProvider[];
  /** Turns fetched result pages into text (offscreen document, DOMParser or linkedom). Without
   * it, results that come without text (SearXNG, Brave) are represented by their snippets. */
  reader?: PageReader;
  fetch?: typeof fetch;
  cache?: PageCache;
  /** Dense ranking (the LLM client's embed with `embeddingModel`); fused with the lexical ranking
   * by rank. Without it ranking is lexical. */
  embed?: EmbedFn;
  /** The embeddings model `embed` uses (part of every cached vector's key), or how to find it at
   * the endpoint (undefined: none there, so ranking stays lexical without a note). */
  embeddingModel?: string | (() => Promise<string | undefined>);
  /** Where vectors persist between runs (IndexedDB in the extension). */
  embeddingStore?: EmbeddingStore;
  /** How long a retrieval waits for embeddings before it ranks lexically (default 10 s). */
  denseTimeoutMs?: number;
  now?: () => number;
  /** Verify mode: the page the selection came from is not evidence for itself. */
  origin?: { tabId?: number; url?: string };
  /** Whether the user granted access to sites. Without it open tabs are not read and result pages
   * are not fetched (their snippets stand in); each says so in the trace. Search APIs and the
   * model endpoint are still called: they answer extensions themselves (CORS). Default: granted. */
  hostAccess?: boolean;
  allowFiles?: boolean;
  tabTimeoutMs?: number;
  tabConcurrency?: number;
  /** A fetched result page is reused from the cache for this long (default one day). */
  webCacheTtlMs?: number;
  weights?: Partial<RankWeights>;
  /** Share of the dense score against the lexical one in the fusion (default DENSE_WEIGHT). */
  denseWeight?: number;
  /** Overlap of consecutive passages, as a share of passageChars (passages.ts; default 0). */
  passageOverlap?: number;
  /** Places a passage moves down per better passage of its own page (diversify.ts spreadPages). */
  pageSpread?: number;
}

export interface RatifyLibrary extends Library {
  prepare(signal?: AbortSignal): Promise<SourceStatus[]>;
  /** Passages indexed so far (tabs and fetched pages). */
  readonly size: number;
}

/** Analyses by page version and passage size, shared by every library in this process, so a new
 * run over the same tabs skips cutting and tokenizing. */
const analyses = new Map<string, AnalyzedDoc>();
const MAX_ANALYSES = 400;

function analysisFor(page: ReadablePage, chars: number, origin: Origin, extra: { tabId?: number; provider?: string; overlap?: number }, fields: Pick<RankWeights, 'title' | 'heading'>): AnalyzedDoc {
  const key = `${origin}\n${extra.tabId ?? ''}\n${extra.provider ?? ''}\n${chars}/${extra.overlap ?? ''}\n${fields.title}/${fields.heading}\n${page.url}\n${page.hash}\n${page.title}`;
  let a = analyses.get(key);
  if (a) {
    analyses.delete(key); // re-insert: most recently used last
  } else {
    const passages = (page.pdf ? chunkPdf : chunkPage)(page, { targetChars: chars, origin, ...extra });
    a = analyzeDoc(page.url, page.title, passages, fields);
  }
  analyses.set(key, a);
  while (analyses.size > MAX_ANALYSES) analyses.delete(analyses.keys().next().value as string);
  return a;
}

/** Drops the shared analysis cache (tests and benchmarks measuring cold builds). */
export function clearAnalysisCache(): void {
  analyses.clear();
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 200);

/** A result represented by its search snippet (short, but from the result the provider chose). */
function snippetPage(hit: SearchHit): ReadablePage {
  return { url: hit.url, hash: `snippet:${hit.snippet?.length ?? 0}`, title: hit.title, text: hit.snippet ?? '', headings: [] };
}

/** Search APIs take short queries; a long RAT step is cut at a word boundary. */
export function searchQuery(q: string, max = 300): string {
  const s = squash(q);
  if (s.length <= max) return s;
  const cut = s.lastIndexOf(' ', max);
  return s.slice(0, cut > max / 2 ? cut : max);
}

export function createLibrary(opts: LibraryOptions): RatifyLibrary {
  const now = opts.now ?? Date.now;
  const fetchFn = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const providers = opts.providers ?? providersFromSettings(opts.search);
  const index = new PassageIndex(opts.weights);
  const chars = opts.pipeline.passageChars;
  const originUrl = opts.origin?.url ? documentUrl(opts.origin.url) : undefined;
  const dense = opts.embed ? new DenseIndex({ embed: opts.embed, model: opts.embeddingModel ?? 'embeddings', store: opts.embeddingStore }) : undefined;
  let denseNoted = false;
  const catalogue: CatalogueEntry[] = [];
  let prepared: Promise<SourceStatus[]> | undefined;
  let preparedByCaller = false;
  let tabStatusesReported = false;
  const tabUrls = new Set<string>();

  async function readOpenTabs(signal?: AbortSignal): Promise<SourceStatus[]> {
    const adapter = opts.tabs;
    if (!adapter) return [];
    let tabs: TabInfo[];
    const choice = opts.tabChoice;
    try {
      tabs = await adapter.list(choice ? 'all' : opts.privacy.tabScope);
      if (choice?.tabIds) {
        const ids = new Set(choice.tabIds);
        tabs = tabs.filter((t) => ids.has(t.id));
      } else if (choice?.windowId !== undefined) tabs = tabs.filter((t) => t.windowId === choice.windowId);
    } catch (e) {
      return [{ url: '', title: 'Open tabs', origin: 'tab', status: 'failed', reason: `could not list tabs: ${errorText(e)}` }];
    }
    const r = await readTabs(tabs, adapter, {
      excludedDomains: opts.privacy.excludedDomains,
      allowIncognito: opts.privacy.allowIncognito,
      privateNetwork: opts.privacy.privateNetwork,
      allowFiles: opts.allowFiles,
      extensionOrigin: adapter.extensionOrigin,
      originTabId: opts.origin?.tabId,
      originUrl: opts.origin?.url,
      hostAccess: opts.hostAccess,
    }, { cache: opts.cache, signal, now, timeoutMs: opts.tabTimeoutMs, concurrency: opts.tabConcurrency });
    for (const { tab, page } of r.pages) {
      tabUrls.add(documentUrl(page.url));
      index.add(analysisFor(page, chars, 'tab', { tabId: tab.id, overlap: opts.passageOverlap }, index.weights));
      catalogue.push(catalogueEntry({ url: tab.url || page.url, title: page.title || tab.title, lang: page.lang }, 'tab'));
    }
    // The tabs' passages are embedded while the model drafts (errors surface at retrieval).
    if (dense && index.size <= MAX_DENSE_PASSAGES) void dense.ensure(index.allPassages().map(passageEmbedText), signal).catch(() => undefined);
    return r.statuses;
  }

  function prepare(signal?: AbortSignal, internal = false): Promise<SourceStatus[]> {
    if (!internal) preparedByCaller = true;
    // A failed or cancelled read can be retried by the next call.
    prepared ??= readOpenTabs(signal).catch((e) => {
      prepared = undefined;
      throw e;
    });
    return prepared;
  }

  /** One provider's hits, with its failure (if any) as a provider error. */
  async function searchOne(p: SearchProvider, query: string, signal: AbortSignal | undefined): Promise<{ hits: SearchHit[]; error?: ProviderError }> {
    try {
      const hits = await withTimeout(opts.search.timeoutMs, signal, (s) => p.search(query, { signal: s, limit: Math.max(1, opts.search.pagesPerQuery), fetch: fetchFn }));
      return { hits };
    } catch (e) {
      if (signal?.aborted) throw e;
      const status = e instanceof SearchProviderError ? e.status : undefined;
      // Without site access only servers that answer extensions (CORS) can be reached; a
      // self-hosted SearXNG or a keyed API may not, and the user should know why it failed.
      const why = opts.hostAccess === false && status === undefined ? `; ${NO_SITE_ACCESS} (the server may not accept extension requests without it)` : '';
      return { hits: [], error: { provider: p.name, message: `${errorText(e)}${why}`, ...(status !== undefined ? { status } : {}) } };
    }
  }

  async function readHit(hit: SearchHit, provider: string, signal: AbortSignal | undefined): Promise<{ page?: ReadablePage; status: SourceStatus }> {
    const base = { url: hit.url, title: hit.title, origin: 'web' as const, provider };
    if (hit.page?.text.trim()) return { page: hit.page, status: { ...base, status: 'read' } };
    const cached = await opts.cache?.get(hit.url);
    const cut = (page: ReadablePage) => (cutNote(page) ? { reason: cutNote(page) } : {});
    if (cached && now() - cached.storedAt < (opts.webCacheTtlMs ?? 86_400_000)) {
      return { page: cached, status: { ...base, status: 'cached', ...cut(cached) } };
    }
    // Without site access the browser refuses the fetch (no CORS on ordinary pages): the snippet
    // stands in, and the trace says why the page itself was not read.
    if (opts.hostAccess === false) {
      if (!hit.snippet) return { status: { ...base, status: 'skipped', reason: NO_SITE_ACCESS } };
      return { page: snippetPage(hit), status: { ...base, status: 'skipped', reason: `${NO_SITE_ACCESS}; used the search snippet` } };
    }
    try {
      const page = await withTimeout(opts.search.timeoutMs, signal, (s) =>
        fetchReadable(hit.url, {
          fetch: fetchFn,
          reader: opts.reader,
          signal: s,
          privateNetwork: opts.privacy.privateNetwork,
          // Excluded domains hold on every redirect hop, not only for the result's own URL.
          refuse: (u) => (isExcludedHost(u.hostname, opts.privacy.excludedDomains) ? 'excluded domain' : undefined),
        }),
      );
      if (!page.text.trim()) throw new Error('no readable text');
      if (!page.title || page.title === page.url) page.title = hit.title;
      await opts.cache?.put({ ...page, url: hit.url, storedAt: now() });
      return { page: { ...page, url: hit.url }, status: { ...base, status: 'read', ...cut(page) } };
    } catch (e) {
      if (signal?.aborted) throw e;
      // The snippet is still evidence (short, but from the result the provider chose).
      if (hit.snippet) return { page: snippetPage(hit), status: { ...base, status: 'failed', reason: `${errorText(e)}; used the search snippet` } };
      return { status: { ...base, status: 'failed', reason: errorText(e) } };
    }
  }

  async function searchWeb(query: string, signal: AbortSignal | undefined): Promise<{ sources: SourceStatus[]; errors: ProviderError[] }> {
    const sources: SourceStatus[] = [];
    const errors: ProviderError[] = [];
    if (!providers.length || !query.trim()) return { sources, errors };
    const q = searchQuery(query);
    const results = await Promise.all(providers.map((p) => searchOne(p, q, signal)));
    const todo: { hit: SearchHit; provider: string }[] = [];
    const seen = new Set<string>();
    results.forEach((r, i) => {
      if (r.error) errors.push(r.error);
      for (const hit of r.hits) {
        const key = documentUrl(hit.url);
        if (seen.has(key)) continue;
        seen.add(key);
        // Already in the library as an open tab: that copy is what the user sees.
        if (tabUrls.has(key)) continue;
        const provider = providers[i].name;
        const host = (() => {
          try {
            return new URL(hit.url).hostname;
          } catch {
            return '';
          }
        })();
        if (originUrl && key === originUrl) {
          sources.push({ url: hit.url, title: hit.title, origin: 'web', provider, status: 'skipped', reason: 'selection source' });
        } else if (host && isExcludedHost(host, opts.privacy.excludedDomains)) {
          sources.push({ url: hit.url, title: hit.title, origin: 'web', provider, status: 'skipped', reason: 'excluded domain' });
        } else todo.push({ hit, provider });
      }
    });
    const read = await mapLimit(todo, 4, ({ hit, provider }) => readHit(hit, provider, signal));
    for (const { page, status } of read) {
      sources.push(status);
      if (page) index.add(analysisFor({ ...page, url: status.url }, chars, 'web', { provider: status.provider, overlap: opts.passageOverlap }, index.weights));
    }
    return { sources, errors };
  }

  /** One dense ranking per query alternative, or none (with a note in the trace) when the
   * embeddings endpoint fails or is slow: ranking is then lexical. */
  async function denseLists(alts: string[], lexical: Scored<Passage>[][], keep: (p: Passage) => boolean, signal: AbortSignal | undefined, errors: ProviderError[]): Promise<Scored<Passage>[][]> {
    if (!dense || !(await dense.model())) return [];
    const pool = (index.size <= MAX_DENSE_PASSAGES ? index.allPassages() : [...new Map(lexical.flat().map((x) => [x.passage.id, x.passage])).values()]).filter(keep);
    try {
      await withTimeout(opts.denseTimeoutMs ?? 10_000, signal, () => dense.ensure([...alts, ...pool.map(passageEmbedText)], signal));
      return alts.map((q) => {
        const qv = dense.vector(q);
        return qv ? dense.rank(qv, pool, DENSE_DEPTH) : [];
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      if (!denseNoted) errors.push({ provider: 'embeddings', message: `${errorText(e)}; ranked by words only` });
      denseNoted = true;
      return [];
    }
  }

  return {
    get size() {
      return index.size;
    },
    prepare: (signal?: AbortSignal) => prepare(signal),
    async catalogue(signal?: AbortSignal): Promise<CatalogueEntry[]> {
      if (opts.tabs) await prepare(signal, true).catch(() => []); // a failed read is reported by retrieve
      return [...catalogue];
    },
    async retrieve(req: RetrieveRequest): Promise<RetrieveResult> {
      const sources: SourceStatus[] = [];
      const errors: ProviderError[] = [];
      const k = Math.max(1, req.k || opts.pipeline.passagesPerStep);
      // Tabs and the web in parallel; tab statuses go into the trace here only when nobody
      // called prepare() (which returns them itself).
      const alts = queryAlternatives(req.query);
      if (!alts.length) alts.push(req.query);
      const [tabStatuses, ...webs] = await Promise.all([
        opts.tabs ? prepare(req.signal, true).catch((e) => [{ url: '', title: 'Open tabs', origin: 'tab' as const, status: 'failed' as const, reason: errorText(e) }]) : Promise.resolve([]),
        // Web search gets the guarded query (lib/pipeline/query-guard.ts), alternative by alternative.
        ...(req.webQuery === undefined ? alts : queryAlternatives(req.webQuery).length ? queryAlternatives(req.webQuery) : [req.webQuery]).map((q) => searchWeb(q, req.signal)),
      ]);
      if (!preparedByCaller && !tabStatusesReported) sources.push(...tabStatuses);
      tabStatusesReported = true;
      for (const web of webs) {
        sources.push(...web.sources);
        errors.push(...web.errors);
      }
      if (req.signal?.aborted) throw req.signal.reason instanceof Error ? req.signal.reason : new Error('aborted');

      const seed = (req.round ?? 1) > 1 ? req.seed : undefined;
      const skip = new Set(req.seed?.map((p) => p.id) ?? []);
      const keep = (p: Passage) => !skip.has(p.id) && (!originUrl || documentUrl(p.url) !== originUrl);
      const lexical = alts.map((q) => index.search(q, { k: Math.max(50, k * 4), seed, exclude: skip.size ? skip : undefined }).filter((x) => keep(x.passage)));
      const denses = await denseLists(alts, lexical, keep, req.signal, errors);
      // Per query alternative, lexical and dense by normalised score; alternatives by rank.
      const lists = lexical.map((lex, i) => (denses[i] ? fuseByScore(lex, denses[i], (p) => p.id, opts.denseWeight ?? DENSE_WEIGHT) : lex.map((x) => x.passage)));
      const fused = lists.length > 1 ? fuseByRank(lists, (p) => p.id, 60) : (lists[0] ?? []);
      const ranked = spreadPages(fused, (p) => documentUrl(p.url), opts.pageSpread ?? PAGE_SPREAD);
      // Near-duplicates (the same article open in a tab and found on the web) keep the tab copy.
      const passages = dedupe(ranked, (p) => p.text, k, { prefer: (a, b) => a.origin === 'tab' && b.origin !== 'tab' });
      return { passages, sources, errors };
    },
  };
}
