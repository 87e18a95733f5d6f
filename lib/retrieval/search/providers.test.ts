import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSearch, type FakeSearch } from '../../../test/harness/fake-search';
import { createBrave } from './brave';
import type { SearchContext } from './provider';
import { createSearxng } from './searxng';
import { createTavily } from './tavily';
import { createWikipedia, wikipediaBase } from './wikipedia';

const corpus = [
  { title: 'Marie Curie', url: 'http://site.invalid/articles/marie-curie.html', lang: 'en', text: 'Marie Curie was a physicist and chemist.\n\n\n== Nobel Prizes ==\nShe won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.' },
  { title: 'Eiffel Tower', url: 'http://site.invalid/articles/eiffel-tower.html', lang: 'en', text: 'The Eiffel Tower is a lattice tower in Paris, completed in 1889.' },
  { title: '屠呦呦', url: 'http://site.invalid/articles/tu-youyou.html', lang: 'zh', text: '屠呦呦是中国药学家。她发现了青蒿素。' },
];

let fs: FakeSearch;
const ctx = (extra: Partial<SearchContext> = {}): SearchContext => ({ signal: AbortSignal.timeout(3000), limit: 2, fetch, ...extra });

beforeAll(async () => {
  fs = await startFakeSearch({ corpus });
});
afterAll(async () => {
  await fs.close();
});
beforeEach(() => fs.reset());

describe('Wikipedia', () => {
  it('searches and returns plain-text extracts with their sections', async () => {
    const hits = await createWikipedia({ baseURL: fs.urls.wikipedia }).search('Marie Curie Nobel Prize', ctx());
    expect(hits[0]!.title).toBe('Marie Curie');
    expect(hits[0]!.url).toBe('http://site.invalid/articles/marie-curie.html');
    expect(hits[0]!.page?.text).toContain('She won the Nobel Prize in Physics');
    expect(hits[0]!.page?.headings.map((h) => h.text)).toEqual(['Nobel Prizes']);
    expect(hits[0]!.page?.text).not.toContain('==');
  });

  it('picks the edition from the query script', async () => {
    expect(wikipediaBase('https://{lang}.wikipedia.org', '谁发现了青蒿素').base).toBe('https://zh.wikipedia.org');
    expect(wikipediaBase('https://{lang}.wikipedia.org', 'Who found artemisinin?').base).toBe('https://en.wikipedia.org');
    const hits = await createWikipedia({ baseURL: fs.urls.wikipediaLang }).search('青蒿素', ctx());
    expect(hits.map((h) => h.title)).toEqual(['屠呦呦']);
    expect(fs.requestsFor('wikipedia')[0]!.path).toBe('/zh/w/api.php');
  });

  it('reports the HTTP status of a failure', async () => {
    fs.setFault('wikipedia', { kind: 'status', status: 503 });
    await expect(createWikipedia({ baseURL: fs.urls.wikipedia }).search('Curie', ctx())).rejects.toMatchObject({ status: 503 });
  });
});

describe('SearXNG', () => {
  it('parses the JSON API', async () => {
    const hits = await createSearxng({ baseURL: fs.urls.searxng }).search('Eiffel Tower Paris', ctx());
    expect(hits[0]).toMatchObject({ title: 'Eiffel Tower', url: 'http://site.invalid/articles/eiffel-tower.html' });
    expect(hits[0]!.snippet).not.toMatch(/<[a-z]/);
  });
  it('says how to fix an instance without the json format', async () => {
    fs.setSearxngJson(false);
    await expect(createSearxng({ baseURL: fs.urls.searxng }).search('Eiffel', ctx())).rejects.toThrow(/403.*json format/);
  });
});

describe('Brave', () => {
  it('sends the key only as its header to Brave and parses web results', async () => {
    const hits = await createBrave({ baseURL: fs.urls.brave, apiKey: fs.keys.brave! }).search('Eiffel Tower', ctx());
    expect(hits[0]!.title).toBe('Eiffel Tower');
    expect(hits[0]!.snippet).not.toContain('<strong>');
    const req = fs.requestsFor('brave')[0]!;
    expect(req.headers['x-subscription-token']).toBe(fs.keys.brave!);
    expect(JSON.stringify(req.query)).not.toContain(fs.keys.brave!);
  });
  it('reports a wrong key', async () => {
    await expect(createBrave({ baseURL: fs.urls.brave, apiKey: 'wrong' }).search('Eiffel', ctx())).rejects.toMatchObject({ status: 401 });
  });
  it('returns nothing when there are no web results', async () => {
    expect(await createBrave({ baseURL: fs.urls.brave, apiKey: fs.keys.brave! }).search('zzqqxx', ctx())).toEqual([]);
  });
});

describe('Tavily', () => {
  it('uses a bearer token and takes the raw content as the page', async () => {
    const hits = await createTavily({ baseURL: fs.urls.tavily, apiKey: fs.keys.tavily! }).search('Marie Curie Nobel', ctx());
    expect(hits[0]!.title).toBe('Marie Curie');
    expect(hits[0]!.page?.text).toContain('Chemistry in 1911');
    expect(hits[0]!.page?.headings.map((h) => h.text)).toEqual(['Nobel Prizes']);
    const req = fs.requestsFor('tavily')[0]!;
    expect(req.headers.authorization).toBe(`Bearer ${fs.keys.tavily!}`);
    expect(JSON.stringify(req.body)).not.toContain(fs.keys.tavily!);
  });
  it('reports rate limits with the retry hint', async () => {
    fs.setFault('tavily', { kind: 'status', status: 429, retryAfter: 3 });
    await expect(createTavily({ baseURL: fs.urls.tavily, apiKey: fs.keys.tavily! }).search('Curie', ctx())).rejects.toThrow(/429.*retry after 3/);
  });
});
