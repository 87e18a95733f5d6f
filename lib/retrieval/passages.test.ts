import { describe, expect, it } from 'vitest';
import type { ReadablePage } from './page';
import { pageFromMarkedText } from './page';
import { chunkPage, sentenceSpans } from './passages';

const page = (text: string, extra: Partial<ReadablePage> = {}): ReadablePage => ({ url: 'https://x.example/a', hash: 'h1', title: 'A page', text, headings: [], ...extra });

describe('passages', () => {
  it('cuts at sentence boundaries near the target size, with offsets into the source text', () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} says something about topic ${i}.`).join(' ');
    const ps = chunkPage(page(text), { targetChars: 200, origin: 'tab', tabId: 3 });
    expect(ps.length).toBeGreaterThan(5);
    for (const p of ps) {
      expect(text.slice(p.start, p.end)).toBe(p.text);
      expect(p.text).toMatch(/^Sentence number \d+/);
      expect(p.text).toMatch(/\.$/);
      expect(p.text.length).toBeLessThanOrEqual(300);
      expect(p.tabId).toBe(3);
      expect(p.origin).toBe('tab');
    }
  });

  it('gives the same ids for the same page and different ids when the content changes', () => {
    const a = chunkPage(page('One. Two. Three.'), { targetChars: 600, origin: 'web' });
    const b = chunkPage(page('One. Two. Three.'), { targetChars: 600, origin: 'web' });
    const c = chunkPage(page('One. Two. Three.', { hash: 'h2' }), { targetChars: 600, origin: 'web' });
    expect(a.map((p) => p.id)).toEqual(b.map((p) => p.id));
    expect(a[0].id).not.toBe(c[0].id);
  });

  it('splits Chinese and Japanese at their sentence marks', () => {
    const zh = '屠呦呦是中国药学家。她发现了青蒿素，用于治疗疟疾！这一发现挽救了数百万人的生命。2015年她获得诺贝尔生理学或医学奖。';
    const spans = sentenceSpans(zh, 'zh');
    expect(spans.map(([s, e]) => zh.slice(s, e))).toEqual(['屠呦呦是中国药学家。', '她发现了青蒿素，用于治疗疟疾！', '这一发现挽救了数百万人的生命。', '2015年她获得诺贝尔生理学或医学奖。']);
    const ps = chunkPage(page(zh.repeat(6), { lang: 'zh' }), { targetChars: 80, origin: 'tab' });
    expect(ps.length).toBeGreaterThan(2);
    for (const p of ps) expect(p.text).toMatch(/[。！]$/);
    const ja = '富士山は日本一高い山です。標高は3776メートルです。';
    expect(sentenceSpans(ja, 'ja').length).toBe(2);
  });

  it('handles right-to-left text', () => {
    const ar = 'القاهرة هي عاصمة مصر. يبلغ عدد سكانها أكثر من عشرين مليون نسمة. تقع على ضفاف النيل.';
    const spans = sentenceSpans(ar, 'ar');
    expect(spans.length).toBe(3);
    expect(ar.slice(...spans[1])).toBe('يبلغ عدد سكانها أكثر من عشرين مليون نسمة.');
  });

  it('keeps each passage under one heading path', () => {
    const p = pageFromMarkedText('https://w.example/Mozilla', 'Mozilla', 'Mozilla is a community.\n\n\n== History ==\nIt began in 1998.\n\n\n=== Netscape ===\nNetscape released its code.\n\n\n== Empty ==\n\n\n== Products ==\nFirefox is a browser.', 'h');
    const ps = chunkPage(p, { targetChars: 600, origin: 'web' });
    expect(ps.map((x) => [x.headingPath, x.text])).toEqual([
      [[], 'Mozilla is a community.'],
      [['History'], 'History\nIt began in 1998.'],
      [['History', 'Netscape'], 'Netscape\nNetscape released its code.'],
      [['Products'], 'Products\nFirefox is a browser.'],
    ]);
  });

  it('cuts a very long line into bounded passages quickly', () => {
    const text = 'word '.repeat(40_000);
    const t0 = performance.now();
    const ps = chunkPage(page(text), { targetChars: 600, origin: 'tab' });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(Math.max(...ps.map((p) => p.text.length))).toBeLessThanOrEqual(900);
    expect(ps[ps.length - 1].end).toBeGreaterThan(text.length - 10);
  });
});
