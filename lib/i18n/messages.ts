/** UI strings in English (./en.ts, the reference) and Simplified Chinese (./zh-CN.ts). Answers
 * follow the language of the question, not these. */
import { en } from './en';
import { zhCN } from './zh-CN';

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

export const MESSAGES: Record<'en' | 'zh-CN', Messages> = { en, 'zh-CN': zhCN };

export type UiLanguage = keyof typeof MESSAGES;

/** The UI language: the setting when it names one, else the browser's. */
export function pickLanguage(setting: 'auto' | UiLanguage, browserLanguage: string): UiLanguage {
  if (setting !== 'auto') return setting;
  return /^zh(-|_)?(cn|hans|sg)?$/i.test(browserLanguage) || /^zh/i.test(browserLanguage) ? 'zh-CN' : 'en';
}

export function translate(lang: UiLanguage, key: MessageKey, params: Record<string, string | number> = {}): string {
  return MESSAGES[lang][key].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`));
}
