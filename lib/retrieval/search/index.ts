/** The enabled providers from the search settings, in a fixed order. */
import type { SearchSettings } from '../../settings/schema';
import { createBrave } from './brave';
import type { SearchProvider } from './provider';
import { createSearxng } from './searxng';
import { createTavily } from './tavily';
import { createWikipedia } from './wikipedia';

export type { SearchHit, SearchProvider, SearchContext } from './provider';
export { ProviderError } from './provider';

export function providersFromSettings(s: SearchSettings, opts: { defaultLang?: string } = {}): SearchProvider[] {
  const out: SearchProvider[] = [];
  if (s.wikipedia.enabled && s.wikipedia.baseURL.trim()) out.push(createWikipedia({ baseURL: s.wikipedia.baseURL, defaultLang: opts.defaultLang }));
  if (s.searxng.enabled && s.searxng.baseURL.trim()) out.push(createSearxng({ baseURL: s.searxng.baseURL }));
  if (s.brave.enabled) out.push(createBrave({ baseURL: s.brave.baseURL, apiKey: s.brave.apiKey }));
  if (s.tavily.enabled) out.push(createTavily({ baseURL: s.tavily.baseURL, apiKey: s.tavily.apiKey }));
  return out;
}
