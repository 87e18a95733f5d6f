/** Open tabs read ahead of questions, so a question's cost does not grow with the number of tabs.
 *
 * A tab is read when it finishes loading (or when the worker starts), one at a time, after a
 * pause, by the same reader and the same rules as at question time (read-policy.ts: excluded
 * sites, incognito, private networks, access to sites, the setting that turns this off). What it
 * read is kept by tab: at question time a tab that has not changed since is given from here, with
 * no script run in it; one that changed (the browser says so) is read again. Nothing here leaves
 * the machine: the text goes to the page cache, which keeps it only as long as the retention
 * setting allows.
 *
 * Which tabs changed survives the worker being stopped: the browser wakes it for every tab
 * change, so a record of what was read (tab, address, content hash; `persist`) is trusted on
 * restart and the text comes back from the page cache. */
import type { PageCache } from './page-cache';
import type { ReadablePage } from './page';
import type { TabRules } from './read-policy';
import { skipReason, type TabInfo } from './read-policy';
import type { TabRead, TabsAdapter } from './tabs';

export interface WarmRecord {
  tabId: number;
  url: string;
  hash: string;
  readAt: number;
}

export interface WarmTabsOptions {
  inner: TabsAdapter;
  cache?: PageCache;
  now?: () => number;
  /** The rules in force (settings and access to sites can change at any time); undefined when
   * reading ahead is off. */
  rules(): Promise<TabRules | undefined>;
  /** Where the records survive a stopped worker (storage.session in the extension). */
  persist?: { load(): Promise<WarmRecord[]>; save(records: WarmRecord[]): Promise<void> };
  /** Pause before reading a tab that just loaded (its scripts may still be filling it). */
  settleMs?: number;
  /** At most this many tabs are kept (the least recently read go first). */
  maxTabs?: number;
  /** A tab read longer ago than this is checked again (its content hash) when a question needs
   * it: pages that change without the browser saying so (live tickers) stay current. */
  maxAgeMs?: number;
}

interface Entry extends WarmRecord {
  page?: ReadablePage;
}

export class WarmTabs {
  private readonly entries = new Map<number, Entry>();
  private readonly queue = new Set<number>();
  private draining?: Promise<void>;
  private loaded?: Promise<void>;
  /** Reads served from memory or the page cache without touching the tab (tests, bench). */
  hits = 0;

  /** The adapter runs read through: a tab unchanged since it was read ahead costs nothing. */
  readonly adapter: TabsAdapter;

  constructor(private readonly o: WarmTabsOptions) {
    this.adapter = {
      list: (scope) => o.inner.list(scope),
      extensionOrigin: o.inner.extensionOrigin,
      timeoutFor: o.inner.timeoutFor?.bind(o.inner),
      read: async (tab, opts) => {
        const warm = await this.fresh(tab);
        if (warm) {
          this.hits++;
          return opts.knownHash === warm.hash ? { kind: 'unchanged', hash: warm.hash } : { kind: 'page', page: warm };
        }
        const r = await o.inner.read(tab, opts);
        this.remember(tab, r, opts.knownHash);
        return r;
      },
    };
  }

  /** A tab finished loading or navigated: what was read of it no longer holds; read it again soon. */
  changed(tabId: number): void {
    if (this.entries.delete(tabId)) void this.save();
    this.queue.add(tabId);
    this.drainSoon();
  }

  removed(tabId: number): void {
    this.queue.delete(tabId);
    if (this.entries.delete(tabId)) void this.save();
  }

  /** Read every open tab not read yet (the worker started, or access was just granted). */
  async warmAll(): Promise<void> {
    await this.load();
    for (const t of await this.o.inner.list('all')) if (!this.entries.has(t.id)) this.queue.add(t.id);
    this.drainSoon();
  }

  /** Resolves when nothing is queued (tests, bench). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Forget everything read ("Delete all data", access to sites taken back). */
  clear(): void {
    this.entries.clear();
    this.queue.clear();
    void this.save();
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      for (const r of (await this.o.persist?.load().catch(() => [])) ?? []) if (!this.entries.has(r.tabId)) this.entries.set(r.tabId, { ...r });
    })();
    return this.loaded;
  }

  private async fresh(tab: TabInfo): Promise<ReadablePage | undefined> {
    await this.load();
    const e = this.entries.get(tab.id);
    if (!e || e.url !== tab.url || this.now() - e.readAt > (this.o.maxAgeMs ?? 15 * 60_000)) return undefined;
    if (e.page) return e.page;
    // Read before the worker stopped: the text is in the page cache, by address and hash.
    const cached = await this.o.cache?.get(tab.url).catch(() => undefined);
    if (!cached || cached.hash !== e.hash) return undefined;
    e.page = { url: cached.url, hash: cached.hash, title: cached.title, text: cached.text, headings: cached.headings, ...(cached.lang ? { lang: cached.lang } : {}), ...(cached.pdf ? { pdf: cached.pdf } : {}) };
    return e.page;
  }

  private remember(tab: TabInfo, r: TabRead, knownHash: string | undefined): void {
    if (r.kind === 'page' && r.page.text.trim()) this.put({ tabId: tab.id, url: tab.url, hash: r.page.hash, readAt: this.now(), page: { ...r.page, url: tab.url } });
    else if (r.kind === 'unchanged' && knownHash) this.put({ tabId: tab.id, url: tab.url, hash: r.hash, readAt: this.now() });
  }

  private put(e: Entry): void {
    this.entries.delete(e.tabId);
    this.entries.set(e.tabId, e);
    const max = this.o.maxTabs ?? 300;
    while (this.entries.size > max) this.entries.delete(this.entries.keys().next().value as number);
    void this.save();
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  private save(): Promise<void> {
    const records = [...this.entries.values()].map(({ tabId, url, hash, readAt }) => ({ tabId, url, hash, readAt }));
    // Losing the record only costs a read at the next question.
    return this.o.persist?.save(records).catch(() => undefined) ?? Promise.resolve();
  }

  private drainSoon(): void {
    this.draining ??= new Promise<void>((r) => setTimeout(r, this.o.settleMs ?? 1500))
      .then(() => this.drain())
      .finally(() => {
        this.draining = undefined;
        if (this.queue.size) this.drainSoon();
      });
  }

  /** One tab at a time: reading ahead must not compete with the page the user is looking at. */
  private async drain(): Promise<void> {
    const rules = await this.o.rules().catch(() => undefined);
    if (!rules) {
      this.queue.clear();
      return;
    }
    // Tabs that cannot be listed now are read, or reported, when a question needs them.
    const byId = new Map((await this.o.inner.list('all').catch(() => [] as TabInfo[])).map((t) => [t.id, t]));
    for (const id of [...this.queue]) {
      this.queue.delete(id);
      const tab = byId.get(id);
      if (!tab || skipReason(tab, rules) || (await this.fresh(tab))) continue;
      // An unreadable cache only costs a full read.
      const known = await this.o.cache?.get(tab.url).catch(() => undefined);
      const ctl = new AbortController();
      const timer = setTimeout(() => ctl.abort(), Math.max(5000, this.o.inner.timeoutFor?.(tab) ?? 0));
      try {
        const r = await this.o.inner.read(tab, { knownHash: known?.hash, signal: ctl.signal });
        if (r.kind === 'page' && r.page.text.trim()) await this.o.cache?.put({ ...r.page, url: tab.url, storedAt: this.now() });
        this.remember(tab, r.kind === 'unchanged' && known ? { kind: 'page', page: { url: known.url, hash: known.hash, title: known.title, text: known.text, headings: known.headings, ...(known.lang ? { lang: known.lang } : {}) } } : r, known?.hash);
      } catch (e) {
        // A tab that cannot be read ahead is read, or reported, when a question needs it.
        console.debug('Ratify: reading a tab ahead failed', e);
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
