import { storage } from 'wxt/utils/storage';
import { withDefaults, type Settings, type SettingsPatch } from '../settings/schema';

/** Settings live in storage.local (one item); readers always get defaults filled in. */
export const settingsItem = storage.defineItem<SettingsPatch>('local:settings');

/** The run the side panel should show; set by the worker when it starts a run (e.g. from the
 * context menu), so a panel opening at the same moment picks it up without any timer. */
export const activeRunItem = storage.defineItem<string | null>('local:activeRunId', { fallback: null });

export async function loadSettings(): Promise<Settings> {
  return withDefaults(await settingsItem.getValue());
}

export async function saveSettings(s: Settings): Promise<void> {
  await settingsItem.setValue(s);
}

export function watchSettings(cb: (s: Settings) => void): () => void {
  return settingsItem.watch((v) => cb(withDefaults(v)));
}
