/** The page cache: readable text of tabs and fetched pages by URL, with the hash of the content it
 * came from, so an unchanged page is not extracted twice. Dexie in the extension, memory in Node. */
import type { CachedPage, RatifyDb } from './db';

export interface PageCache {
  get(url: string): Promise<CachedPage | undefined>;
  put(page: CachedPage): Promise<void>;
  delete(url: string): Promise<void>;
  clear(): Promise<void>;
}

/** Keeps at most `max` pages, dropping the least recently stored. */
export function createMemoryPageCache(max = 500): PageCache & { readonly size: number } {
  const pages = new Map<string, CachedPage>();
  return {
    get size() {
      return pages.size;
    },
    async get(url) {
      return pages.get(url);
    },
    async put(page) {
      pages.delete(page.url);
      pages.set(page.url, page);
      while (pages.size > max) pages.delete(pages.keys().next().value as string);
    },
    async delete(url) {
      pages.delete(url);
    },
    async clear() {
      pages.clear();
    },
  };
}

/** IndexedDB-backed cache over the `pages` table. Pruned to `max` entries (oldest first) every so
 * often, so a long browsing history does not grow it without bound. A storage error never fails a
 * read: the page is simply extracted again. */
export function createDexiePageCache(database: RatifyDb, max = 2000): PageCache {
  let writes = 0;
  const prune = async () => {
    const n = await database.pages.count();
    if (n <= max) return;
    const old = await database.pages.orderBy('storedAt').limit(n - max).primaryKeys();
    await database.pages.bulkDelete(old);
  };
  return {
    async get(url) {
      try {
        return await database.pages.get(url);
      } catch {
        return undefined;
      }
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
