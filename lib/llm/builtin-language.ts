/** The language a prompt is written in, as far as the built-in model needs to know: Chrome's
 * Prompt API is told which languages to expect, and refuses the ones its model does not handle.
 * The script decides (Han, kana, Hangul, Cyrillic, …); Latin text counts as English, the
 * instructions' own language. Only the user's text is looked at, not Ratify's English
 * instructions around it. */
import { SCRIPT_LANGS } from '../core/text';

/** The retrieval core's script table, counting every match. */
const SCRIPTS: [RegExp, string][] = SCRIPT_LANGS.map(([re, lang]) => [new RegExp(re.source, 'gu'), lang]);

export function scriptLanguage(text: string): string {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  if (!letters) return 'en';
  // Japanese mixes kana with Han: any kana at all makes it Japanese.
  for (const [re, lang] of SCRIPTS) {
    const n = (text.match(re) ?? []).length;
    if (lang === 'ja' ? n > 0 : n / letters > 0.2) return lang;
  }
  return 'en';
}

export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code; // an engine without display names: the code is still clear enough
  }
}
