/** The enabled providers from the search settings, in the descriptors' order
 * (lib/settings/search-providers.ts); this file is where each id meets its implementation. */
import type { SearchSettings } from '../../settings/schema';
import { SEARCH_PROVIDERS, type SearchProviderId } from '../../settings/search-providers';
import { createBrave } from './brave';
import type { SearchProvider } from './provider';
import { createSearxng } from './searxng';
import { createTavily } from './tavily';
import { createWikipedia } from './wikipedia';

export type { SearchHit, SearchProvider, SearchContext } from './provider';
export { ProviderError } from './provider';

export interface ProviderEnv {
  /** Language for queries whose script does not say (Latin script). */
  defaultLang?: string;
}

/** How each provider is created from its own settings. */
const CREATE: { [Id in SearchProviderId]: (settings: SearchSettings[Id], env: ProviderEnv) => SearchProvider } = {
  wikipedia: (s, env) => createWikipedia({ baseURL: s.baseURL, defaultLang: env.defaultLang }),
  searxng: (s) => createSearxng(s),
  brave: (s) => createBrave(s),
  tavily: (s) => createTavily(s),
};

export function providersFromSettings(s: SearchSettings, env: ProviderEnv = {}): SearchProvider[] {
  const out: SearchProvider[] = [];
  for (const def of SEARCH_PROVIDERS) {
    const own = s[def.id];
    // A provider without its base URL cannot be asked; validation tells the user.
    if (!own.enabled || !own.baseURL.trim()) continue;
    // The union of ids cannot be narrowed per element; each create takes its own settings.
    out.push((CREATE[def.id] as (x: typeof own, e: ProviderEnv) => SearchProvider)(own, env));
  }
  return out;
}
