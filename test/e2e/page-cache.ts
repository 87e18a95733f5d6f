import type { Page } from '@playwright/test';

/** The addresses in Ratify's page cache (IndexedDB 'ratify', table 'pages'), read from one of the
 * extension's pages: what was read (ahead of questions, or by a run) and kept. */
export async function pagesCached(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const req = indexedDB.open('ratify');
        req.onsuccess = () => {
          const keys = req.result.transaction('pages').objectStore('pages').getAllKeys();
          keys.onsuccess = () => {
            req.result.close();
            resolve((keys.result as string[]).sort());
          };
          keys.onerror = () => reject(keys.error ?? new Error('IndexedDB request failed'));
        };
        req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
      }),
  );
}
