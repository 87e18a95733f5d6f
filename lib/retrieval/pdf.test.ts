import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkPdf, cutNote, isPdfUrl, pageText, PdfText, readPdf } from './pdf';
import { nodePdfJs } from './pdf-node';

// test/fixtures/site/pdf/make-pdf.mjs wrote it: four pages, the findings on page 3.
const PDF = new URL('../../test/fixtures/site/pdf/glacier-survey.pdf', import.meta.url);
const bytes = () => new Uint8Array(readFileSync(PDF));
const URL_ = 'https://reports.example/glacier-survey.pdf';

describe('reading a PDF', () => {
  it('keeps its text by page, its title and its headings', async () => {
    const page = await readPdf(await nodePdfJs(), bytes(), URL_);
    expect(page.title).toBe('Survey of the Kessler Glacier, 2024');
    expect(page.pdf?.pages).toBe(4);
    expect(page.pdf?.pageStarts).toHaveLength(4);
    expect(page.pdf?.cut).toBeUndefined();
    const starts = page.pdf?.pageStarts ?? [];
    const onPage = (n: number) => page.text.slice(starts[n - 1], starts[n] ?? page.text.length);
    expect(onPage(3)).toContain('The Kessler Glacier retreated 212 metres between 2014 and 2024.');
    expect(onPage(2)).toContain('ground-penetrating radar');
    expect(onPage(2)).not.toContain('212 metres');
    // Lines of one paragraph are one line of text (sentences are not cut at the PDF's line ends).
    expect(onPage(4)).toContain('will split into two parts before 2040.');
    expect(page.headings.map((h) => h.text)).toEqual(['Survey of the Kessler Glacier, 2024', 'Methods', 'Findings', 'Outlook']);
  });

  it('cuts passages per page: each knows its page, none straddles two', async () => {
    const page = await readPdf(await nodePdfJs(), bytes(), URL_);
    const passages = chunkPdf(page, { targetChars: 2000, origin: 'tab', tabId: 7 });
    expect(passages.map((p) => p.page)).toEqual([1, 2, 3, 4]);
    const finding = passages.find((p) => p.text.includes('212 metres'));
    expect(finding?.page).toBe(3);
    expect(finding?.headingPath).toEqual(['Findings']);
    for (const p of passages) expect(page.text.slice(p.start, p.end)).toBe(p.text);
    expect(new Set(passages.map((p) => p.id)).size).toBe(passages.length);
  });

  it('stops at the character cap, and says on which page', async () => {
    const whole = await readPdf(await nodePdfJs(), bytes(), URL_);
    const cap = (whole.pdf?.pageStarts[2] ?? 0) + 40; // 40 characters into page 3
    const page = await readPdf(await nodePdfJs(), bytes(), URL_, { maxChars: cap });
    expect(page.text.length).toBeLessThanOrEqual(cap);
    expect(page.pdf?.cut?.page).toBe(3);
    expect(page.pdf?.pageStarts).toHaveLength(3);
    expect(page.text).toContain('ground-penetrating radar');
    expect(page.text).not.toContain('2,380 metres');
    expect(cutNote(page)).toBe(`cut at ${page.text.length} characters, on page 3 of 4`);
    expect(cutNote(whole)).toBeUndefined();
  });

  it('says what is wrong with a file that is not a PDF', async () => {
    await expect(readPdf(await nodePdfJs(), new TextEncoder().encode('<html>not a pdf</html>'), URL_)).rejects.toThrow(/not a readable PDF/);
  });
});

describe('PDF text layout', () => {
  const item = (str: string, y: number, size = 12, hasEOL = true) => ({ str, y, height: size, transform: [size, 0, 0, size, 72, y], hasEOL });
  it('joins a paragraph\'s lines, re-joins hyphenated words and keeps paragraphs apart', () => {
    const t = pageText([item('Title', 760, 20), item('The gla-', 720), item('cier is old. Jean-', 704), item('Paul said so.', 688), item('Next paragraph.', 650)]);
    expect(t.text).toBe('Title\nThe glacier is old. Jean-Paul said so.\nNext paragraph.');
    expect(t.headings).toEqual([{ level: 2, text: 'Title', offset: 0 }]);
  });
});

describe('joining pages up to the cap', () => {
  it('records where each page starts and shifts its headings there', () => {
    const t = new PdfText(2, 1000);
    expect(t.add(1, { text: 'One.', headings: [] })).toBe(true);
    expect(t.add(2, { text: 'Two heads.', headings: [{ level: 2, text: 'Two', offset: 0 }] })).toBe(true);
    expect(t.text).toBe('One.\nTwo heads.');
    expect(t.layout).toEqual({ pageStarts: [0, 5], pages: 2 });
    expect(t.headings).toEqual([{ level: 2, text: 'Two', offset: 5 }]);
  });

  it('keeps the page that does not fit up to a word boundary, records the cut and takes no more', () => {
    const t = new PdfText(3, 20);
    t.add(1, { text: 'First page.', headings: [] });
    expect(t.add(2, { text: 'Second page words here.', headings: [{ level: 2, text: 'Late', offset: 12 }] })).toBe(false);
    expect(t.text).toBe('First page.\nSecond');
    expect(t.layout.cut).toEqual({ page: 2, chars: 18 });
    expect(t.headings).toEqual([]); // its heading lies beyond the cut
  });
});

it('recognises PDF addresses', () => {
  expect(isPdfUrl('https://a.example/x/Report.PDF')).toBe(true);
  expect(isPdfUrl('https://a.example/x.pdf?download=1')).toBe(true);
  expect(isPdfUrl('https://a.example/pdf/view')).toBe(false);
});
