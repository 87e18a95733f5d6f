/** Text a reader of a PDF cannot see never reaches the model: PDFs written here, operator by
 * operator, hide "HIDDEN-NN" sentences in the ways PDFs can, beside "VISIBLE-NN" sentences that
 * must stay; real PDFs lose nothing. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildContentPdf } from '../../test/fixtures/site/pdf/make-pdf';
import { chunkPdf, pageText, readPdf, type PdfJs } from './pdf';
import { nodePdfJs } from './pdf-node';

const tokens = (text: string, kind: 'HIDDEN' | 'VISIBLE') => [...new Set(text.match(new RegExp(`${kind}-\\d\\d`, 'g')) ?? [])].sort();
const range = (kind: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${kind}-${String(from + i).padStart(2, '0')}`);
const secret = (n: string) => `HIDDEN-${n} the vault passphrase is orchid.`;

/** One line of text at height y, with operators before the text object, inside it, and after. */
function line(y: number, text: string, o: { before?: string; inside?: string; after?: string; size?: number } = {}): string {
  return `q ${o.before ?? ''} BT /F1 ${o.size ?? 12} Tf ${o.inside ?? ''} 72 ${y} Td (${text}) Tj ET ${o.after ?? ''} Q`;
}
const box = (y: number) => `60 ${y - 4} 480 18 re`;

/** Each way to hide text, on page 1 (one line each, 22 pt apart). */
const HIDING: [string, (y: number) => string][] = [
  ['white fill on the white page', (y) => line(y, secret('01'), { before: '1 g' })],
  ['near-white fill', (y) => line(y, secret('02'), { before: '0.96 g' })],
  ['fill the colour of the shape beneath', (y) => `q 0 0.4 0 rg ${box(y)} f Q ${line(y, secret('03'), { before: '0 0.4 0 rg' })}`],
  ['invisible render mode (3 Tr)', (y) => line(y, secret('04'), { inside: '3 Tr' })],
  ['invisible and clipping render mode (7 Tr)', (y) => line(y, secret('05'), { inside: '7 Tr' })],
  ['0.5 pt font', (y) => line(y, secret('06'), { size: 0.5 })],
  ['12 pt font scaled to 0.5 pt by the transform', (y) => `q 0.04 0 0 0.04 72 ${y} cm BT /F1 12 Tf (${secret('07')}) Tj ET Q`],
  ['horizontal scaling of 1 %', (y) => line(y, secret('08'), { inside: '1 Tz' })],
  ['clipped away', (y) => line(y, secret('09'), { before: '0 0 1 1 re W n' })],
  ['in the hole of an even-odd clipping path', (y) => line(y, secret('10'), { before: `50 ${y - 10} 500 40 re ${box(y)} W* n` })],
  ['painted over by a later white rectangle', (y) => line(y, secret('11'), { after: `1 g ${box(y)} f` })],
  ['painted over by a later black bar (a redaction)', (y) => line(y, secret('12'), { after: `0 g ${box(y)} f` })],
  ['painted over by a later opaque image', (y) => line(y, secret('13'), { after: `480 0 0 18 60 ${y - 4} cm /Im1 Do` })],
  ['fill alpha 0.05', (y) => line(y, secret('14'), { before: '/GSfaint gs' })],
  ['an optional-content layer that is off', (y) => `/OC /OCoff BDC ${line(y, secret('15'))} EMC`],
  ['white outline only (1 Tr)', (y) => line(y, secret('16'), { before: '1 G', inside: '1 Tr' })],
  ['outside the page', () => line(-400, secret('17'))],
  ['outside its form XObject’s bounding box', (y) => `q 1 0 0 1 72 ${y} cm /FmClip Do Q`],
  ['a white word inside a visible line', (y) => `BT /F1 12 Tf 72 ${y} Td (VISIBLE-12 begins the line, ) Tj 1 g (HIDDEN-19) Tj 0 g ( and VISIBLE-13 ends it.) Tj ET`],
  ['invisible text over a small image, on a page with visible text', (y) => `q 40 0 0 18 60 ${y - 4} cm /Im1 Do Q ${line(y, secret('20'), { inside: '3 Tr' })}`],
];

/** Visible text in the same places: must stay. */
const SHOWING: [string, (y: number) => string][] = [
  ['plain black', (y) => line(y, 'VISIBLE-01: The vault passphrase policy is reviewed every spring.')],
  ['white on a dark box drawn before it', (y) => `q 0.1 g ${box(y)} f Q ${line(y, 'VISIBLE-02: Light text on a dark panel is readable.', { before: '1 g' })}`],
  ['white on an image drawn before it', (y) => `q 480 0 0 18 60 ${y - 4} cm /Im1 Do Q ${line(y, 'VISIBLE-03: Text on a picture is read.', { before: '1 g' })}`],
  ['under a translucent highlight drawn after it', (y) => line(y, 'VISIBLE-04: A highlighted sentence stays.', { after: `/GShalf gs 1 1 0 rg ${box(y)} f` })],
  ['under a transparent image drawn after it', (y) => line(y, 'VISIBLE-05: A transparent watermark hides nothing.', { after: `480 0 0 18 60 ${y - 4} cm /Im2 Do` })],
  ['small print (6 pt)', (y) => line(y, 'VISIBLE-06: Small print is still print.', { size: 6 })],
  ['black outline (1 Tr)', (y) => line(y, 'VISIBLE-07: Outlined letters are read.', { inside: '1 Tr' })],
  ['coloured', (y) => line(y, 'VISIBLE-08: Blue text on white is read.', { before: '0 0 0.8 rg' })],
  ['inside a clipping path that holds it', (y) => line(y, 'VISIBLE-09: Clipped around, not away.', { before: `50 ${y - 10} 500 40 re W n` })],
  ['inside its form XObject’s bounding box', (y) => `q 1 0 0 1 72 ${y} cm /FmShow Do Q`],
  ['cut by the right edge of the page', (y) => `BT /F1 12 Tf 380 ${y} Td (VISIBLE-11: this line runs on past the edge of the page and out) Tj ET`],
];

const FORMS = {
  FmClip: { bbox: [0, -4, 400, 14] as [number, number, number, number], content: `BT /F1 12 Tf 0 200 Td (${secret('18')}) Tj ET` },
  FmShow: { bbox: [0, -4, 400, 14] as [number, number, number, number], content: 'BT /F1 12 Tf 0 0 Td (VISIBLE-10: A form shows what lies in its box.) Tj ET' },
};

function page1(): string {
  let y = 770;
  const out: string[] = [];
  for (const [, draw] of [...HIDING, ...SHOWING]) {
    out.push(draw(y));
    y -= 22;
  }
  return out.join('\n');
}
/** A rotated visible line, and a page of text that is only hidden. */
const page2 = `q 0 1 -1 0 300 100 cm ${line(0, 'VISIBLE-14: Text set sideways is read.').replace('72 0 Td', '0 0 Td')} Q\n${line(700, secret('21'), { before: '1 g' })}`;
const page3 = `${line(700, secret('22'), { before: '1 g' })}\n${line(600, secret('23'), { inside: '3 Tr' })}`;
/** A scanned page: an image covers it and its text is an invisible OCR layer, the only text there is. */
const page4 = `q 612 0 0 792 0 0 cm /Im1 Do Q ${line(700, 'VISIBLE-15: A scanned page keeps its OCR text.', { inside: '3 Tr' })}`;

const hiddenPdf = () => new Uint8Array(buildContentPdf([page1(), page2, page3, page4], { title: 'Vault notes', extras: true, forms: FORMS }));
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
    console.log(`PDF: ${before.length}/23 hidden sentences in the text without the filter (${range('HIDDEN', 1, 23).filter((t) => !before.includes(t)).join(' ')} already dropped by pdf.js), ${leaked.length}/23 with it`);
    // pdf.js itself drops only the text off the page: the rest reached the model before.
    expect(before).toEqual(range('HIDDEN', 1, 23).filter((t) => t !== 'HIDDEN-17'));
    expect(leaked).toEqual([]);
    expect(tokens(page.text, 'VISIBLE')).toEqual(range('VISIBLE', 1, 15));
    // The visible part of a line that hides a word reads as one sentence.
    expect(page.text).toContain('VISIBLE-12 begins the line, and VISIBLE-13 ends it.');
  });

  it('keeps page numbers: a page with nothing visible is empty, passages cite their own page', async () => {
    const page = await readPdf(await nodePdfJs(), hiddenPdf(), URL_);
    expect(page.pdf?.pages).toBe(4);
    const starts = page.pdf?.pageStarts ?? [];
    expect(starts).toHaveLength(4);
    const onPage = (n: number) => page.text.slice(starts[n - 1], n < 4 ? (starts[n] ?? 0) - 1 : page.text.length);
    expect(onPage(2)).toBe('VISIBLE-14: Text set sideways is read.');
    expect(onPage(3)).toBe('');
    expect(onPage(4)).toBe('VISIBLE-15: A scanned page keeps its OCR text.');
    const passages = chunkPdf(page, { targetChars: 400, origin: 'tab', tabId: 3 });
    expect(passages.find((p) => p.text.includes('VISIBLE-14'))?.page).toBe(2);
    expect(passages.find((p) => p.text.includes('VISIBLE-15'))?.page).toBe(4);
    expect(passages.some((p) => p.page === 3)).toBe(false);
    for (const p of passages) expect(page.text.slice(p.start, p.end)).toBe(p.text);
  });

  it('says so when nothing in the PDF can be seen', async () => {
    const bytes = new Uint8Array(buildContentPdf([page3], { extras: true }));
    await expect(readPdf(await nodePdfJs(), bytes, URL_)).rejects.toThrow(/no text layer/);
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
