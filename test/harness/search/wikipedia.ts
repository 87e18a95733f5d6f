/** MediaWiki Action API (api.php) in the shapes Wikipedia returns, for the three request kinds
 * Ratify uses: list=search, generator=search with extracts/info, and prop=extracts by title. */
import type { SearchDoc } from '../fixture-corpus.ts';
import { escapeHtml, lexicalSearch, snippet } from '../text.ts';
import { sendJson } from '../http-util.ts';
import type { FakeSearchProvider } from './fake-provider.ts';

type Params = URLSearchParams;
type Json = Record<string, unknown>;

const TIMESTAMP = '2024-05-01T12:00:00Z';

/** Stable pseudo page ids, deliberately not in rank order (as on Wikipedia). */
export function pageId(doc: SearchDoc): number {
  let h = 7;
  for (const ch of doc.url) h = (h * 31 + ch.charCodeAt(0)) % 9_000_000;
  return 1_000_000 + h;
}

const wordcount = (text: string): number => (text.match(/[\p{L}\p{N}]+/gu) ?? []).length;

function limit(v: string | null, def: number, max: number): number {
  if (v === 'max') return max;
  const n = Number(v ?? def);
  return Number.isFinite(n) && n > 0 ? Math.min(n, max) : def;
}

function apiError(code: string, info: string): Json {
  return { error: { code, info, '*': 'See https://en.wikipedia.org/w/api.php for API usage.' }, servedby: 'mw-api-fake' };
}

/** The text before the first section heading, like exintro. */
function intro(text: string): string {
  const at = text.indexOf('\n\n\n==');
  return (at >= 0 ? text.slice(0, at) : text).trim();
}

/** Extract as the TextExtracts extension produces it: plain text with "== H ==" markers, or a
 * small HTML rendering when explaintext is off. */
function extract(doc: SearchDoc, p: Params): string {
  let text = p.has('exintro') ? intro(doc.text) : doc.text;
  const chars = Number(p.get('exchars'));
  if (chars > 0 && text.length > chars) text = text.slice(0, chars) + '…';
  if (p.has('explaintext')) return text;
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const h = /^(==+)\s*(.*?)\s*==+$/.exec(l);
      if (!h) return `<p>${escapeHtml(l)}</p>`;
      const [, marks = '', title = ''] = h;
      const level = marks.length;
      return `<h${level}><span id="${escapeHtml(title.replace(/ /g, '_'))}">${escapeHtml(title)}</span></h${level}>`;
    })
    .join('\n');
}

/** Page objects for a set of docs (in rank order), shaped for formatversion 1 (object keyed by id)
 * or 2 (array sorted by page id, each with `index` when from a generator). */
function pagesResult(docs: SearchDoc[], p: Params, withIndex: boolean, fv2: boolean, offset = 0): { pages: Json[]; warnings?: Json; excontinue?: number } {
  const props = (p.get('prop') ?? '').split('|');
  const inprop = (p.get('inprop') ?? '').split('|');
  // TextExtracts gives whole-article extracts for one page per request; with exintro, up to 20.
  const maxExtracts = p.has('exintro') ? limit(p.get('exlimit'), 20, 20) : 1;
  let warnings: Json | undefined;
  let excontinue: number | undefined;
  if (props.includes('extracts') && docs.length > maxExtracts) {
    const msg = p.has('exintro')
      ? `"exlimit" was too large for an intro extracts request, lowered to ${maxExtracts}.`
      : '"exlimit" was too large for a whole article extracts request, lowered to 1.';
    if (p.get('exlimit') === 'max' || Number(p.get('exlimit')) > maxExtracts || !p.has('exintro')) {
      warnings = { extracts: fv2 ? { warnings: msg } : { '*': msg } };
    }
    excontinue = maxExtracts;
  }
  // MediaWiki walks the page set in page-id order, so the pages that get an extract are the ones
  // with the lowest ids, not the best-ranked ones; the others get an empty extract.
  const byId = [...docs].sort((a, b) => pageId(a) - pageId(b));
  const extracted = new Set(byId.slice(0, maxExtracts));
  const pages = docs.map((doc, i) => {
    const page: Json = { pageid: pageId(doc), ns: 0, title: doc.title };
    if (withIndex) page.index = offset + i + 1;
    if (props.includes('extracts')) page.extract = extracted.has(doc) ? extract(doc, p) : '';
    if (props.includes('info')) {
      const lang = doc.lang ?? 'en';
      Object.assign(page, {
        contentmodel: 'wikitext',
        pagelanguage: lang,
        pagelanguagehtmlcode: lang,
        pagelanguagedir: 'ltr',
        touched: TIMESTAMP,
        lastrevid: pageId(doc) * 10 + 1,
        length: Buffer.byteLength(doc.text),
      });
      if (inprop.includes('url')) Object.assign(page, { fullurl: doc.url, editurl: `${doc.url}?action=edit`, canonicalurl: doc.url });
    }
    return page;
  });
  if (fv2) pages.sort((a, b) => Number(a.pageid) - Number(b.pageid));
  return { pages, warnings, excontinue };
}

function wrap(query: Json, fv2: boolean, extra: Json = {}): Json {
  return { batchcomplete: fv2 ? true : '', ...extra, query };
}

const keyed = (pages: Json[]): Json => Object.fromEntries(pages.map((pg) => [String(pg.pageid), pg]));

/** Answers one api.php request against `docs` (already filtered to the wiki's language). */
export function wikipediaApi(docs: SearchDoc[], p: Params): Json {
  const fv2 = p.get('formatversion') === '2' || p.get('formatversion') === 'latest';
  if (p.get('action') !== 'query') return apiError('badvalue', `Unrecognized value for parameter "action": ${p.get('action') ?? ''}.`);

  if (p.get('list') === 'search') {
    const q = p.get('srsearch');
    if (!q) return apiError('missingparam', 'The "srsearch" parameter must be set.');
    const lim = limit(p.get('srlimit'), 10, 500);
    const offset = Number(p.get('sroffset') ?? 0) || 0;
    const hits = lexicalSearch(docs, q);
    const search = hits.slice(offset, offset + lim).map(({ doc }) => ({
      ns: 0,
      title: doc.title,
      pageid: pageId(doc),
      size: Buffer.byteLength(doc.text),
      wordcount: wordcount(doc.text),
      snippet: snippet(doc.text, q, '<span class="searchmatch">', '</span>'),
      timestamp: TIMESTAMP,
    }));
    const more = offset + lim < hits.length ? { continue: { sroffset: offset + lim, continue: '-||' } } : {};
    return wrap({ searchinfo: { totalhits: hits.length }, search }, fv2, more);
  }

  if (p.get('generator') === 'search') {
    const q = p.get('gsrsearch');
    if (!q) return apiError('missingparam', 'The "gsrsearch" parameter must be set.');
    const lim = limit(p.get('gsrlimit'), 10, 500);
    const offset = Number(p.get('gsroffset') ?? 0) || 0;
    const all = lexicalSearch(docs, q);
    const total = all.length;
    const hits = all.slice(offset, offset + lim);
    // No hits: the real API answers with just batchcomplete, no "query" key at all.
    if (hits.length === 0) return { batchcomplete: fv2 ? true : '' };
    const r = pagesResult(hits.map((h) => h.doc), p, true, fv2, offset);
    const cont: Json = {};
    if (offset + lim < total) cont.gsroffset = offset + lim;
    if (r.excontinue !== undefined) cont.excontinue = r.excontinue;
    const extra: Json = {};
    if (Object.keys(cont).length) extra.continue = { ...cont, continue: cont.gsroffset !== undefined ? 'gsroffset||' : '||' };
    if (r.warnings) extra.warnings = r.warnings;
    return wrap({ pages: fv2 ? r.pages : keyed(r.pages) }, fv2, extra);
  }

  if (p.has('titles') || p.has('pageids')) {
    const normalized: Json[] = [];
    const found: SearchDoc[] = [];
    const missing: Json[] = [];
    if (p.has('pageids')) {
      for (const id of (p.get('pageids') ?? '').split('|')) {
        const doc = docs.find((d) => String(pageId(d)) === id);
        if (doc) found.push(doc);
        else missing.push({ pageid: Number(id), missing: fv2 ? true : '' });
      }
    }
    for (const raw of p.has('titles') ? (p.get('titles') ?? '').split('|') : []) {
      // MediaWiki normalises underscores and the first letter's case.
      const title = raw.replace(/_/g, ' ').trim().replace(/^./u, (c) => c.toUpperCase());
      if (title !== raw) normalized.push(fv2 ? { fromencoded: false, from: raw, to: title } : { from: raw, to: title });
      const doc = docs.find((d) => d.title === title || d.title.toLowerCase() === title.toLowerCase());
      if (doc) found.push(doc);
      else missing.push({ ns: 0, title, missing: fv2 ? true : '' });
    }
    const r = pagesResult(found, p, false, fv2);
    const query: Json = {};
    if (normalized.length) query.normalized = normalized;
    const all = [...r.pages, ...missing];
    // formatversion 1 keys missing titles by negative numbers: "-1", "-2", …
    let neg = 0;
    query.pages = fv2 ? all : Object.fromEntries(all.map((pg) => [typeof pg.pageid === 'number' ? String(pg.pageid) : String(--neg), pg]));
    const extra: Json = {};
    if (r.warnings) extra.warnings = r.warnings;
    if (r.excontinue !== undefined) extra.continue = { excontinue: r.excontinue, continue: '||' };
    return wrap(query, fv2, extra);
  }

  return wrap({}, fv2);
}

/** Wikipedia's edge answers errors as HTML, not as API JSON. */
export function wikipediaErrorPage(status: number): { type: string; body: string } {
  const title = status === 429 ? 'Too many requests' : 'Wikimedia Error';
  return { type: 'text/html; charset=utf-8', body: `<!DOCTYPE html><html lang="en"><meta charset="utf-8"><title>${title}</title><p>Our servers are currently under maintenance or experiencing a technical issue (HTTP ${status}).</p></html>` };
}

export const fakeWikipedia: FakeSearchProvider = {
  id: 'wikipedia',
  handle: ({ res, path, url, docs }) => {
    // Per language: /{lang}/w/api.php searches the documents in that language only.
    const lang = /^\/([a-z]{2,3}(?:-[a-z]+)?)(\/w\/api\.php)$/i.exec(path);
    const apiPath = lang?.[2] ?? path;
    if (apiPath !== '/w/api.php') return false;
    const pool = lang?.[1] ? docs.filter((d) => (d.lang ?? 'en').toLowerCase().startsWith((lang[1] as string).toLowerCase())) : docs;
    const result = wikipediaApi(pool, url.searchParams);
    // MediaWiki sends CORS headers only for origin=* (anonymous) requests.
    const cors: Record<string, string> = url.searchParams.get('origin') === '*' ? { 'access-control-allow-origin': '*' } : {};
    if ('error' in result) cors['mediawiki-api-error'] = String((result.error as { code: string }).code);
    if (url.searchParams.get('format') !== 'json') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...cors });
      res.end(`<!DOCTYPE html><html><body><pre>${JSON.stringify(result, null, 4).replace(/</g, '&lt;')}</pre></body></html>`);
    } else sendJson(res, 200, result, cors);
    return true;
  },
  fault: (res, status, headers) => {
    const page = wikipediaErrorPage(status);
    res.writeHead(status, { 'content-type': page.type, ...headers });
    res.end(page.body);
  },
  // One wiki for every language (tests that need per-language wikis use `{base}/{lang}`).
  settings: (base) => ({ baseURL: base }),
  describe: (base) => `wikipedia      ${base}/w/api.php  (per language: ${base}/{lang}/w/api.php)`,
};
