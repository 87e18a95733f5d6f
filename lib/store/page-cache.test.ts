import { describe, expect, it } from 'vitest';
import { RatifyDb } from './db';
import { createDexiePageCache, createMemoryPageCache, pageCacheMaxAgeMs } from './page-cache';

const page = (url: string, hash: string, storedAt = 1) => ({ url, hash, title: 't', text: 'x', headings: [], storedAt });

describe('page cache', () => {
  it('stores by URL in IndexedDB and replaces a changed page', async () => {
    const cache = createDexiePageCache(new RatifyDb(`pc-${Math.random()}`));
    await cache.put(page('https://a.example/', 'h1'));
    expect((await cache.get('https://a.example/'))?.hash).toBe('h1');
    await cache.put(page('https://a.example/', 'h2'));
    expect((await cache.get('https://a.example/'))?.hash).toBe('h2');
    await cache.delete('https://a.example/');
    expect(await cache.get('https://a.example/')).toBeUndefined();
  });

  it('follows the retention setting: old pages are neither returned nor kept', async () => {
    const DAY = 86_400_000;
    let now = 100 * DAY;
    const database = new RatifyDb(`pc-${Math.random()}`);
    const cache = createDexiePageCache(database, { maxAgeMs: pageCacheMaxAgeMs(7), now: () => now });
    await cache.put(page('https://old.example/', 'h', now - 8 * DAY));
    await cache.put(page('https://older.example/', 'h', now - 40 * DAY));
    await cache.put(page('https://new.example/', 'h', now - 6 * DAY));
    expect(await cache.get('https://old.example/')).toBeUndefined();
    expect((await cache.get('https://new.example/'))?.hash).toBe('h');
    expect(await cache.expire()).toBe(1); // older.example; old.example went when it was asked for
    expect(await database.pages.count()).toBe(1);
    now += 2 * DAY;
    expect(await cache.get('https://new.example/')).toBeUndefined();
    // "Keep runs forever" still lets page copies go after 30 days; a longer retention is capped there.
    expect(pageCacheMaxAgeMs(0)).toBe(30 * DAY);
    expect(pageCacheMaxAgeMs(365)).toBe(30 * DAY);
  });

  it('keeps at most `max` pages in memory, dropping the oldest', async () => {
    const cache = createMemoryPageCache(2);
    await cache.put(page('https://1.example/', 'a'));
    await cache.put(page('https://2.example/', 'b'));
    await cache.put(page('https://3.example/', 'c'));
    expect(cache.size).toBe(2);
    expect(await cache.get('https://1.example/')).toBeUndefined();
  });
});
