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
    expect(a[0]!.id).not.toBe(c[0]!.id);
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
    expect(ar.slice(...spans[1]!)).toBe('يبلغ عدد سكانها أكثر من عشرين مليون نسمة.');
  });

  it('starts a passage at each heading once the passage before holds enough, with its heading path', () => {
    const body = (what: string) => `${what} is described in this section at some length. `.repeat(3).trim();
    const text = `${body('Mozilla')}\n\n\n== History ==\n${body('History')}\n\n\n=== Netscape ===\n${body('Netscape')}\n\n\n== Empty ==\n\n\n== Products ==\n${body('Firefox')}`;
    const p = pageFromMarkedText('https://w.example/Mozilla', 'Mozilla', text, 'h');
    const ps = chunkPage(p, { targetChars: 200, origin: 'web' }); // each section ~170 chars ≥ 0.6 × 200
    expect(ps.map((x) => [x.headingPath, x.text.split('\n')[0]])).toEqual([
      [[], body('Mozilla')],
      [['History'], 'History'],
      [['History', 'Netscape'], 'Netscape'],
      [['Products'], 'Products'],
    ]);
  });

  it('lets short sections join the passage before, which keeps the heading path they share', () => {
    // A feature list: one line under each heading. Alone, each would be a passage too short to
    // hold an answer with its context.
    const text = 'Firefox features.\n\n\n== Tools ==\n\n\n=== Inspector ===\nExamine the HTML and CSS of a page.\n\n\n=== Debugger ===\nStep through JavaScript code.\n\n\n== Privacy ==\nBlock trackers.';
    const p = pageFromMarkedText('https://w.example/Firefox', 'Firefox', text, 'h');
    const ps = chunkPage(p, { targetChars: 600, origin: 'web' });
    expect(ps).toHaveLength(1);
    expect(ps[0]?.text).toContain('Inspector\nExamine the HTML and CSS of a page.\nDebugger\nStep through JavaScript code.');
    expect(ps[0]?.headingPath).toEqual([]);
    const tools = chunkPage(pageFromMarkedText('https://w.example/Tools', 'Tools', text.slice(text.indexOf('== Tools')), 'h'), { targetChars: 600, origin: 'web' });
    expect(tools.map((x) => x.headingPath)).toEqual([[]]);
    const inTools = chunkPage(pageFromMarkedText('https://w.example/T', 'T', '== Tools ==\n\n\n=== Inspector ===\nExamine it.\n\n\n=== Debugger ===\nStep through it.', 'h'), { targetChars: 600, origin: 'web' });
    expect(inTools.map((x) => x.headingPath)).toEqual([['Tools']]);
  });

  it('cuts a very long line into bounded passages quickly', () => {
    const text = 'word '.repeat(40_000);
    const t0 = performance.now();
    const ps = chunkPage(page(text), { targetChars: 600, origin: 'tab' });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(Math.max(...ps.map((p) => p.text.length))).toBeLessThanOrEqual(900);
    expect(ps[ps.length - 1]!.end).toBeGreaterThan(text.length - 10);
  });
});
