/** Brave Search API (web results). The key goes only to the configured Brave base URL. */
import { fetchJson, httpUrl, isObject, joinUrl, ProviderError, str, type SearchContext, type SearchHit, type SearchProvider } from './provider';
import { stripTags } from '../../core/text';

export function createBrave(opts: { baseURL: string; apiKey: string }): SearchProvider {
  return {
    name: 'brave',
    async search(query: string, ctx: SearchContext): Promise<SearchHit[]> {
      if (!opts.apiKey.trim()) throw new ProviderError('no Brave API key set');
      const q = new URLSearchParams({ q: query, count: String(Math.min(20, Math.max(1, ctx.limit))) });
      const body = await fetchJson(ctx.fetch, `${joinUrl(opts.baseURL, '/res/v1/web/search')}?${q}`, {
        signal: ctx.signal,
        headers: { accept: 'application/json', 'x-subscription-token': opts.apiKey.trim() },
      });
      // No web results: Brave leaves the `web` section out entirely.
      const web = isObject(body) && isObject(body.web) && Array.isArray(body.web.results) ? body.web.results.filter(isObject) : [];
      const hits: SearchHit[] = [];
      for (const r of web) {
        const url = httpUrl(str(r.url));
        if (url) hits.push({ url, title: stripTags(str(r.title)) || url, snippet: stripTags(str(r.description)) });
        if (hits.length >= ctx.limit) break;
      }
      return hits;
    },
  };
}
