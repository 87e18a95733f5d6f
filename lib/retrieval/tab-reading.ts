/** Reading the open tabs for one question, beside the gate and the draft, never in front of them:
 * the tabs are listed at once (titles and addresses, for the draft's catalogue), then read with
 * bounded concurrency, the most promising first (the page the user is on, tabs whose title or
 * address share words with the question, the most recently used), each indexed the moment it is
 * read. A retrieval uses what has been read by the time it asks, waiting only a moment for the
 * rest, and says in the trace how many were not read yet. */
import type { CatalogueEntry, SourceStatus } from '../core/passage';
import type { PageCache } from './page-cache';
import { catalogueEntry } from './queries';
import type { ReadPolicy, TabInfo } from './read-policy';
import { readTabs, type TabPage, type TabsAdapter } from './tabs';
import { tokenize } from './tokenize';

export interface ReadHint {
  /** The question (or selection): tabs whose title or address share its words are read first. */
  text?: string;
  /** The page the user is on: read first. */
  pageTabId?: number;
}

export interface TabReadingOptions {
  adapter: TabsAdapter;
  policy: ReadPolicy;
  cache?: PageCache;
  now: () => number;
  timeoutMs?: number;
  concurrency?: number;
  onPage(p: TabPage): void;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 200);

/** Reading order: the page the user is on, then by words shared with the question, then the most
 * recently used. */
export function readingOrder(tabs: TabInfo[], hint: ReadHint = {}): TabInfo[] {
  const want = new Set(tokenize(hint.text ?? ''));
  const score = (t: TabInfo) => {
    const shared = want.size ? tokenize(`${t.title} ${t.url.replace(/[/._-]+/g, ' ')}`).filter((w) => want.has(w)).length : 0;
    return (t.id === hint.pageTabId ? 1e6 : 0) + shared * 1e3 + (t.lastAccessed ?? 0) / 1e12;
  };
  return tabs
    .map((t, i) => ({ t, i, s: score(t) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.t);
}

export class TabReading {
  private listing?: Promise<TabInfo[]>;
  private reading?: Promise<SourceStatus[]>;
  private readonly langs = new Map<number, string | undefined>();
  private unreadCount = 0;

  constructor(private readonly o: TabReadingOptions) {}

  /** The chosen tabs (before the privacy rules), listed once. */
  list(): Promise<TabInfo[]> {
    this.listing ??= this.o.adapter.list(this.o.policy.listScope).then((tabs) => tabs.filter(this.o.policy.chosen));
    return this.listing;
  }

  /** Start reading (once); resolves with every tab's status when all are read or skipped. */
  start(signal?: AbortSignal, hint?: ReadHint): Promise<SourceStatus[]> {
    this.reading ??= this.readAll(signal, hint).catch((e: unknown) => {
      // A failed or cancelled read can be started again by the next call.
      this.reading = undefined;
      throw e;
    });
    return this.reading;
  }

  private async readAll(signal: AbortSignal | undefined, hint: ReadHint | undefined): Promise<SourceStatus[]> {
    let tabs: TabInfo[];
    try {
      tabs = readingOrder(await this.list(), hint);
    } catch (e) {
      this.listing = undefined;
      return [{ url: '', title: 'Open tabs', origin: 'tab', status: 'failed', reason: `could not list tabs: ${errorText(e)}` }];
    }
    this.unreadCount = tabs.filter((t) => !this.o.policy.skipReason(t)).length;
    const r = await readTabs(tabs, this.o.adapter, this.o.policy.rules, {
      cache: this.o.cache,
      signal,
      now: this.o.now,
      timeoutMs: this.o.timeoutMs,
      concurrency: this.o.concurrency,
      onPage: (p) => {
        this.langs.set(p.tab.id, p.page.lang);
        this.unreadCount = Math.max(0, this.unreadCount - 1);
        this.o.onPage(p);
      },
    });
    this.unreadCount = 0;
    return r.statuses;
  }

  /** Tabs still being read. */
  get unread(): number {
    return this.reading ? this.unreadCount : 0;
  }

  /** Waits for reading to end, or `ms`, whichever comes first. */
  async settle(ms: number): Promise<void> {
    const reading = this.reading;
    if (!reading) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A failed read is reported by the reading itself; here only its end matters.
    await Promise.race([reading.then(() => undefined, () => undefined), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  /** What the draft may know of the tabs without waiting for them to be read: titles, sites and
   * languages (never their text). A language is the one found when the tab was read: by this run,
   * or earlier (read ahead, or by an earlier question: the page cache, looked up, never read). */
  async catalogue(): Promise<CatalogueEntry[]> {
    const tabs = (await this.list()).filter((t) => !this.o.policy.skipReason(t));
    const langs = await Promise.all(tabs.map(async (t) => (this.langs.has(t.id) ? this.langs.get(t.id) : (await this.o.cache?.get(t.url).catch(() => undefined))?.lang)));
    return tabs.map((t, i) => catalogueEntry({ url: t.url, title: t.title, lang: langs[i] }, 'tab'));
  }
}
