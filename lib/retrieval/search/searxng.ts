/** A self-hosted SearXNG instance through its JSON API (the instance must enable `json` in
 * `search.formats`; a 403 says it does not). */
import { httpUrl, isObject, joinUrl, ProviderError, fetchJson, str, type SearchContext, type SearchHit, type SearchProvider } from './provider';
import { stripTags } from '../../core/text';

export function createSearxng(opts: { baseURL: string }): SearchProvider {
  return {
    name: 'searxng',
    async search(query: string, ctx: SearchContext): Promise<SearchHit[]> {
      if (!opts.baseURL.trim()) throw new ProviderError('no SearXNG URL set');
      const q = new URLSearchParams({ q: query, format: 'json', pageno: '1', safesearch: '1' });
      let body: unknown;
      try {
        body = await fetchJson(ctx.fetch, `${joinUrl(opts.baseURL, '/search')}?${q}`, { signal: ctx.signal, headers: { accept: 'application/json' } });
      } catch (e) {
        if (e instanceof ProviderError && e.status === 403) throw new ProviderError(`${e.message} (enable the json format in the instance's settings.yml)`, 403);
        throw e;
      }
      const results = isObject(body) && Array.isArray(body.results) ? body.results.filter(isObject) : [];
      const hits: SearchHit[] = [];
      for (const r of results) {
        const url = httpUrl(str(r.url));
        if (url) hits.push({ url, title: stripTags(str(r.title)) || url, snippet: stripTags(str(r.content)) });
        if (hits.length >= ctx.limit) break;
      }
      return hits;
    },
  };
}
