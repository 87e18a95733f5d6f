/** Settings in storage.local, through WXT's fakeBrowser: what the options page saves is what the
 * worker loads and what a watcher sees, always migrated and with defaults filled in. */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { SETTINGS_VERSION } from '../settings/migrations';
import { withDefaults } from '../settings/schema';
import { loadSettings, saveSettings, watchSettings } from './settings-store';

describe('settings store', () => {
  it('nothing stored yet: the defaults', async () => {
    expect(await loadSettings()).toEqual(withDefaults({}));
  });

  it('what is saved is loaded back, stored with its format version', async () => {
    const s = withDefaults({ llm: { preset: 'custom', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm' } });
    await saveSettings(s);
    expect(await loadSettings()).toEqual(s);
    const { settings } = await fakeBrowser.storage.local.get('settings');
    expect((settings as { version?: number }).version).toBe(SETTINGS_VERSION);
  });

  it('a watcher sees a change written by another page, with defaults filled in', async () => {
    const seen: string[] = [];
    const stop = watchSettings((s) => seen.push(s.llm.model));
    await fakeBrowser.storage.local.set({ settings: { version: SETTINGS_VERSION, llm: { model: 'qwen3:8b' } } });
    await expect.poll(() => seen).toEqual(['qwen3:8b']);
    stop();
    // A watcher still on proves the next change has been delivered; the stopped one saw nothing.
    const later: string[] = [];
    watchSettings((s) => later.push(s.llm.model));
    await fakeBrowser.storage.local.set({ settings: { version: SETTINGS_VERSION, llm: { model: 'other' } } });
    await expect.poll(() => later).toEqual(['other']);
    expect(seen).toEqual(['qwen3:8b']);
  });
});
