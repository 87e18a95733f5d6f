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
import { queryAlternatives } from './queries';
import { chunkPdf } from './pdf';
import { analyzeDoc, fuseByRank, PassageIndex, type AnalyzedDoc, type RankWeights } from './rank';
import { fuseByScore, type Scored } from './fusion';
import { providersFromSettings, type SearchProvider } from './search';
import { withTimeout, type TabsAdapter } from './tabs';
import { documentKey } from '../core/url';
import type { Origin, Passage, ProviderError, SourceStatus } from '../core/passage';
import type { Library, RetrieveRequest, RetrieveResult } from './types';
import { TabReading, type ReadHint } from './tab-reading';
import type { SourceScope } from '../core/run';
import { readPolicy, type ReadPolicy } from './read-policy';
import { WebSearch } from './web-search';

export type { EmbedFn } from './dense';

/** How long a retrieval waits for tabs still being read before it ranks what has been read. */
const TAB_WAIT_MS = 1500;

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
  /** The sources the user chose for this question (read-policy.ts); default: the privacy
   * setting's tab scope, the page the user is on and the web. */
  scope?: SourceScope;
  /** Default: the providers enabled in `search` (none when the scope leaves the web out). */
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
  /** The page being checked (verify): never evidence for itself. */
  checked?: { tabId?: number; url?: string };
  /** Whether the user granted access to sites. Without it open tabs are not read and result pages
   * are not fetched (their snippets stand in); each says so in the trace. Search APIs and the
   * model endpoint are still called: they answer extensions themselves (CORS). Default: granted. */
  hostAccess?: boolean;
  allowFiles?: boolean;
  tabTimeoutMs?: number;
  tabConcurrency?: number;
  /** How long a retrieval waits for tabs still being read (default TAB_WAIT_MS). */
  tabWaitMs?: number;
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
  prepare(signal?: AbortSignal, hint?: ReadHint): Promise<SourceStatus[]>;
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

export { searchQuery } from './web-search';

/** Whether the library may return passages of open tabs: by configuration, never by what the
 * tabs hold (lib/core/flow.ts). */
function reachesTabs(opts: LibraryOptions): boolean {
  const pickedNone = !!opts.scope && (opts.scope.tabs === 'page' || opts.scope.tabs === 'chosen') && !opts.scope.tabIds?.length;
  return !!opts.tabs && opts.hostAccess !== false && !pickedNone;
}

const abortReason = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));

const unreadNote = (unread: number): ProviderError => ({
  provider: 'tabs',
  message: `${unread} open tab${unread > 1 ? 's were' : ' was'} not read yet when this search ran; ${unread > 1 ? 'they are' : 'it is'} used by the later ones`,
});

/** Dense ranking over the library's passages, or none (with a note in the trace, once) when the
 * embeddings endpoint fails or is slow: ranking is then lexical. */
class DenseRanking {
  private noted = false;

  constructor(
    private readonly dense: DenseIndex,
    private readonly index: PassageIndex,
    private readonly timeoutMs: number,
  ) {}

  /** The tabs' passages are embedded while the model drafts. */
  warm(signal?: AbortSignal): void {
    if (this.index.size > MAX_DENSE_PASSAGES) return;
    // A failure here surfaces at retrieval, which embeds what is missing and notes the error.
    void this.dense.ensure(this.index.allPassages().map(passageEmbedText), signal).catch(() => undefined);
  }

  /** One dense ranking per query alternative, over the whole library when it is small enough,
   * else over the lexical candidates. */
  async lists(alts: string[], lexical: Scored<Passage>[][], keep: (p: Passage) => boolean, signal: AbortSignal | undefined, errors: ProviderError[]): Promise<Scored<Passage>[][]> {
    const { dense, index } = this;
    if (!(await dense.model())) return [];
    const pool = (index.size <= MAX_DENSE_PASSAGES ? index.allPassages() : [...new Map(lexical.flat().map((x) => [x.passage.id, x.passage])).values()]).filter(keep);
    try {
      await withTimeout(this.timeoutMs, signal, () => dense.ensure([...alts, ...pool.map(passageEmbedText)], signal));
      return alts.map((q) => {
        const qv = dense.vector(q);
        return qv ? dense.rank(qv, pool, DENSE_DEPTH) : [];
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      if (!this.noted) errors.push({ provider: 'embeddings', message: `${errorText(e)}; ranked by words only` });
      this.noted = true;
      return [];
    }
  }
}

/** Web search for the library: result pages join the index unless the document is open in a tab. */
function webSearchFor(opts: LibraryOptions, index: PassageIndex, tabDocs: Set<string>, now: () => number): WebSearch {
  return new WebSearch({
    providers: opts.scope?.web === false ? [] : (opts.providers ?? providersFromSettings(opts.search)),
    search: opts.search,
    excludedDomains: opts.privacy.excludedDomains,
    privateNetwork: opts.privacy.privateNetwork,
    reader: opts.reader,
    fetch: opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)),
    cache: opts.cache,
    now,
    cacheTtlMs: opts.webCacheTtlMs ?? 86_400_000,
    hostAccess: opts.hostAccess,
    // The index holds one copy per address: a page also open in a tab keeps the tab's copy,
    // whichever was read first.
    onPage: (page, status) => {
      if (!tabDocs.has(documentKey(page.url))) index.add(analysisFor(page, opts.pipeline.passageChars, 'web', { provider: status.provider, overlap: opts.passageOverlap }, index.weights));
    },
  });
}

/** Reading the open tabs for the library (none without a tabs adapter): each page joins the index. */
function tabReadingFor(opts: LibraryOptions, policy: ReadPolicy, index: PassageIndex, tabDocs: Set<string>, now: () => number): TabReading | undefined {
  if (!opts.tabs) return undefined;
  return new TabReading({
    adapter: opts.tabs,
    policy,
    cache: opts.cache,
    now,
    timeoutMs: opts.tabTimeoutMs,
    concurrency: opts.tabConcurrency,
    onPage: ({ tab, page }) => {
      tabDocs.add(documentKey(page.url));
      index.add(analysisFor(page, opts.pipeline.passageChars, 'tab', { tabId: tab.id, overlap: opts.passageOverlap }, index.weights));
    },
  });
}

export function createLibrary(opts: LibraryOptions): RatifyLibrary {
  const now = opts.now ?? Date.now;
  const index = new PassageIndex(opts.weights);
  // What may be read, decided in one place (read-policy.ts).
  const policy = readPolicy({ privacy: opts.privacy, allowFiles: opts.allowFiles, extensionOrigin: opts.tabs?.extensionOrigin, hostAccess: opts.hostAccess, scope: opts.scope, checked: opts.checked });
  const dense = opts.embed ? new DenseRanking(new DenseIndex({ embed: opts.embed, model: opts.embeddingModel ?? 'embeddings', store: opts.embeddingStore }), index, opts.denseTimeoutMs ?? 10_000) : undefined;
  let prepared: Promise<SourceStatus[]> | undefined;
  let preparedByCaller = false;
  let tabStatusesReported = false;
  /** Documents read from open tabs: their copy found on the web is fetched all the same (whether
   * a page is open must not change what is requested), but the tab's copy is the evidence. */
  const tabDocs = new Set<string>();
  const web = webSearchFor(opts, index, tabDocs, now);
  const reading = tabReadingFor(opts, policy, index, tabDocs, now);

  async function readOpenTabs(signal?: AbortSignal, hint?: ReadHint): Promise<SourceStatus[]> {
    if (!reading) return [];
    const statuses = await reading.start(signal, hint);
    dense?.warm(signal);
    return statuses;
  }

  function prepare(signal?: AbortSignal, internal = false, hint?: ReadHint): Promise<SourceStatus[]> {
    if (!internal) preparedByCaller = true;
    // A failed or cancelled read can be retried by the next call.
    prepared ??= readOpenTabs(signal, hint).catch((e) => {
      prepared = undefined;
      throw e;
    });
    return prepared;
  }

  /** Tabs and the web in parallel; tab statuses go into the trace here only when nobody called
   * prepare() (which returns them itself). The web is searched only with a WebQuery (network-safe
   * by construction); searches in flight (the run's plan) are waited for. Tabs: what has been
   * read by now, after waiting a moment for the rest (reading started with the run; the trace
   * says how many were not read yet). */
  async function gather(req: RetrieveRequest): Promise<{ sources: SourceStatus[]; errors: ProviderError[] }> {
    const sources: SourceStatus[] = [];
    const errors: ProviderError[] = [];
    const tabsRead = opts.tabs ? prepare(req.signal, true).catch((e) => [{ url: '', title: 'Open tabs', origin: 'tab' as const, status: 'failed' as const, reason: errorText(e) }]) : Promise.resolve([]);
    const [found] = await Promise.all([req.web ? web.search([req.web], req.signal) : Promise.resolve({ sources: [], errors: [] }), reading?.settle(opts.tabWaitMs ?? TAB_WAIT_MS)]);
    await web.settled();
    const unread = reading?.unread ?? 0;
    if (unread) errors.push(unreadNote(unread));
    else if (!preparedByCaller && !tabStatusesReported && opts.tabs) {
      sources.push(...(await tabsRead));
      tabStatusesReported = true;
    }
    sources.push(...found.sources);
    errors.push(...found.errors);
    return { sources, errors };
  }

  /** Per query alternative, lexical and dense by normalised score; alternatives by rank; pages
   * spread; near-duplicates (the same article open in a tab and found on the web) keep the tab copy. */
  async function rank(req: RetrieveRequest, k: number, errors: ProviderError[]): Promise<Passage[]> {
    const alts = queryAlternatives(req.query);
    if (!alts.length) alts.push(req.query);
    const seed = (req.round ?? 1) > 1 ? req.seed : undefined;
    const skip = new Set(req.seed?.map((p) => p.id) ?? []);
    const keep = (p: Passage) => !skip.has(p.id) && !policy.isChecked(p) && !(p.origin === 'web' && tabDocs.has(documentKey(p.url)));
    const lexical = alts.map((q) => index.search(q, { k: Math.max(50, k * 4), seed, exclude: skip.size ? skip : undefined }).filter((x) => keep(x.passage)));
    const denses = dense ? await dense.lists(alts, lexical, keep, req.signal, errors) : [];
    const lists = lexical.map((lex, i) => {
      const d = denses[i];
      return d ? fuseByScore(lex, d, (p) => p.id, opts.denseWeight ?? DENSE_WEIGHT) : lex.map((x) => x.passage);
    });
    const fused = lists.length > 1 ? fuseByRank(lists, (p) => p.id, 60) : (lists[0] ?? []);
    const ranked = spreadPages(fused, (p) => documentKey(p.url), opts.pageSpread ?? PAGE_SPREAD);
    return dedupe(ranked, (p) => p.text, k, { prefer: (a, b) => a.origin === 'tab' && b.origin !== 'tab' });
  }

  return {
    get size() {
      return index.size;
    },
    reach: { tabs: reachesTabs(opts), web: web.enabled },
    prepare: (signal?: AbortSignal, hint?: ReadHint) => prepare(signal, false, hint),
    searchWeb: (queries, signal) => web.search(queries, signal),
    // From the tab list, at once: the draft never waits for the tabs to be read.
    catalogue: async () => (reading ? reading.catalogue().catch(() => []) : []),
    async retrieve(req: RetrieveRequest): Promise<RetrieveResult> {
      const k = Math.max(1, req.k || opts.pipeline.passagesPerStep);
      const { sources, errors } = await gather(req);
      if (req.signal?.aborted) throw abortReason(req.signal);
      return { passages: await rank(req, k, errors), sources, errors };
    },
  };
}
