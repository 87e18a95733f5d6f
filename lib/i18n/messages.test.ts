import { describe, expect, it } from 'vitest';
import { MESSAGES, pickLanguage, translate } from './messages';

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
