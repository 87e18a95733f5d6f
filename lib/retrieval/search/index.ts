/** The enabled providers from the search settings, in the registry's order. */
import type { SearchSettings } from '../../settings/schema';
import type { SearchProvider } from './provider';
import { SEARCH_PROVIDERS, type ProviderEnv } from './registry';

export type { SearchHit, SearchProvider, SearchContext } from './provider';
export { ProviderError } from './provider';
export { SEARCH_PROVIDERS, type SearchProviderId, type SearchProviderDef, type ProviderField } from './registry';

export function providersFromSettings(s: SearchSettings, env: ProviderEnv = {}): SearchProvider[] {
  const out: SearchProvider[] = [];
  for (const def of SEARCH_PROVIDERS) {
    const own = s[def.id];
    // A provider without its base URL cannot be asked; validation tells the user.
    if (!own.enabled || !own.baseURL.trim()) continue;
    // The union of definitions cannot be narrowed per element; each create takes its own settings.
    out.push((def.create as (x: typeof own, e: ProviderEnv) => SearchProvider)(own, env));
  }
  return out;
}
