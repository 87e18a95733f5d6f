import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../settings/schema';
import { createMemoryTabs, type MemoryTab } from '../../test/harness/memory-tabs';
import { createLibrary } from './library';
import { createMemoryPageCache } from '../store/page-cache';
import { readingOrder } from './tab-reading';

const page = (id: number, url: string, title: string, text: string, extra: Partial<MemoryTab> = {}): MemoryTab => ({ id, url, title, page: { url, hash: `h${id}`, title, text, headings: [] }, ...extra });

describe('reading open tabs beside the gate and the draft, never in front of them', () => {
  it('reads the page the user is on first, then tabs that share words with the question, then the most recent', () => {
    const tabs = [
      { id: 1, url: 'https://a.example/cooking', title: 'Soup recipes', lastAccessed: 5 },
      { id: 2, url: 'https://b.example/eiffel-tower', title: 'Eiffel Tower history', lastAccessed: 1 },
      { id: 3, url: 'https://c.example/news', title: 'Morning news', lastAccessed: 9 },
      { id: 4, url: 'https://d.example/page', title: 'The page', lastAccessed: 2 },
    ];
    expect(readingOrder(tabs, { text: 'How tall is the Eiffel Tower?', pageTabId: 4 }).map((t) => t.id)).toEqual([4, 2, 3, 1]);
  });

  it('the catalogue comes from the tab list at once; a search ranks what is read by then and says what was not', async () => {
    const tabs = [
      page(1, 'https://fast.example/curie', 'Marie Curie', 'Marie Curie won the Nobel Prize in Physics in 1903.'),
      page(2, 'https://slow.example/curie-notes', 'Curie notes', 'Marie Curie was born in Warsaw in 1867.', { delayMs: 800 }),
    ];
    const library = createLibrary({ search: DEFAULT_SETTINGS.search, privacy: DEFAULT_SETTINGS.privacy, pipeline: { passageChars: 400, passagesPerStep: 4 }, tabs: createMemoryTabs(tabs), providers: [], tabWaitMs: 50 });
    const t0 = Date.now();
    void library.prepare(undefined, { text: 'Marie Curie' });
    const catalogue = await library.catalogue!();
    expect(Date.now() - t0).toBeLessThan(400);
    expect(catalogue.map((c) => c.title)).toEqual(['Marie Curie', 'Curie notes']);
    const early = await library.retrieve({ query: 'Marie Curie', k: 4 });
    expect(early.passages.map((p) => p.tabId)).toEqual([1]);
    expect(early.errors).toEqual([{ provider: 'tabs', message: '1 open tab was not read yet when this search ran; it is used by the later ones' }]);
    // A later search finds it.
    const late = await library.retrieve({ query: 'Marie Curie Warsaw', k: 4 });
    await new Promise((r) => setTimeout(r, 900));
    const later = await library.retrieve({ query: 'Marie Curie Warsaw born', k: 4 });
    expect([...late.passages, ...later.passages].some((p) => p.tabId === 2)).toBe(true);
    expect(later.errors).toEqual([]);
  });

  it('the catalogue names the language of a tab read before (read ahead or by an earlier question) without waiting for it to be read again', async () => {
    const url = 'https://musee.example/louvre';
    const cache = createMemoryPageCache();
    await cache.put({ url, hash: 'h1', title: 'Musée du Louvre', text: 'La pyramide de verre fut inaugurée en 1989.', headings: [], lang: 'fr', storedAt: Date.now() });
    const tabs = [page(1, url, 'Musée du Louvre', 'La pyramide de verre fut inaugurée en 1989.', { delayMs: 800 }), page(2, 'https://new.example/', 'Never read', 'Nothing here yet.', { delayMs: 800 })];
    const library = createLibrary({ search: DEFAULT_SETTINGS.search, privacy: DEFAULT_SETTINGS.privacy, pipeline: { passageChars: 400, passagesPerStep: 4 }, tabs: createMemoryTabs(tabs), providers: [], cache });
    void library.prepare();
    const t0 = Date.now();
    const catalogue = await library.catalogue!();
    expect(Date.now() - t0).toBeLessThan(400);
    expect(catalogue.map((c) => [c.title, c.lang])).toEqual([
      ['Musée du Louvre', 'fr'],
      ['Never read', undefined],
    ]);
  });
});
