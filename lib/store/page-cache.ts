/** The page cache: readable text of tabs and fetched pages by URL, with the hash of the content it
 * came from, so an unchanged page is not extracted twice. Dexie in the extension, memory in Node. */
import type { CachedPage, PageCache } from '../retrieval/page-cache';
import type { RatifyDb } from './db';

const DAY_MS = 86_400_000;
/** Without a retention setting ("keep runs forever") cached page text still goes after this: the
 * cache only saves re-reading, and old copies of pages are a record of browsing nobody asked for. */
export const PAGE_CACHE_DEFAULT_DAYS = 30;

/** How long a cached page is kept: the runs' retention when one is set (it is never kept longer
 * than the runs that cite it), else PAGE_CACHE_DEFAULT_DAYS. */
export function pageCacheMaxAgeMs(retentionDays: number): number {
  return (retentionDays > 0 ? Math.min(retentionDays, PAGE_CACHE_DEFAULT_DAYS) : PAGE_CACHE_DEFAULT_DAYS) * DAY_MS;
}

export interface DexiePageCacheOptions {
  /** Keep at most this many pages (oldest dropped first). */
  max?: number;
  /** Entries stored longer ago than this are gone: not returned, and deleted by expire(). */
  maxAgeMs?: number;
  now?: () => number;
}

/** Keeps at most `max` pages, dropping the least recently stored. */
export function createMemoryPageCache(max = 500): PageCache & { readonly size: number } {
  const pages = new Map<string, CachedPage>();
  return {
    get size() {
      return pages.size;
    },
    get(url) {
      return Promise.resolve(pages.get(url));
    },
    put(page) {
      pages.delete(page.url);
      pages.set(page.url, page);
      while (pages.size > max) pages.delete(pages.keys().next().value as string);
      return Promise.resolve();
    },
    delete(url) {
      pages.delete(url);
      return Promise.resolve();
    },
    clear() {
      pages.clear();
      return Promise.resolve();
    },
  };
}

/** IndexedDB-backed cache over the `pages` table. Pruned to `max` entries (oldest first) every so
 * often, so a long browsing history does not grow it without bound. A storage error never fails a
 * read: the page is simply extracted again. */
export function createDexiePageCache(database: RatifyDb, opts: DexiePageCacheOptions = {}): PageCache & { expire(): Promise<number> } {
  const max = opts.max ?? 2000;
  const now = opts.now ?? Date.now;
  const expired = (storedAt: number) => opts.maxAgeMs !== undefined && storedAt < now() - opts.maxAgeMs;
  let writes = 0;
  const prune = async () => {
    const n = await database.pages.count();
    if (n <= max) return;
    const old = await database.pages.orderBy('storedAt').limit(n - max).primaryKeys();
    await database.pages.bulkDelete(old);
  };
  return {
    async get(url) {
      let page: CachedPage | undefined;
      try {
        page = await database.pages.get(url);
      } catch {
        return undefined; // an unreadable store only costs a re-read
      }
      if (page && expired(page.storedAt)) {
        await database.pages.delete(url).catch(() => undefined); // expire() catches it next time
        return undefined;
      }
      return page;
    },
    /** Deletes every entry older than maxAgeMs; returns how many went. */
    async expire() {
      if (opts.maxAgeMs === undefined) return 0;
      return database.pages.where('storedAt').below(now() - opts.maxAgeMs).delete();
    },
    async put(page) {
      try {
        await database.pages.put(page);
        if (++writes % 50 === 0) await prune();
      } catch {
        // A full or unavailable store only costs a re-read next time.
      }
    },
    async delete(url) {
      // The cache is an optimisation: a failed delete leaves an entry the next read replaces.
      await database.pages.delete(url).catch(() => undefined);
    },
    async clear() {
      await database.pages.clear().catch(() => undefined); // as above
    },
  };
}
