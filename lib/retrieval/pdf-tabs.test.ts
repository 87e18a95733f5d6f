import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSearch, type FakeSearch } from '../../test/harness/fake-search';
import { startFixtureSite, type FixtureSite } from '../../test/harness/fixture-site';
import { buildPdf } from '../../test/fixtures/site/pdf/make-pdf';
import { DEFAULT_SETTINGS } from '../settings/schema';
import { createMemoryPageCache } from '../store/page-cache';
import { createLibrary } from './library';
import { createMemoryTabs, type MemoryTab } from '../../test/harness/memory-tabs';
import { createNodePageReader } from './node-reader';
import { MAX_SOURCE_CHARS } from './pdf';
import { TabShowsPdf, withPdfTabs } from './pdf-tabs';
import type { TabsAdapter } from './tabs';
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

const PDF_PATH = '/pdf/glacier-survey.pdf';
const reader = createNodePageReader();
const fetchFn: typeof fetch = (input, init) => fetch(input, init);

/** Memory tabs whose reader script "fails" the way a PDF viewer does (Firefox: not scriptable). */
function tabs(list: MemoryTab[], fail: (t: MemoryTab) => Error | undefined = () => undefined): TabsAdapter {
  const inner = createMemoryTabs(list);
  return withPdfTabs({ ...inner, read: async (tab, o) => {
    const e = fail(list.find((t) => t.id === tab.id) as MemoryTab);
    if (e) throw e;
    return inner.read(tab, o);
  } }, { fetch: fetchFn, reader });
}

function library(adapter: TabsAdapter, web = false, cache = createMemoryPageCache()) {
  return createLibrary({
    search: { ...DEFAULT_SETTINGS.search, wikipedia: { enabled: false, baseURL: fs.urls.wikipedia }, searxng: { enabled: web, baseURL: fs.urls.searxng }, pagesPerQuery: 3 },
    // The fixture site runs on 127.0.0.1: results there are allowed as for an intranet search.
    privacy: { ...DEFAULT_SETTINGS.privacy, privateNetwork: true },
    pipeline: { passageChars: 400, passagesPerStep: 4 },
    tabs: adapter,
    reader,
    cache,
    tabTimeoutMs: 15_000,
  });
}

describe('a PDF open in a tab', () => {
  it('is fetched and read by page: the passage that answers knows its page', async () => {
    const url = site.url(PDF_PATH);
    const l = library(tabs([{ id: 4, url, title: 'glacier-survey.pdf' }]));
    const r = await l.retrieve({ query: 'Kessler Glacier retreated metres between 2014 and 2024', web: typedQuery('Kessler Glacier retreated metres between 2014 and 2024'), k: 3 });
    expect(r.sources).toEqual([expect.objectContaining({ url, status: 'read', tabId: 4, title: 'glacier-survey.pdf' })]);
    expect(r.sources[0]?.reason).toBeUndefined();
    const top = r.passages[0];
    expect(top?.text).toContain('retreated 212 metres');
    expect(top).toMatchObject({ page: 3, origin: 'tab', tabId: 4, title: 'Survey of the Kessler Glacier, 2024' });
  });

  it('is parsed once: the next question over the same file uses the cached text, pages and all', async () => {
    const url = site.url(PDF_PATH);
    const parses: string[] = [];
    const counting = { ...reader, readPdf: async (b: Uint8Array, u: string, s?: AbortSignal) => (parses.push(u), reader.readPdf!(b, u, s)) };
    const adapter = () => withPdfTabs(createMemoryTabs([{ id: 4, url, title: 'glacier-survey.pdf' }]), { fetch: fetchFn, reader: counting });
    const cache = createMemoryPageCache();
    const query = { query: 'Kessler Glacier retreated metres between 2014 and 2024', web: typedQuery('Kessler Glacier retreated metres between 2014 and 2024'), k: 3 };
    await library(adapter(), false, cache).retrieve(query);
    const again = await library(adapter(), false, cache).retrieve(query);
    expect(parses).toEqual([url]);
    expect(again.sources).toEqual([expect.objectContaining({ url, status: 'cached' })]);
    expect(again.passages[0]).toMatchObject({ page: 3, tabId: 4 });
  });

  it('is found by its content type when its address does not end in .pdf', async () => {
    site.addPage('/reports/kessler', readFileSync(new URL('../../test/fixtures/site/pdf/glacier-survey.pdf', import.meta.url)), 'application/pdf');
    const viewer = { id: 5, url: site.url('/reports/kessler'), title: 'kessler' };
    const page = { id: 6, url: site.url('/articles/marie-curie.html'), title: 'Curie' };
    const before = site.requests.length;
    // Firefox's pdf.js viewer cannot be scripted; Chrome's reader script says "a PDF".
    const l = library(tabs([viewer, page], (t) => (t.id === 5 ? new Error('Missing host permission for the tab') : t.id === 6 ? new Error('Cannot access contents of the page') : undefined)));
    const r = await l.retrieve({ query: 'Kessler Glacier terminus altitude', web: typedQuery('Kessler Glacier terminus altitude'), k: 2 });
    expect(r.passages[0]).toMatchObject({ page: 3, tabId: 5 });
    expect(r.sources.find((s) => s.tabId === 5)?.status).toBe('read');
    // The HTML tab that could not be scripted keeps its own error; its body was not downloaded.
    expect(r.sources.find((s) => s.tabId === 6)).toMatchObject({ status: 'failed', reason: 'Cannot access contents of the page' });
    expect(site.requests.slice(before).map((q) => q.path).sort()).toEqual(['/articles/marie-curie.html', '/reports/kessler']);

    const l2 = library(tabs([viewer], () => new TabShowsPdf()));
    expect((await l2.retrieve({ query: 'Kessler Glacier terminus altitude', web: typedQuery('Kessler Glacier terminus altitude'), k: 2 })).passages[0]?.page).toBe(3);
  });

  it('longer than the cap is read up to it, and the trace says where it was cut', async () => {
    const line = 'Ice cores from the plateau record the temperature of each winter in thin layers of dust.';
    const pages = Array.from({ length: 90 }, (_, i) => [`Chapter ${i + 1}`, ...Array.from({ length: 45 }, () => line)]);
    site.addPage('/pdf/long.pdf', buildPdf(pages, 'A long report'), 'application/pdf');
    const url = site.url('/pdf/long.pdf');
    const l = library(tabs([{ id: 9, url, title: 'long.pdf' }]));
    const r = await l.retrieve({ query: 'ice cores dust layers', web: typedQuery('ice cores dust layers'), k: 3 });
    const status = r.sources.find((s) => s.tabId === 9);
    expect(status?.status).toBe('read');
    expect(status?.reason).toMatch(/^cut at [\d,]+ characters, on page (\d+) of 90$/);
    const cutPage = Number(/on page (\d+)/.exec(status?.reason ?? '')?.[1]);
    expect(cutPage).toBeGreaterThan(60);
    expect(cutPage).toBeLessThan(90);
    expect(Number(/cut at ([\d,]+)/.exec(status?.reason ?? '')?.[1]?.replace(/,/g, ''))).toBeLessThanOrEqual(MAX_SOURCE_CHARS);
    expect(r.passages.every((p) => p.page !== undefined && p.page <= cutPage)).toBe(true);
  });
});

it('a PDF search result is read by page too', async () => {
  fs.setCorpus([{ title: 'Survey of the Kessler Glacier', url: site.url(PDF_PATH), text: 'Kessler Glacier survey retreat terminus radar', lang: 'en' }]);
  const l = library(tabs([]), true);
  const r = await l.retrieve({ query: 'Kessler Glacier retreat', web: typedQuery('Kessler Glacier retreat'), k: 2 });
  expect(r.errors).toEqual([]);
  expect(r.sources).toEqual([expect.objectContaining({ url: site.url(PDF_PATH), origin: 'web', status: 'read' })]);
  expect(r.passages.find((p) => p.text.includes('212 metres'))).toMatchObject({ page: 3, origin: 'web' });
});
