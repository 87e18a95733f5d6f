/** One fake per provider of Ratify's registry (lib/settings/search-providers.ts); the
 * `satisfies` makes a provider without a fake a type error. */
import type { SearchProviderId } from '../../../lib/settings/search-providers.ts';
import { fakeBrave } from './brave.ts';
import type { FakeSearchProvider } from './fake-provider.ts';
import { fakeSearxng } from './searxng.ts';
import { fakeTavily } from './tavily.ts';
import { fakeWikipedia } from './wikipedia.ts';

export const FAKE_SEARCH = { wikipedia: fakeWikipedia, searxng: fakeSearxng, brave: fakeBrave, tavily: fakeTavily } satisfies Record<SearchProviderId, FakeSearchProvider>;

export const FAKE_SEARCH_IDS = Object.keys(FAKE_SEARCH) as SearchProviderId[];
