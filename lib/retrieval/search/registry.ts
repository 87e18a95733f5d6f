/** Every web search provider Ratify knows, as one list. Settings, validation, the options form
 * and the test fakes all iterate it, so adding a provider is one file (see ./define.ts) plus its
 * fake in test/harness/search/. */
import type { z } from 'zod';
import { brave } from './brave';
import { searxng } from './searxng';
import { tavily } from './tavily';
import { wikipedia } from './wikipedia';

export type { ProviderEnv, ProviderField, SearchProviderDef } from './define';

/** In the order they are queried and shown. */
export const SEARCH_PROVIDERS = [wikipedia, searxng, brave, tavily] as const;

export type SearchProviderId = (typeof SEARCH_PROVIDERS)[number]['id'];
export type ProviderSettingsShapes = { [D in (typeof SEARCH_PROVIDERS)[number] as D['id']]: z.ZodPrefault<D['settings']> };

/** Each provider's settings object, filled with its defaults when absent. */
export function providerSettingsShapes(): ProviderSettingsShapes {
  return Object.fromEntries(SEARCH_PROVIDERS.map((d) => [d.id, d.settings.prefault({})])) as unknown as ProviderSettingsShapes;
}
