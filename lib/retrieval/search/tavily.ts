/** Tavily Search API. Asks for the pages' raw content so result pages need no fetch of their own.
 * The key goes only to the configured Tavily base URL, as a bearer token. */
import { pageFromMarkedText } from '../page';
import { hashText, stripTags } from '../../core/text';
import { fetchJson, httpUrl, isObject, joinUrl, ProviderError, str, type SearchContext, type SearchHit, type SearchProvider } from './provider';

export function createTavily(opts: { baseURL: string; apiKey: string; maxChars?: number }): SearchProvider {
  const maxChars = opts.maxChars ?? 100_000;
  return {
    name: 'tavily',
    async search(query: string, ctx: SearchContext): Promise<SearchHit[]> {
      if (!opts.apiKey.trim()) throw new ProviderError('no Tavily API key set');
      const body = await fetchJson(ctx.fetch, joinUrl(opts.baseURL, '/search'), {
        method: 'POST',
        signal: ctx.signal,
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${opts.apiKey.trim()}` },
        body: JSON.stringify({ query, max_results: Math.min(20, Math.max(1, ctx.limit)), search_depth: 'basic', include_raw_content: true, include_answer: false }),
      });
      const results = isObject(body) && Array.isArray(body.results) ? body.results.filter(isObject) : [];
      const hits: SearchHit[] = [];
      for (const r of results) {
        const url = httpUrl(str(r.url));
        if (!url) continue;
        const title = stripTags(str(r.title)) || url;
        const hit: SearchHit = { url, title, snippet: stripTags(str(r.content)) };
        const raw = str(r.raw_content);
        if (raw.trim()) hit.page = pageFromMarkedText(url, title, raw.slice(0, maxChars), hashText(raw));
        hits.push(hit);
        if (hits.length >= ctx.limit) break;
      }
      return hits;
    },
  };
}
