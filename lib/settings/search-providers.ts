/** Every web search provider Ratify knows, as descriptors: its id and label, whether it takes a
 * key, its settings (a zod object, defaults included) and the fields the options form shows.
 * Settings, validation, the options form and the test fakes all iterate this one list; the
 * implementations live in lib/retrieval/search/ (created by id in its index.ts), so the options
 * page and the panel never load them. Adding a provider is a descriptor here, its file there and
 * its fake in test/harness/search/. */
import { z } from 'zod';
import { urlField } from './fields';

/** A settings field the options form shows for a provider. */
export interface ProviderField {
  key: 'baseURL' | 'apiKey';
  kind: 'url' | 'secret';
  /** Must be filled while the provider is enabled. */
  requiredWhenEnabled: boolean;
  placeholder?: string;
}

type ProviderSettingsShape = { enabled: z.ZodDefault<z.ZodBoolean>; baseURL: z.ZodType<string> } & Partial<Record<'apiKey', z.ZodType<string>>>;

export interface SearchProviderDef<Id extends string = string, S extends z.ZodObject<ProviderSettingsShape> = z.ZodObject<ProviderSettingsShape>> {
  id: Id;
  label: string;
  /** Keyed providers must use https unless the host is this machine (lib/settings). */
  keyed: boolean;
  settings: S;
  fields: ProviderField[];
}

/** Keeps a definition's literal id and settings type (for the settings schema's inference). */
function defineSearchProvider<Id extends string, S extends z.ZodObject<ProviderSettingsShape>>(def: SearchProviderDef<Id, S>): SearchProviderDef<Id, S> {
  return def;
}

const wikipedia = defineSearchProvider({
  id: 'wikipedia',
  label: 'Wikipedia',
  keyed: false,
  settings: z.object({
    enabled: z.boolean().default(true),
    baseURL: urlField.default('https://{lang}.wikipedia.org'),
  }),
  fields: [{ key: 'baseURL', kind: 'url', requiredWhenEnabled: true }],
});

const searxng = defineSearchProvider({
  id: 'searxng',
  label: 'SearXNG',
  keyed: false,
  settings: z.object({
    enabled: z.boolean().default(false),
    baseURL: urlField.default(''),
  }),
  fields: [{ key: 'baseURL', kind: 'url', requiredWhenEnabled: true, placeholder: 'https://searx.example.org' }],
});

const brave = defineSearchProvider({
  id: 'brave',
  label: 'Brave Search API',
  keyed: true,
  settings: z.object({
    enabled: z.boolean().default(false),
    baseURL: urlField.default('https://api.search.brave.com'),
    apiKey: z.string().trim().default(''),
  }),
  fields: [
    { key: 'apiKey', kind: 'secret', requiredWhenEnabled: true },
    { key: 'baseURL', kind: 'url', requiredWhenEnabled: true },
  ],
});

const tavily = defineSearchProvider({
  id: 'tavily',
  label: 'Tavily',
  keyed: true,
  settings: z.object({
    enabled: z.boolean().default(false),
    baseURL: urlField.default('https://api.tavily.com'),
    apiKey: z.string().trim().default(''),
  }),
  fields: [
    { key: 'apiKey', kind: 'secret', requiredWhenEnabled: true },
    { key: 'baseURL', kind: 'url', requiredWhenEnabled: true },
  ],
});

/** In the order they are queried and shown. */
export const SEARCH_PROVIDERS = [wikipedia, searxng, brave, tavily] as const;

export type SearchProviderId = (typeof SEARCH_PROVIDERS)[number]['id'];
export type ProviderSettingsShapes = { [D in (typeof SEARCH_PROVIDERS)[number] as D['id']]: z.ZodPrefault<D['settings']> };

/** Each provider's settings object, filled with its defaults when absent. */
export function providerSettingsShapes(): ProviderSettingsShapes {
  return Object.fromEntries(SEARCH_PROVIDERS.map((d) => [d.id, d.settings.prefault({})])) as unknown as ProviderSettingsShapes;
}
