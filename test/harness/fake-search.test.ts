import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { match } from './matchers.ts';
import { startFakeSearch, type FakeSearch } from './fake-search.ts';
import { startFixtureSite, type FixtureSite } from './fixture-site.ts';

let site: FixtureSite;
let search: FakeSearch;

beforeAll(async () => {
  site = await startFixtureSite();
  search = await startFakeSearch({ siteOrigin: site.origin });
});
afterAll(async () => {
  await search.close();
  await site.close();
});
beforeEach(() => search.reset());

// The wire shapes as these tests read them (each provider's documented fields the fakes serve);
// `getJson<T>` states which one a response is expected to have, and the assertions check it.
interface WikiHit {
  title: string;
  snippet: string;
}
interface WikiPage {
  pageid: number;
  index: number;
  title: string;
  extract?: string;
  fullurl: string;
  missing?: string;
}
interface WikiResponse {
  batchcomplete: string | boolean;
  query: { searchinfo: { totalhits: number }; search: WikiHit[]; pages: WikiPage[] & Record<string, WikiPage>; normalized: unknown };
  continue: { excontinue?: number };
  warnings: { extracts: Record<string, string> };
  error: { code: string };
}
interface SearxngResult {
  title: string;
  content: string;
  parsed_url: string[];
}
interface BraveResponse {
  type: string;
  query: { original: string };
  mixed: { type: string };
  web?: { type: string; results: { description: string; profile: unknown; meta_url: unknown }[] };
  error: { code: string };
}
interface TavilyResponse {
  results: { score: number; raw_content: string | null }[];
  detail: { error: string };
}

const getJson = async <T = unknown>(url: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }> => {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: body as T, headers: res.headers };
};

describe('Wikipedia (MediaWiki Action API)', () => {
  const api = (params: Record<string, string>, base = search.urls.wikipedia): string => `${base}/w/api.php?${new URLSearchParams({ format: 'json', ...params })}`;

  it('list=search returns searchinfo, hits with highlighted snippets, and continue', async () => {
    const { body } = await getJson<WikiResponse>(api({ action: 'query', list: 'search', srsearch: 'Curie Nobel Prize', srlimit: '1' }));
    expect(body.batchcomplete).toBe('');
    expect(body.query.searchinfo.totalhits).toBeGreaterThanOrEqual(1);
    const hit = body.query.search[0]!;
    expect(hit).toMatchObject({ ns: 0, title: 'Marie Curie', pageid: match.any(Number), size: match.any(Number), wordcount: match.any(Number), timestamp: match.stringMatching(/Z$/) });
    expect(hit.snippet).toContain('<span class="searchmatch">');
    if (body.query.searchinfo.totalhits > 1) expect(body.continue).toEqual({ sroffset: 1, continue: '-||' });
  });

  it('generator=search gives extracts and full URLs on the fixture site (formatversion 2, sorted by pageid)', async () => {
    const { body } = await getJson<WikiResponse>(api({ action: 'query', generator: 'search', gsrsearch: 'Eiffel tower Paris', gsrlimit: '3', prop: 'extracts|info', explaintext: '1', exintro: '1', exlimit: 'max', inprop: 'url', formatversion: '2' }));
    expect(body.batchcomplete).toBe(true);
    const pages: WikiPage[] = body.query.pages;
    expect(Array.isArray(pages)).toBe(true);
    expect(pages.map((p) => p.pageid)).toEqual([...pages.map((p) => p.pageid)].sort((a, b) => a - b));
    const top = pages.find((p) => p.index === 1);
    expect(top?.title).toBe('Eiffel Tower');
    expect(top?.fullurl).toBe(site.url('/articles/eiffel-tower.html'));
    expect(top?.extract).toMatch(/^The Eiffel Tower is a wrought-iron lattice tower/);
    expect(top?.extract).not.toContain('=='); // exintro stops at the first section
    const page = await fetch(top!.fullurl);
    expect(page.status).toBe(200);
  });

  it('generator=search formatversion 1 keys pages by id; whole-article extracts come one per request, as on Wikipedia', async () => {
    const { body } = await getJson<WikiResponse>(api({ action: 'query', generator: 'search', gsrsearch: 'Paris', gsrlimit: '5', prop: 'extracts|info', explaintext: '1', exlimit: 'max', inprop: 'url' }));
    const pages = Object.entries(body.query.pages as Record<string, WikiPage>);
    expect(pages.length).toBeGreaterThan(1);
    for (const [key, p] of pages) expect(key).toBe(String(p.pageid));
    // Only the page with the lowest id gets its extract; the rest get '' (the live API does this).
    const withExtract = pages.filter(([, p]) => p.extract !== '');
    expect(withExtract).toHaveLength(1);
    expect(withExtract[0]![1].pageid).toBe(Math.min(...pages.map(([, p]) => p.pageid)));
    expect(withExtract[0]![1].extract).toContain('\n\n\n== ');
    expect(body.warnings.extracts['*']).toContain('lowered to 1');
    expect(body.continue.excontinue).toBe(1);
  });

  it('prop=extracts&titles= returns the plain text with section markers, and marks missing titles', async () => {
    const { body } = await getJson<WikiResponse>(api({ action: 'query', prop: 'extracts', explaintext: '1', titles: 'Marie_Curie|No such page' }));
    const pages = Object.values(body.query.pages as Record<string, WikiPage>);
    const curie = pages.find((p) => p.title === 'Marie Curie');
    expect(curie?.extract).toContain('.\n\n\n== Nobel Prizes ==\nIn 1903');
    expect(curie?.extract).toContain('In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel');
    expect(pages.find((p) => p.title === 'No such page')?.missing).toBe('');
    expect(body.query.pages['-1']).toBeDefined();
    expect(body.query.normalized).toEqual([{ from: 'Marie_Curie', to: 'Marie Curie' }]);
  });

  it('a language path searches that wiki only; Chinese queries match Chinese pages', async () => {
    const zh = search.urls.wikipediaLang.replace('{lang}', 'zh');
    const { body } = await getJson<WikiResponse>(api({ action: 'query', list: 'search', srsearch: '青蒿素', formatversion: '2' }, zh));
    expect(body.query.search[0]?.title).toBe('屠呦呦');
    const en = await getJson<WikiResponse>(api({ action: 'query', list: 'search', srsearch: '青蒿素' }, search.urls.wikipediaLang.replace('{lang}', 'en')));
    expect(en.body.query.search).toEqual([]);
  });

  it('reports API errors the MediaWiki way and sends CORS only for origin=*', async () => {
    const bad = await getJson<WikiResponse>(api({ action: 'query', list: 'search' }));
    expect(bad.status).toBe(200);
    expect(bad.body.error.code).toBe('missingparam');
    expect(bad.headers.get('mediawiki-api-error')).toBe('missingparam');
    const cors = await getJson<WikiResponse>(api({ action: 'query', list: 'search', srsearch: 'x', origin: '*' }));
    expect(cors.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('SearXNG', () => {
  it('answers format=json in SearXNG shape with links to fixture pages', async () => {
    const { status, body } = await getJson<{ results: SearxngResult[] }>(`${search.urls.searxng}/search?q=${encodeURIComponent('Marie Curie Paris')}&format=json`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ query: 'Marie Curie Paris', number_of_results: match.any(Number), answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] });
    const r = body.results[0]!;
    expect(r).toMatchObject({ url: site.url('/articles/marie-curie.html'), title: 'Marie Curie', content: match.any(String), engine: match.any(String), engines: match.any(Array), score: match.any(Number), category: 'general', positions: match.any(Array) });
    expect(r.parsed_url).toEqual(['http', new URL(site.origin).host, '/articles/marie-curie.html', '', '', '']);
    expect(r.content).not.toContain('<');
  });

  it('serves HTML without format=json and 403 when the instance has json disabled', async () => {
    const html = await fetch(`${search.urls.searxng}/search?q=curie`);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    search.setSearxngJson(false);
    const denied = await fetch(`${search.urls.searxng}/search?q=curie&format=json`);
    expect(denied.status).toBe(403);
  });

  it('accepts a POSTed form like the SearXNG UI sends', async () => {
    const { body } = await getJson<{ results: SearxngResult[] }>(`${search.urls.searxng}/search`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'q=Louvre+pyramide&format=json' });
    expect(body.results[0]?.title).toBe('Musée du Louvre');
  });
});

describe('Brave Search API', () => {
  const url = (q: string, count = 5): string => `${search.urls.brave}/res/v1/web/search?q=${encodeURIComponent(q)}&count=${count}`;

  it('returns web results in Brave shape with the right token', async () => {
    const { status, body, headers } = await getJson<BraveResponse>(url('Eiffel tower height'), { headers: { 'X-Subscription-Token': search.keys.brave!, accept: 'application/json' } });
    expect(status).toBe(200);
    expect(body.type).toBe('search');
    expect(body.query.original).toBe('Eiffel tower height');
    expect(body.mixed.type).toBe('mixed');
    expect(body.web?.type).toBe('search');
    const r = body.web!.results[0]!;
    expect(r).toMatchObject({ title: 'Eiffel Tower', url: site.url('/articles/eiffel-tower.html'), language: 'en', family_friendly: true });
    expect(r.description).toContain('<strong>');
    expect(r.profile).toMatchObject({ name: match.any(String), url: match.any(String), long_name: match.any(String), img: match.any(String) });
    expect(r.meta_url).toMatchObject({ scheme: 'http', hostname: '127.0.0.1', netloc: new URL(site.origin).host });
    expect(headers.get('x-ratelimit-remaining')).toBeTruthy();
  });

  it('rejects a missing token (422) and a wrong one (401) with ErrorResponse bodies', async () => {
    const missing = await getJson<BraveResponse>(url('x'));
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ type: 'ErrorResponse', error: { status: 422, code: 'VALIDATION', detail: match.any(String), meta: match.any(Object), id: match.any(String) } });
    const wrong = await getJson<BraveResponse>(url('x'), { headers: { 'X-Subscription-Token': 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('SUBSCRIPTION_TOKEN_INVALID');
  });

  it('validates count and leaves out `web` when nothing matches', async () => {
    const h = { headers: { 'X-Subscription-Token': search.keys.brave! } };
    expect((await getJson<BraveResponse>(url('x', 50), h)).status).toBe(422);
    const none = await getJson<BraveResponse>(url('zzzyyyxxx'), h);
    expect(none.status).toBe(200);
    expect(none.body.web).toBeUndefined();
  });
});

describe('Tavily', () => {
  const post = (body: unknown, key?: string) =>
    getJson<TavilyResponse>(`${search.urls.tavily}/search`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: JSON.stringify(body) });

  it('returns results with scores and optional raw content (bearer key)', async () => {
    const { status, body } = await post({ query: 'artemisinin 青蒿素 屠呦呦', max_results: 3, search_depth: 'basic', include_raw_content: true, topic: 'general' }, search.keys.tavily);
    expect(status).toBe(200);
    expect(body).toMatchObject({ query: match.any(String), follow_up_questions: null, answer: null, images: [], response_time: match.any(Number) });
    const r = body.results[0]!;
    expect(r).toMatchObject({ title: '屠呦呦', url: site.url('/articles/tu-youyou.html'), content: match.any(String), score: match.any(Number), raw_content: match.stringContaining('青蒿素') });
    expect(r.score).toBeGreaterThan(0);
    expect(r.score).toBeLessThanOrEqual(1);
  });

  it('accepts api_key in the body, and answers 401 otherwise', async () => {
    const ok = await post({ query: 'Louvre', api_key: search.keys.tavily });
    expect(ok.status).toBe(200);
    expect(ok.body.results[0]?.raw_content).toBeNull();
    const denied = await post({ query: 'Louvre' }, 'tvly-wrong');
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ detail: { error: 'Unauthorized: missing or invalid API key.' } });
  });
});

describe('knobs and request log', () => {
  it('keys go only where they belong', async () => {
    await fetch(`${search.urls.brave}/res/v1/web/search?q=curie`, { headers: { 'X-Subscription-Token': search.keys.brave! } });
    await fetch(`${search.urls.wikipedia}/w/api.php?action=query&list=search&srsearch=curie&format=json`);
    expect(search.requestsFor('brave')[0]!.headers['x-subscription-token']).toBe(search.keys.brave!);
    expect(search.requestsFor('wikipedia')[0]!.headers['x-subscription-token']).toBeUndefined();
    expect(search.requestsFor('wikipedia')[0]!.query.srsearch).toBe('curie');
  });

  it('faults: 500 and 429 in each provider, limited to N requests', async () => {
    search.setFault('wikipedia', { kind: 'status', status: 429, retryAfter: 3 }, 1);
    const first = await fetch(`${search.urls.wikipedia}/w/api.php?action=query&list=search&srsearch=curie&format=json`);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    const second = await fetch(`${search.urls.wikipedia}/w/api.php?action=query&list=search&srsearch=curie&format=json`);
    expect(second.status).toBe(200);
    search.setFault('brave', { kind: 'status', status: 500 });
    const b = await getJson<BraveResponse>(`${search.urls.brave}/res/v1/web/search?q=x`, { headers: { 'X-Subscription-Token': search.keys.brave! } });
    expect(b.status).toBe(500);
    expect(b.body.type).toBe('ErrorResponse');
    search.setFault('tavily', { kind: 'status', status: 429 });
    const t = await getJson<TavilyResponse>(`${search.urls.tavily}/search`, { method: 'POST', body: JSON.stringify({ query: 'x', api_key: search.keys.tavily }) });
    expect(t.status).toBe(429);
    expect(t.body.detail.error).toEqual(match.any(String));
  });

  it('hang and latency', async () => {
    search.setFault('searxng', { kind: 'hang' });
    const hung = await fetch(`${search.urls.searxng}/search?q=x&format=json`, { signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    expect(hung).toBeInstanceOf(Error);
    search.setLatency('tavily', 150);
    const t0 = Date.now();
    await fetch(`${search.urls.tavily}/search`, { method: 'POST', body: JSON.stringify({ query: 'x', api_key: search.keys.tavily }) });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('setCorpus replaces what the providers search', async () => {
    search.setCorpus([{ title: 'Only doc', url: site.url('/articles/louvre.html'), text: 'A unique zebra sentence.' }]);
    const { body } = await getJson<{ results: SearxngResult[] }>(`${search.urls.searxng}/search?q=zebra&format=json`);
    expect(body.results.map((r) => r.title)).toEqual(['Only doc']);
  });
});
