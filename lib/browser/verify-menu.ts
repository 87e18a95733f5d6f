/** The "Verify with RAT" context-menu item, titled in the language the user chose in Ratify's
 * settings (the browser's own language when that is "Browser default"), and retitled when the
 * setting changes: a menu in English beside a panel in Chinese reads as two products. */
import { browser } from 'wxt/browser';
import { pickLanguage, translate } from '../i18n/messages';
import type { Settings } from '../settings/schema';
import { loadSettings, watchSettings } from './settings-store';

const titleFor = (s: Settings) => translate(pickLanguage(s.ui.language, browser.i18n.getUILanguage()), 'verifyMenu');

export function keepVerifyMenu(id: string): void {
  const made = loadSettings().then(async (s) => {
    await browser.contextMenus.removeAll();
    browser.contextMenus.create({ id, title: titleFor(s), contexts: ['selection'] });
  });
  watchSettings((s) => {
    void made.then(() => browser.contextMenus.update(id, { title: titleFor(s) })).catch((e: unknown) => console.warn('Ratify: the menu keeps its title', e));
  });
}
