import { describe, expect, it } from 'vitest';
import { MESSAGES, pickLanguage, translate } from './messages';
import { marksLabels } from '../page-marks/labels';
import { VERDICTS } from '../core/verdicts';

describe('UI language', () => {
  it('follows the browser unless the setting names a language', () => {
    expect(pickLanguage('auto', 'zh-CN')).toBe('zh-CN');
    expect(pickLanguage('auto', 'zh')).toBe('zh-CN');
    expect(pickLanguage('auto', 'en-GB')).toBe('en');
    expect(pickLanguage('auto', 'fr')).toBe('en');
    expect(pickLanguage('en', 'zh-CN')).toBe('en');
    expect(pickLanguage('zh-CN', 'en-US')).toBe('zh-CN');
  });

  it('fills parameters and keeps every placeholder in every language', () => {
    expect(translate('en', 'stepOf', { i: 2, n: 5 })).toBe('Step 2 of 5');
    expect(translate('zh-CN', 'stepOf', { i: 2, n: 5 })).toBe('第 2 步，共 5 步');
    const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const [key, text] of Object.entries(MESSAGES.en)) {
      expect(placeholders(MESSAGES['zh-CN'][key as keyof typeof MESSAGES.en]), key).toEqual(placeholders(text));
    }
  });
});

describe('one vocabulary', () => {
  it('every language has every string, none left empty by mistake', () => {
    for (const [lang, msgs] of Object.entries(MESSAGES)) {
      expect(Object.keys(msgs).sort(), lang).toEqual(Object.keys(MESSAGES.en).sort());
      for (const [k, v] of Object.entries(msgs)) if (k !== 'errCancelledHint') expect(v.trim(), `${lang}.${k}`).not.toBe('');
    }
  });

  it('verdicts have one name per language, in the panel and in the page marks', () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      for (const v of VERDICTS) expect(marksLabels(lang).verdict[v]).toBe(translate(lang, `verdict_${v}`));
    }
  });
});
