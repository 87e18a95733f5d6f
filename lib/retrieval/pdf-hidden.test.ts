/** Text a reader of a PDF cannot see never reaches the model: a PDF written operator by operator
 * (test/fixtures/site/pdf/hidden-pdf.ts) hides "HIDDEN-NN" sentences in the ways PDFs can, beside
 * "VISIBLE-NN" sentences that must stay; real PDFs lose nothing. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hiddenPdf, invisiblePdf } from '../../test/fixtures/site/pdf/hidden-pdf';
import { chunkPdf, pageText, readPdf, type PdfJs } from './pdf';
import { nodePdfJs } from './pdf-node';
import { judgeGlyphs, type HiddenReason } from './pdf-visibility';

const tokens = (text: string, kind: 'HIDDEN' | 'VISIBLE') => [...new Set(text.match(new RegExp(`${kind}-\\d\\d`, 'g')) ?? [])].sort();
const range = (kind: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${kind}-${String(from + i).padStart(2, '0')}`);
const URL_ = 'https://reports.example/vault.pdf';

/** The text as Ratify read PDFs before: pdf.js's text content, unfiltered. */
async function unfilteredText(pdfjs: PdfJs, bytes: Uint8Array): Promise<string> {
  const task = pdfjs.getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) parts.push(pageText((await (await doc.getPage(n)).getTextContent()).items).text);
  await task.destroy();
  return parts.join('\n');
}

describe('hidden text in PDFs', () => {
  it('leaves out every way of hiding text and keeps every visible sentence', async () => {
    const pdfjs = await nodePdfJs();
    const page = await readPdf(pdfjs, hiddenPdf(), URL_);
    const before = tokens(await unfilteredText(pdfjs, hiddenPdf()), 'HIDDEN');
    const leaked = tokens(page.text, 'HIDDEN');
    console.log(`PDF: ${before.length}/24 hidden sentences in the text without the filter (${range('HIDDEN', 1, 24).filter((t) => !before.includes(t)).join(' ')} already dropped by pdf.js), ${leaked.length}/24 with it`);
    // pdf.js itself drops only the text off the page: the rest reached the model before.
    expect(before).toEqual(range('HIDDEN', 1, 24).filter((t) => t !== 'HIDDEN-17'));
    expect(leaked).toEqual([]);
    expect(tokens(page.text, 'VISIBLE')).toEqual(range('VISIBLE', 1, 16));
    // The visible part of a line that hides a word reads as one sentence.
    expect(page.text).toContain('VISIBLE-12 begins the line, and VISIBLE-13 ends it.');
  });

  it('catches each way by the rule meant for it', async () => {
    const pdfjs = await nodePdfJs();
    const task = pdfjs.getDocument({ data: hiddenPdf(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
    const doc = await task.promise;
    const page = await doc.getPage(1);
    const layers = await doc.getOptionalContentConfig();
    const marks = judgeGlyphs({ ops: await page.getOperatorList(), view: page.view, OPS: pdfjs.OPS, font: (n) => page.commonObjs.get(n) as object, layerVisible: (g) => layers.isVisible(g) });
    await task.destroy();
    // The reason given for the first glyph of each hidden sentence.
    const joined = marks.map((m) => m.text).join('');
    const starts: number[] = [];
    marks.reduce((at, m) => (starts.push(at), at + m.text.length), 0);
    const reason = (token: string): HiddenReason | 'shown' | 'absent' => {
      const at = joined.indexOf(token);
      const m = marks[starts.indexOf(at)];
      return at < 0 || !m ? 'absent' : (m.reason ?? 'shown');
    };
    const expected: Record<string, HiddenReason> = {
      '01': 'colour', '02': 'colour', '03': 'colour', '04': 'invisible', '05': 'invisible', '06': 'size', '07': 'size', '08': 'size',
      '09': 'clipped', '10': 'clipped', '11': 'covered', '12': 'covered', '13': 'covered', '14': 'colour', '15': 'layer off', '16': 'colour',
      '17': 'off page', '18': 'clipped', '19': 'colour', '20': 'invisible', '24': 'clipped',
    };
    expect(Object.fromEntries(Object.keys(expected).map((n) => [n, reason(`HIDDEN-${n}`)]))).toEqual(expected);
  });

  it('keeps page numbers: a page with nothing visible is empty, passages cite their own page', async () => {
    const page = await readPdf(await nodePdfJs(), hiddenPdf(), URL_);
    expect(page.pdf?.pages).toBe(5);
    const starts = page.pdf?.pageStarts ?? [];
    expect(starts).toHaveLength(5);
    const onPage = (n: number) => page.text.slice(starts[n - 1], n < 5 ? (starts[n] ?? 0) - 1 : page.text.length);
    expect(onPage(2)).toBe('VISIBLE-14: Text set sideways is read.');
    expect(onPage(3)).toBe('');
    expect(onPage(4)).toBe('VISIBLE-15: A scanned page keeps its OCR text.');
    expect(onPage(5)).toBe('VISIBLE-16: So does a scan laid over its OCR text.');
    const passages = chunkPdf(page, { targetChars: 400, origin: 'tab', tabId: 3 });
    expect(passages.find((p) => p.text.includes('VISIBLE-14'))?.page).toBe(2);
    expect(passages.find((p) => p.text.includes('VISIBLE-15'))?.page).toBe(4);
    expect(passages.some((p) => p.page === 3)).toBe(false);
    for (const p of passages) expect(page.text.slice(p.start, p.end)).toBe(p.text);
  });

  it('says so when nothing in the PDF can be seen', async () => {
    await expect(readPdf(await nodePdfJs(), invisiblePdf(), URL_)).rejects.toThrow(/no text layer/);
  });
});

describe('ordinary PDFs lose nothing', () => {
  // test/fixtures/site/pdf: the glacier report (make-pdf.ts) and a real manual typeset by pdfTeX
  // (libtasn1's, GNU FDL; see test/fixtures/README.md).
  for (const name of ['glacier-survey.pdf', 'libtasn1.pdf']) {
    it(`${name}: the same text as pdf.js's unfiltered text content`, async () => {
      const bytes = () => new Uint8Array(readFileSync(new URL(`../../test/fixtures/site/pdf/${name}`, import.meta.url)));
      const pdfjs = await nodePdfJs();
      const t0 = performance.now();
      const page = await readPdf(pdfjs, bytes(), `https://docs.example/${name}`);
      const ms = performance.now() - t0;
      console.log(`${name}: ${page.pdf?.pages} pages read in ${Math.round(ms / (page.pdf?.pages ?? 1))} ms per page`);
      expect(page.text).toBe(await unfilteredText(pdfjs, bytes()));
    });
  }
});
