import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSearch, type FakeSearch } from '../../test/harness/fake-search';
import { startFixtureSite, type FixtureSite } from '../../test/harness/fixture-site';
import { RatifyDb } from '../store/db';
import { createDexiePageCache, createMemoryPageCache } from '../store/page-cache';
import { DEFAULT_SETTINGS, type SearchSettings } from '../settings/schema';
import { createLibrary, type LibraryOptions } from './library';
import { createMemoryTabs, type MemoryTab } from '../../test/harness/memory-tabs';
import { createNodePageReader } from './node-reader';
import { typedQuery } from '../../test/harness/text.ts';

let site: FixtureSite;
let fs: FakeSearch;
beforeAll(async () => {
  site = await startFixtureSite();
  fs = await startFakeSearch({ siteOrigin: site.origin });
});
afterAll(async () => {
  await Promise.all([fs.close(), site.close()]);
});
beforeEach(() => fs.reset());

const tabPage = (id: number, url: string, title: string, text: string, extra: Partial<MemoryTab> = {}): MemoryTab => ({
  id,
  url,
  title,
  page: { url, hash: `h${id}`, title, text, headings: [] },
  ...extra,
});

function search(patch: Partial<Record<'wikipedia' | 'searxng' | 'brave' | 'tavily', boolean>> = { wikipedia: true }, timeoutMs = 2000): SearchSettings {
  const s = DEFAULT_SETTINGS.search;
  return {
    wikipedia: { enabled: !!patch.wikipedia, baseURL: fs.urls.wikipedia },
    searxng: { enabled: !!patch.searxng, baseURL: fs.urls.searxng },
    brave: { enabled: !!patch.brave, baseURL: fs.urls.brave, apiKey: fs.keys.brave! },
    tavily: { enabled: !!patch.tavily, baseURL: fs.urls.tavily, apiKey: fs.keys.tavily! },
    pagesPerQuery: 2,
    timeoutMs: s.timeoutMs > timeoutMs ? timeoutMs : s.timeoutMs,
  };
}

function lib(tabs: MemoryTab[], extra: Partial<LibraryOptions> = {}) {
  return createLibrary({
    search: search(),
    // The fixture site runs on this machine: the user's switch for private-network pages is on.
    privacy: { ...DEFAULT_SETTINGS.privacy, privateNetwork: true },
    pipeline: { passageChars: 400, passagesPerStep: 4 },
    tabs: createMemoryTabs(tabs),
    reader: createNodePageReader(),
    cache: createMemoryPageCache(),
    ...extra,
  });
}

const curieTab = tabPage(1, 'https://notes.example/curie', 'My Curie notes', 'Marie Curie discovered polonium and radium with Pierre Curie. She won two Nobel Prizes.');

describe('the library', () => {
  it('merges open tabs and web results, and lists what it read or skipped and why', async () => {
    const l = lib([curieTab, tabPage(2, 'chrome://settings', 'Settings', ''), tabPage(3, 'https://mail.google.com/', 'Inbox', 'secret mail')]);
    const r = await l.retrieve({ query: 'Marie Curie Nobel Prize radium', web: typedQuery('Marie Curie Nobel Prize radium'), k: 6 });
    expect(r.errors).toEqual([]);
    expect(new Set(r.passages.map((p) => p.origin))).toEqual(new Set(['tab', 'web']));
    const tab = r.passages.find((p) => p.origin === 'tab');
    expect(tab).toMatchObject({ tabId: 1, url: curieTab.url });
    expect(r.passages.find((p) => p.origin === 'web')).toMatchObject({ provider: 'wikipedia' });
    expect(r.sources.filter((s) => s.origin === 'tab').map((s) => [s.tabId, s.status, s.reason])).toEqual([
      [1, 'read', undefined],
      [2, 'skipped', 'browser page'],
      [3, 'skipped', 'excluded domain'],
    ]);
    expect(r.sources.some((s) => s.origin === 'web' && s.status === 'read')).toBe(true);
    expect(r.passages.some((p) => p.text.includes('secret mail'))).toBe(false);
  });

  it('reports tab statuses from prepare() once, not again from retrieve()', async () => {
    const l = lib([curieTab]);
    const statuses = await l.prepare();
    expect(statuses).toHaveLength(1);
    const r = await l.retrieve({ query: 'Curie', web: typedQuery('Curie'), k: 3 });
    expect(r.sources.filter((s) => s.origin === 'tab')).toEqual([]);
  });

  it('fetches result pages and makes them readable (SearXNG and Brave give only links)', async () => {
    const l = lib([], { search: search({ searxng: true, brave: true }) });
    const r = await l.retrieve({ query: 'Eiffel Tower', web: typedQuery('Eiffel Tower'), k: 4 });
    expect(r.errors).toEqual([]);
    const web = r.passages.filter((p) => p.origin === 'web');
    expect(web.length).toBeGreaterThan(0);
    expect(web[0]!.url.startsWith(site.origin)).toBe(true);
    expect(site.requests.some((q) => q.path === '/articles/eiffel-tower.html')).toBe(true);
  });

  it('keeps going when a provider fails or hangs, and says which and why', async () => {
    fs.setFault('brave', { kind: 'status', status: 500 });
    fs.setFault('tavily', { kind: 'hang' });
    // A time-out a healthy local provider meets even on a busy machine; the hung one costs it once.
    const l = lib([curieTab], { search: search({ wikipedia: true, brave: true, tavily: true }, 1500) });
    const t0 = Date.now();
    const r = await l.retrieve({ query: 'Marie Curie', web: typedQuery('Marie Curie'), k: 4 });
    expect(Date.now() - t0).toBeLessThan(6000);
    expect(r.errors.map((e) => e.provider).sort()).toEqual(['brave', 'tavily']);
    expect(r.errors.find((e) => e.provider === 'brave')).toMatchObject({ status: 500 });
    expect(r.errors.find((e) => e.provider === 'tavily')?.message).toMatch(/time-out/);
    expect(r.passages.length).toBeGreaterThan(0);
  });

  it('in verify mode leaves out the page the selection came from', async () => {
    const l = lib([curieTab, tabPage(2, 'https://other.example/', 'Other', 'Marie Curie was born in Warsaw.')], { checked: { tabId: 1, url: curieTab.url }, providers: [] });
    const r = await l.retrieve({ query: 'Marie Curie', web: typedQuery('Marie Curie'), k: 4 });
    expect(r.passages.every((p) => p.tabId !== 1 && p.url !== curieTab.url)).toBe(true);
    expect(r.sources.find((s) => s.tabId === 1)).toMatchObject({ status: 'skipped', reason: 'selection source' });
  });

  it('fuses optional dense scores, and falls back to lexical when embeddings fail', async () => {
    const tabs = [
      tabPage(1, 'https://a.example/', 'Apples', 'Apples grow on trees in orchards.'),
      tabPage(2, 'https://b.example/', 'Fruit', 'Fruit orchards: apples, pears and plums grow there.'),
    ];
    const dense = lib(tabs, {
      providers: [],
      // A toy embedding that prefers the "Fruit" passage for any query.
      embed: (texts) => Promise.resolve(texts.map((t, i) => (i === 0 ? [1, 0] : t.startsWith('Fruit') ? [1, 0] : [0, 1]))),
    });
    const r = await dense.retrieve({ query: 'apples orchards', web: typedQuery('apples orchards'), k: 2 });
    expect(r.passages).toHaveLength(2);
    const failing = lib(tabs, { providers: [], embed: async () => Promise.reject(new Error('embeddings endpoint 404')) });
    const f = await failing.retrieve({ query: 'apples orchards', web: typedQuery('apples orchards'), k: 2 });
    expect(f.errors).toEqual([{ provider: 'embeddings', message: 'embeddings endpoint 404; ranked by words only' }]);
    expect(f.passages).toHaveLength(2);
  });

  it('a page open as a tab and found on the web is evidence from the tab, whichever was read first', async () => {
    // The fixture site's Eiffel Tower article is both an open tab and what the web search finds.
    const url = site.url('/articles/eiffel-tower.html');
    const tab = tabPage(1, url, 'Eiffel Tower – my tab', 'The tower was completed in March 1889 and is 330 metres tall.');
    for (const webFirst of [false, true]) {
      const l = lib([tab]);
      if (webFirst) await l.searchWeb?.([typedQuery('Eiffel Tower')]);
      await l.prepare();
      if (!webFirst) await l.searchWeb?.([typedQuery('Eiffel Tower')]);
      const r = await l.retrieve({ query: 'Eiffel Tower completed 330 metres', k: 4 });
      expect(r.passages[0], webFirst ? 'web first' : 'tab first').toMatchObject({ origin: 'tab', tabId: 1, url });
    }
  });

  it('drops near-duplicates across tabs and search', async () => {
    const text = 'The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris. It is named after the engineer Gustave Eiffel, whose company designed and built the tower.';
    const l = lib([tabPage(1, 'https://a.example/', 'Eiffel', text), tabPage(2, 'https://b.example/', 'Eiffel copy', text)], { providers: [] });
    const r = await l.retrieve({ query: 'Eiffel Tower engineer', web: typedQuery('Eiffel Tower engineer'), k: 4 });
    expect(r.passages).toHaveLength(1);
  });

  it('keeps the tab’s copy of a page that the web also finds at the same address, whichever is read first', async () => {
    // The tab is read (here: before the search) and the search then fetches the same article
    // from the same address: one copy per address, and it is the tab's.
    const url = site.url('/articles/marie-curie.html');
    const tab = tabPage(1, url, 'Marie Curie', 'Marie Curie won the Nobel Prize in Physics in 1903 with Pierre Curie and Henri Becquerel.');
    const l = lib([tab]);
    await l.prepare();
    const r = await l.retrieve({ query: 'Marie Curie Nobel Prize Physics 1903', web: typedQuery('Marie Curie Nobel Prize Physics 1903'), k: 4 });
    expect(r.sources.some((s) => s.origin === 'web' && s.url === url && s.status === 'read')).toBe(true);
    expect(r.passages.filter((p) => p.url === url).map((p) => p.origin)).toEqual(['tab']);
  });

  it('does not read an unchanged tab twice across runs (IndexedDB cache)', async () => {
    const cache = createDexiePageCache(new RatifyDb(`t-${Math.random()}`));
    const adapter = createMemoryTabs([curieTab]);
    const opts = { search: search(), privacy: DEFAULT_SETTINGS.privacy, pipeline: { passageChars: 400, passagesPerStep: 4 }, tabs: adapter, providers: [], cache };
    expect((await createLibrary(opts).prepare())[0]!.status).toBe('read');
    expect((await createLibrary(opts).prepare())[0]!.status).toBe('cached');
    expect(adapter.reads).toEqual([1]);
  });

  it('reads only the tabs the user chose, or one window’s, and no web when web is off', async () => {
    const fuji = tabPage(2, 'https://notes.example/fuji', 'Fuji notes', 'Mount Fuji is 3,776 metres tall and last erupted in 1707.', { windowId: 9 });
    const curie = { ...curieTab, windowId: 8 };
    const chosen = lib([curie, fuji], { scope: { tabs: 'chosen', tabIds: [2], web: false } });
    const r = await chosen.retrieve({ query: 'Marie Curie Mount Fuji', web: typedQuery('Marie Curie Mount Fuji'), k: 4 });
    expect(r.sources.map((s) => [s.tabId, s.status])).toEqual([[2, 'read']]);
    expect(r.passages.map((p) => p.url)).toEqual(['https://notes.example/fuji']);
    const window8 = await lib([curie, fuji], { scope: { tabs: 'window', windowId: 8, web: false } }).retrieve({ query: 'Marie Curie Mount Fuji', web: typedQuery('Marie Curie Mount Fuji'), k: 4 });
    expect(window8.sources.map((s) => s.tabId)).toEqual([1]);
    // The page the user is on, left out with its chip: not read, even in its own window.
    const noPage = await lib([curie, fuji], { scope: { tabs: 'all', web: false, pageTabId: 1, page: false } }).retrieve({ query: 'Marie Curie Mount Fuji', k: 4 });
    expect(noPage.sources.map((s) => s.tabId)).toEqual([2]);
    expect(fs.requests.length).toBe(0);
  });
});
