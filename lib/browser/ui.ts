/** Small browser facts the extension's pages need. */
import { browser } from 'wxt/browser';

/** The browser's UI language (e.g. "zh-CN"), for `pickLanguage`. */
export function browserUiLanguage(): string {
  return browser.i18n?.getUILanguage?.() ?? navigator.language;
}

export function openOptionsPage(): void {
  void browser.runtime.openOptionsPage();
}
