import { describe, expect, it } from 'vitest';
import { RatifyDb } from './db';
import { createDexiePageCache, createMemoryPageCache } from './page-cache';

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

  it('keeps at most `max` pages in memory, dropping the oldest', async () => {
    const cache = createMemoryPageCache(2);
    await cache.put(page('https://1.example/', 'a'));
    await cache.put(page('https://2.example/', 'b'));
    await cache.put(page('https://3.example/', 'c'));
    expect(cache.size).toBe(2);
    expect(await cache.get('https://1.example/')).toBeUndefined();
  });
});
