/** What the library does before the user grants access to sites (the optional host permission):
 * it reads no tab and fetches no result page, says so for each, and still uses what the browser
 * allows without the grant (search APIs that answer extensions, the results' snippets). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSearch, type FakeSearch } from '../../test/harness/fake-search';
import { startFixtureSite, type FixtureSite } from '../../test/harness/fixture-site';
import { createMemoryPageCache } from '../store/page-cache';
import { DEFAULT_SETTINGS, type SearchSettings } from '../settings/schema';
import { createLibrary, type LibraryOptions } from './library';
import { createMemoryTabs, type MemoryTab } from '../../test/harness/memory-tabs';
import { createNodePageReader } from './node-reader';
import { NO_SITE_ACCESS, skipReason } from './tabs';
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

const tab = (id: number, url: string, title: string, text: string): MemoryTab => ({ id, url, title, page: { url, hash: `h${id}`, title, text, headings: [] } });
const curie = tab(1, 'https://notes.example/curie', 'My Curie notes', 'Marie Curie discovered polonium and radium with Pierre Curie.');
const settingsTab = tab(2, 'chrome://settings', 'Settings', '');

function search(enabled: Partial<Record<'wikipedia' | 'searxng' | 'brave', boolean>>): SearchSettings {
  return {
    ...DEFAULT_SETTINGS.search,
    wikipedia: { enabled: !!enabled.wikipedia, baseURL: fs.urls.wikipedia },
    searxng: { enabled: !!enabled.searxng, baseURL: fs.urls.searxng },
    brave: { enabled: !!enabled.brave, baseURL: fs.urls.brave, apiKey: fs.keys.brave! },
    tavily: { enabled: false, baseURL: fs.urls.tavily, apiKey: fs.keys.tavily! },
    pagesPerQuery: 2,
    timeoutMs: 2000,
  };
}

function lib(tabs: MemoryTab[], extra: Partial<LibraryOptions>) {
  const adapter = createMemoryTabs(tabs);
  const l = createLibrary({
    search: search({ wikipedia: true }),
    privacy: { ...DEFAULT_SETTINGS.privacy, privateNetwork: true },
    pipeline: { passageChars: 400, passagesPerStep: 4 },
    tabs: adapter,
    reader: createNodePageReader(),
    cache: createMemoryPageCache(),
    ...extra,
  });
  return { l, adapter };
}

describe('without access to sites', () => {
  it('reads no tab and says why for each; with access the same tab is read', async () => {
    const without = lib([curie, settingsTab], { hostAccess: false });
    const r = await without.l.retrieve({ query: 'Marie Curie radium', web: typedQuery('Marie Curie radium'), k: 6 });
    expect(without.adapter.reads).toEqual([]);
    expect(r.sources.filter((s) => s.origin === 'tab').map((s) => [s.tabId, s.status, s.reason])).toEqual([
      [1, 'skipped', NO_SITE_ACCESS],
      // Its own reason first: access would not make a browser page readable.
      [2, 'skipped', 'browser page'],
    ]);
    expect(r.passages.some((p) => p.origin === 'tab')).toBe(false);
    // Wikipedia's API answers extensions itself (CORS): its extracts are still evidence.
    expect(r.passages.some((p) => p.origin === 'web' && p.provider === 'wikipedia')).toBe(true);

    const granted = lib([curie], { hostAccess: true });
    await granted.l.retrieve({ query: 'Marie Curie radium', web: typedQuery('Marie Curie radium'), k: 6 });
    expect(granted.adapter.reads).toEqual([1]);
  });

  it('fetches no result page: the snippet stands in, and the trace says the page was not read and why', async () => {
    const { l } = lib([], { hostAccess: false, search: search({ searxng: true }) });
    const r = await l.retrieve({ query: 'Eiffel Tower', web: typedQuery('Eiffel Tower'), k: 4 });
    expect(site.requests.some((q) => q.path.startsWith('/articles/'))).toBe(false);
    const web = r.sources.filter((s) => s.origin === 'web');
    expect(web.length).toBeGreaterThan(0);
    for (const s of web) expect(s).toMatchObject({ status: 'skipped', reason: `${NO_SITE_ACCESS}; used the search snippet` });
    expect(r.passages.length).toBeGreaterThan(0);
  });

  it('names missing access when a provider cannot be reached', async () => {
    const refused: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const { l } = lib([], { hostAccess: false, search: search({ brave: true }), fetch: refused });
    const r = await l.retrieve({ query: 'Eiffel Tower', web: typedQuery('Eiffel Tower'), k: 4 });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.message).toContain(NO_SITE_ACCESS);
  });

  it('the panel’s preview gives tabs the same reason the run will', () => {
    const rules = { excludedDomains: [], allowIncognito: false, privateNetwork: true };
    expect(skipReason(curie, { ...rules, hostAccess: false })).toBe(NO_SITE_ACCESS);
    expect(skipReason(curie, rules)).toBeUndefined();
    expect(skipReason({ ...curie, incognito: true }, { ...rules, hostAccess: false })).toBe('incognito');
  });
});
