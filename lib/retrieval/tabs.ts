/** Open tabs as a library: which tabs may be read (privacy rules), and reading them with bounded
 * concurrency, a per-tab time-out and a status per tab for the run's trace. Browser access sits
 * behind `TabsAdapter` (lib/browser/tabs-adapter.ts in the extension, fakes in tests). */
import type { CachedPage, PageCache } from './page-cache';
import type { ReadablePage } from './page';
import type { SourceStatus } from '../core/passage';
import { cutNote } from './pdf';
import { documentKey } from '../core/url';
import { skipReason, type TabInfo, type TabRules } from './read-policy';
import { followAbort } from '../core/abort';

export { isExcludedHost, NO_SITE_ACCESS, skipReason, type TabInfo, type TabRules } from './read-policy';

export type TabRead =
  /** The tab's content hash equals the one passed in: the cached text is still good. */
  | { kind: 'unchanged'; hash: string }
  | { kind: 'page'; page: ReadablePage };

export interface TabsAdapter {
  /** Tabs of the current window (`window`) or of all windows (`all`). */
  list(scope: 'window' | 'all'): Promise<TabInfo[]>;
  /** Reads one tab's readable text; `knownHash` lets the tab answer "unchanged" cheaply. */
  read(tab: TabInfo, opts: { knownHash?: string; signal: AbortSignal }): Promise<TabRead>;
  /** The extension's own origin (chrome-extension://id), whose pages are never evidence. */
  readonly extensionOrigin?: string;
  /** A longer time-out for tabs known to be slow to read (a PDF: fetched and parsed). */
  timeoutFor?(tab: TabInfo): number | undefined;
}

export interface ReadTabsOptions {
  cache?: PageCache;
  concurrency?: number;
  timeoutMs?: number;
  /** At most this many tabs are read (the rest are reported as skipped). */
  maxTabs?: number;
  signal?: AbortSignal;
  now?: () => number;
  /** Each page as soon as it is read (the library indexes it at once, so a step can use it). */
  onPage?: (p: TabPage) => void;
}

export interface TabPage {
  tab: TabInfo;
  page: ReadablePage;
}

export interface TabsReadResult {
  pages: TabPage[];
  statuses: SourceStatus[];
}

export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`time-out after ${ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`}`);
    this.name = 'TimeoutError';
  }
}

/** Runs `fn` with its own signal that aborts on the outer signal or after `ms`. */
export async function withTimeout<T>(ms: number, outer: AbortSignal | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unfollow = followAbort(outer, () => ctl.abort(outer?.reason));
  try {
    return await Promise.race([
      fn(ctl.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const e = new TimeoutError(ms);
          ctl.abort(e);
          reject(e);
        }, ms);
        followAbort(ctl.signal, () => reject(ctl.signal.reason instanceof Error ? ctl.signal.reason : new Error('aborted')));
      }),
    ]);
  } finally {
    clearTimeout(timer);
    unfollow();
  }
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i); // i < items.length: checked above, before any await
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 200);

type StatusOf = (tab: TabInfo, s: SourceStatus['status'], reason?: string) => void;

/** The tabs to read, in order: allowed by the rules, one per document, at most `maxTabs`; each
 * left out gets its status with the reason. */
function tabsToRead(tabs: TabInfo[], rules: TabRules, maxTabs: number, status: StatusOf): TabInfo[] {
  const toRead: TabInfo[] = [];
  const seen = new Map<string, number>();
  for (const tab of tabs) {
    const why = skipReason(tab, rules);
    if (why) {
      status(tab, 'skipped', why);
      continue;
    }
    const key = documentKey(tab.url);
    const dup = seen.get(key);
    if (dup !== undefined) {
      status(tab, 'skipped', `same page as tab ${dup}`);
      continue;
    }
    seen.set(key, tab.id);
    if (toRead.length >= maxTabs) {
      status(tab, 'skipped', 'too many tabs');
      continue;
    }
    toRead.push(tab);
  }
  return toRead;
}

const pageFromCache = (c: CachedPage): ReadablePage => ({ url: c.url, hash: c.hash, title: c.title, text: c.text, headings: c.headings, lang: c.lang, ...(c.pdf ? { pdf: c.pdf } : {}) });

/** One tab's page: the cached copy when the tab says it is unchanged, else what it read (stored
 * in the cache when it has text). */
async function readTab(tab: TabInfo, adapter: TabsAdapter, opts: ReadTabsOptions): Promise<{ page: ReadablePage; fromCache: boolean }> {
  const cached = await opts.cache?.get(tab.url);
  const ms = Math.max(opts.timeoutMs ?? 5000, adapter.timeoutFor?.(tab) ?? 0);
  const r = await withTimeout(ms, opts.signal, (signal) => adapter.read(tab, { knownHash: cached?.hash, signal }));
  if (r.kind === 'unchanged') {
    if (!cached || cached.hash !== r.hash) throw new Error('tab reported unchanged without a cached copy');
    return { page: pageFromCache(cached), fromCache: true };
  }
  const page = { ...r.page, url: tab.url };
  if (page.text.trim()) await opts.cache?.put({ ...page, storedAt: (opts.now ?? Date.now)() });
  return { page, fromCache: false };
}

/** Filters the tabs, then reads the allowed ones (cache first). Never throws for one tab. */
export async function readTabs(tabs: TabInfo[], adapter: TabsAdapter, rules: TabRules, opts: ReadTabsOptions = {}): Promise<TabsReadResult> {
  const statuses: SourceStatus[] = [];
  const status: StatusOf = (tab, s, reason) => statuses.push({ url: tab.url, title: tab.title, origin: 'tab', status: s, tabId: tab.id, ...(reason ? { reason } : {}) });
  const toRead = tabsToRead(tabs, { ...rules, extensionOrigin: rules.extensionOrigin ?? adapter.extensionOrigin }, opts.maxTabs ?? 200, status);

  const pages: TabPage[] = [];
  await mapLimit(toRead, opts.concurrency ?? 4, async (tab) => {
    if (opts.signal?.aborted) {
      status(tab, 'skipped', 'cancelled');
      return;
    }
    try {
      const { page, fromCache } = await readTab(tab, adapter, opts);
      if (!page.text.trim()) {
        status(tab, 'skipped', 'no readable text');
        return;
      }
      if (!page.title) page.title = tab.title;
      pages.push({ tab, page });
      opts.onPage?.({ tab, page });
      // A source cut at the size cap says so, and where (a PDF: on which page).
      status(tab, fromCache ? 'cached' : 'read', cutNote(page));
    } catch (e) {
      status(tab, opts.signal?.aborted ? 'skipped' : 'failed', opts.signal?.aborted ? 'cancelled' : message(e));
    }
  });
  // Keep tab order (reads finish in any order) so passages and the trace are deterministic.
  const order = new Map(tabs.map((t, i) => [t.id, i]));
  pages.sort((a, b) => (order.get(a.tab.id) ?? 0) - (order.get(b.tab.id) ?? 0));
  statuses.sort((a, b) => (order.get(a.tabId ?? -1) ?? 0) - (order.get(b.tabId ?? -1) ?? 0));
  return { pages, statuses };
}
