/** The worker's context-menu items, over WXT's fakeBrowser (storage, i18n) with a small fake of
 * contextMenus (fakeBrowser leaves it unmocked): titled in the language chosen in Ratify's
 * settings, and retitled when that setting changes. */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { SETTINGS_VERSION } from '../settings/migrations';
import { keepMenus } from './verify-menu';

type Item = { id: string; title: string; contexts: string[] };

function fakeMenus(): Map<string, Item> {
  const items = new Map<string, Item>();
  const menus = fakeBrowser.contextMenus as unknown as Record<string, unknown>;
  menus.removeAll = () => Promise.resolve(items.clear());
  menus.create = (p: Item) => {
    items.set(p.id, { ...p });
    return p.id;
  };
  menus.update = (id: string, p: Partial<Item>) => {
    const it = items.get(id);
    if (!it) return Promise.reject(new Error(`no menu item ${id}`));
    items.set(id, { ...it, ...p });
    return Promise.resolve();
  };
  return items;
}

describe('context menus', () => {
  beforeEach(() => {
    fakeBrowser.i18n.getUILanguage = () => 'en-US';
  });

  it('made in the browser’s language by default, then retitled when Ratify’s language changes', async () => {
    const items = fakeMenus();
    keepMenus({ verify: 'ratify-verify', checkPage: 'ratify-check-page' });
    await expect.poll(() => items.get('ratify-verify')?.title).toBe('Verify with RAT');
    expect(items.get('ratify-verify')?.contexts).toEqual(['selection']);
    expect(items.get('ratify-check-page')).toMatchObject({ title: 'Check this page' });
    expect(items.get('ratify-check-page')?.contexts).toContain('page');

    await fakeBrowser.storage.local.set({ settings: { version: SETTINGS_VERSION, ui: { language: 'zh-CN' } } });
    await expect.poll(() => items.get('ratify-verify')?.title).toBe('用 RAT 核查');
    expect(items.get('ratify-check-page')?.title).toBe('核查此页面');
  });

  it('made in the language already chosen when the worker starts', async () => {
    await fakeBrowser.storage.local.set({ settings: { version: SETTINGS_VERSION, ui: { language: 'zh-CN' } } });
    const items = fakeMenus();
    keepMenus({ verify: 'v', checkPage: 'c' });
    await expect.poll(() => items.get('v')?.title).toBe('用 RAT 核查');
  });
});
