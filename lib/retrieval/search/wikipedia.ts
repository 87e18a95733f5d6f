/** Wikipedia through the MediaWiki Action API: keyless, the default provider. The edition follows
 * the query's script ('https://{lang}.wikipedia.org'); plain-text extracts come with the API, so
 * no result page has to be fetched and parsed. */
import { pageFromMarkedText } from '../page';
import { guessLanguage, hashText, stripTags } from '../../core/text';
import { fetchJson, isObject, joinUrl, ProviderError, str, type SearchContext, type SearchHit, type SearchProvider } from './provider';

export interface WikipediaOptions {
  /** e.g. 'https://{lang}.wikipedia.org'; without {lang} the one wiki is used for every query. */
  baseURL: string;
  /** Language when the query's script does not say (Latin script). */
  defaultLang?: string;
  /** Longest extract kept per article, in characters. */
  maxChars?: number;
}

function apiError(j: unknown): ProviderError | undefined {
  if (!isObject(j) || !isObject(j.error)) return undefined;
  return new ProviderError(`${str(j.error.code)}: ${str(j.error.info)}`.slice(0, 200));
}

export function wikipediaBase(template: string, query: string, defaultLang = 'en'): { base: string; lang: string } {
  const lang = guessLanguage(query, defaultLang);
  return { base: template.replace('{lang}', lang), lang };
}

export function createWikipedia(opts: WikipediaOptions): SearchProvider {
  const maxChars = opts.maxChars ?? 100_000;
  return {
    name: 'wikipedia',
    async search(query: string, ctx: SearchContext): Promise<SearchHit[]> {
      const { base, lang } = wikipediaBase(opts.baseURL, query, opts.defaultLang);
      const api = joinUrl(base, '/w/api.php');
      const common = { action: 'query', format: 'json', formatversion: '2', origin: '*' };
      const q = new URLSearchParams({ ...common, list: 'search', srsearch: query, srlimit: String(ctx.limit), srprop: 'snippet' });
      const found = await fetchJson(ctx.fetch, `${api}?${q}`, { signal: ctx.signal, headers: { accept: 'application/json' } });
      const err = apiError(found);
      if (err) throw err;
      const list = isObject(found) && isObject(found.query) && Array.isArray(found.query.search) ? found.query.search : [];
      const hits = list.filter(isObject).slice(0, ctx.limit);
      // Whole-article extracts come one page per request (a TextExtracts limit), so in parallel.
      return Promise.all(
        hits.map(async (h): Promise<SearchHit> => {
          const title = str(h.title);
          const fallbackUrl = joinUrl(base, `/wiki/${encodeURIComponent(title.replace(/ /g, '_'))}`);
          const hit: SearchHit = { url: fallbackUrl, title, snippet: stripTags(str(h.snippet)) };
          try {
            const p = new URLSearchParams({ ...common, prop: 'extracts|info', inprop: 'url', explaintext: '1', redirects: '1', titles: title });
            const r = await fetchJson(ctx.fetch, `${api}?${p}`, { signal: ctx.signal, headers: { accept: 'application/json' } });
            const e = apiError(r);
            if (e) throw e;
            const pages = isObject(r) && isObject(r.query) ? r.query.pages : undefined;
            const page = (Array.isArray(pages) ? pages : isObject(pages) ? Object.values(pages) : []).find(isObject);
            const extract = page ? str(page.extract) : '';
            if (page && extract) {
              const url = str(page.fullurl) || str(page.canonicalurl) || fallbackUrl;
              hit.url = url;
              hit.page = pageFromMarkedText(url, str(page.title) || title, extract.slice(0, maxChars), hashText(extract), str(page.pagelanguage) || lang);
            }
          } catch (e) {
            if (ctx.signal.aborted) throw e;
            // The snippet still serves as evidence when one article's extract fails.
          }
          return hit;
        }),
      );
    },
  };
}
