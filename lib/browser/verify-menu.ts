/** Ratify's context-menu items ("Verify with RAT" on a selection; "Check this page" on the page
 * and on the toolbar button, the way in for a PDF viewer, which has no page menu), titled in the
 * language the user chose in Ratify's settings (the browser's own language when that is "Browser
 * default"), and retitled when the setting changes: a menu in English beside a panel in Chinese
 * reads as two products. */
import { browser } from 'wxt/browser';
import { pickLanguage, translate } from '../i18n/messages';
import type { Settings } from '../settings/schema';
import { loadSettings, watchSettings } from './settings-store';

const lang = (s: Settings) => pickLanguage(s.ui.language, browser.i18n.getUILanguage());

export function keepMenus(ids: { verify: string; checkPage: string }): void {
  const made = loadSettings().then(async (s) => {
    await browser.contextMenus.removeAll();
    browser.contextMenus.create({ id: ids.verify, title: translate(lang(s), 'verifyMenu'), contexts: ['selection'] });
    const action = (browser.sidePanel ? 'action' : 'browser_action') as 'action';
    browser.contextMenus.create({ id: ids.checkPage, title: translate(lang(s), 'checkPage'), contexts: ['page', action] });
  });
  watchSettings((s) => {
    void made
      .then(async () => {
        await browser.contextMenus.update(ids.verify, { title: translate(lang(s), 'verifyMenu') });
        await browser.contextMenus.update(ids.checkPage, { title: translate(lang(s), 'checkPage') });
      })
      .catch((e: unknown) => console.warn('Ratify: the menu keeps its title', e));
  });
}
