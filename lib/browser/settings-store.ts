import { storage } from 'wxt/utils/storage';
import { migrateSettings, toStored } from '../settings/migrations';
import { withDefaults, type Settings } from '../settings/schema';

/** Settings live in storage.local (one item, versioned: see lib/settings/migrations.ts); readers
 * always get them migrated, with defaults filled in. */
export const settingsItem = storage.defineItem<Record<string, unknown>>('local:settings');

export function settingsFromStored(stored: unknown): Settings {
  return withDefaults(migrateSettings(stored).raw);
}

export async function loadSettings(): Promise<Settings> {
  return settingsFromStored(await settingsItem.getValue());
}

export async function saveSettings(s: Settings): Promise<void> {
  await settingsItem.setValue(toStored(s));
}

export function watchSettings(cb: (s: Settings) => void): () => void {
  return settingsItem.watch((v) => cb(settingsFromStored(v)));
}
