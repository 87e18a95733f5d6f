/** SearXNG's /search JSON API (format=json), as a self-hosted instance answers it. */
import type { SearchDoc } from '../fixture-corpus.ts';
import { escapeHtml, lexicalSearch, snippet } from '../text.ts';
import { sendJson } from '../http-util.ts';
import type { FakeSearchProvider } from './fake-provider.ts';

const PAGE_SIZE = 10;

/** Python's urllib.parse.urlparse tuple, which SearXNG puts in `parsed_url`. */
function parsedUrl(u: string): string[] {
  const url = new URL(u);
  return [url.protocol.replace(':', ''), url.host, url.pathname, '', url.search.replace(/^\?/, ''), url.hash.replace(/^#/, '')];
}

const plain = (html: string): string => html.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

function matches(docs: SearchDoc[], p: URLSearchParams): SearchDoc[] {
  const lang = p.get('language');
  const pool = lang && lang !== 'all' && lang !== 'auto' ? docs.filter((d) => (d.lang ?? 'en').startsWith(lang.split('-')[0] ?? lang)) : docs;
  return lexicalSearch(pool, p.get('q') ?? '').map((h) => h.doc);
}

export function searxngJson(docs: SearchDoc[], p: URLSearchParams): Record<string, unknown> {
  const q = p.get('q') ?? '';
  const page = Math.max(1, Number(p.get('pageno') ?? 1) || 1);
  const all = matches(docs, p);
  const results = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((doc, i) => ({
    url: doc.url,
    title: doc.title,
    content: plain(snippet(doc.text, q, '', '', 200)),
    publishedDate: null,
    thumbnail: '',
    engine: 'wikipedia',
    template: 'default.html',
    parsed_url: parsedUrl(doc.url),
    img_src: '',
    priority: '',
    engines: ['wikipedia', 'duckduckgo'],
    positions: [i + 1, i + 2],
    score: Math.round((2 / (i + 1)) * 1e6) / 1e6 + 1,
    category: 'general',
  }));
  return {
    query: q,
    number_of_results: all.length,
    results,
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}

/** What an instance shows without format=json: its HTML results page. */
export function searxngHtml(docs: SearchDoc[], p: URLSearchParams): string {
  const items = matches(docs, p)
    .slice(0, PAGE_SIZE)
    .map((d) => `<article class="result"><h3><a href="${escapeHtml(d.url)}">${escapeHtml(d.title)}</a></h3></article>`)
    .join('\n');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(p.get('q') ?? '')} - SearXNG</title></head><body><main id="results">${items}</main></body></html>`;
}

export const fakeSearxng: FakeSearchProvider = {
  id: 'searxng',
  handle: ({ res, path, url, body, docs, searxngJson: jsonEnabled }) => {
    if (path !== '/search') return false;
    // SearXNG reads GET query parameters or a POSTed form.
    const params = new URLSearchParams(url.searchParams);
    if (body && typeof body === 'object') for (const [key, v] of Object.entries(body)) if (typeof v === 'string') params.set(key, v);
    const format = params.get('format');
    if (format === 'json') {
      if (!jsonEnabled) {
        res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' });
        res.end("<!doctype html><html lang=en><title>403 Forbidden</title><h1>Forbidden</h1><p>You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>");
      } else sendJson(res, 200, searxngJson(docs, params));
    } else if (format && format !== 'html') {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Bad Request');
    } else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(searxngHtml(docs, params));
    }
    return true;
  },
  fault: (res, status, headers) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
    res.end(status === 429 ? 'Too Many Requests' : 'Internal Server Error');
  },
  settings: (baseURL) => ({ baseURL }),
  describe: (base) => `searxng        ${base}/search?q=…&format=json`,
};
