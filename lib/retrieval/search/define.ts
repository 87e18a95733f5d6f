/** What a search provider file exports: its id and label, its settings (a zod object, defaults
 * included), the fields the options form shows, and how to create it. */
import type { z } from 'zod';
import type { SearchProvider } from './provider';
/** A settings field the options form shows for a provider. */
export interface ProviderField {
  key: 'baseURL' | 'apiKey';
  kind: 'url' | 'secret';
  /** Must be filled while the provider is enabled. */
  requiredWhenEnabled: boolean;
  placeholder?: string;
}

export interface ProviderEnv {
  /** Language for queries whose script does not say (Latin script). */
  defaultLang?: string;
}

type ProviderSettingsShape = { enabled: z.ZodDefault<z.ZodBoolean>; baseURL: z.ZodType<string> } & Partial<Record<'apiKey', z.ZodType<string>>>;

export interface SearchProviderDef<Id extends string = string, S extends z.ZodObject<ProviderSettingsShape> = z.ZodObject<ProviderSettingsShape>> {
  id: Id;
  label: string;
  /** Keyed providers must use https unless the host is this machine (lib/settings). */
  keyed: boolean;
  settings: S;
  fields: ProviderField[];
  create(settings: z.output<S>, env: ProviderEnv): SearchProvider;
}

/** Keeps a definition's literal id and settings type (for the settings schema's inference). */
export function defineSearchProvider<Id extends string, S extends z.ZodObject<ProviderSettingsShape>>(def: SearchProviderDef<Id, S>): SearchProviderDef<Id, S> {
  return def;
}

