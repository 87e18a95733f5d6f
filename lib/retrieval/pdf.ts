/** PDFs as sources: text by page with pdf.js (bytes in, a ReadablePage whose layout records where
 * each PDF page starts), passages that never straddle a page and know their page number, and the
 * per-source character cap. pdf.js itself is passed in (`PdfJs`): Node loads its legacy build
 * (pdf-node.ts), the browser the build with its worker (lib/browser/pdf-reader.ts), so this file
 * never pulls pdf.js into a bundle that does not read PDFs. */
import type { Heading, PdfLayout, ReadablePage } from './page';
import { chunkPage, type ChunkOptions } from './passages';
import { passageId } from './passages';
import { keepVisibleText } from './pdf-text-filter';
import { judgeGlyphs, type FontFacts, type PageDrawing } from './pdf-visibility';
import { hashText } from '../core/text';
import type { Passage } from '../core/passage';

/** The text kept of one source (a PDF's pages, in order): the rest is left out and the trace
 * says where the text stops. About 100 pages of dense print. */
export const MAX_SOURCE_CHARS = 300_000;

/** What Ratify uses of pdf.js's API (`getDocument` of pdfjs-dist or its legacy build). */
export interface PdfJs {
  getDocument(src: {
    data: Uint8Array;
    isEvalSupported?: boolean;
    disableFontFace?: boolean;
    useSystemFonts?: boolean;
    verbosity?: number;
    stopAtErrors?: boolean;
  }): { promise: Promise<PdfDocument>; destroy(): Promise<void> };
  /** Operator codes of the operator list. */
  OPS: Record<string, number>;
}

interface PdfPage {
  getTextContent(): Promise<{ items: unknown[] }>;
  getOperatorList(): Promise<PageDrawing['ops']>;
  /** The page's crop box. */
  view: number[];
  /** Fonts (and other shared objects) by the name the operator list uses. */
  commonObjs: { get(name: string): unknown };
  cleanup(): unknown;
}

interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getMetadata(): Promise<{ info: unknown }>;
  getOptionalContentConfig(): Promise<{ isVisible(group: unknown): boolean }>;
}

interface TextItem {
  str: string;
  hasEOL?: boolean;
  height: number;
  transform: number[];
}

const isTextItem = (x: unknown): x is TextItem =>
  typeof x === 'object' && x !== null && typeof (x as TextItem).str === 'string' && Array.isArray((x as TextItem).transform);

interface Line {
  text: string;
  /** Baseline, from the bottom of the page. */
  y: number;
  size: number;
}

function lines(items: unknown[]): Line[] {
  const out: Line[] = [];
  let cur: Line | undefined;
  const end = () => {
    if (cur && cur.text.trim()) out.push({ ...cur, text: cur.text.replace(/\s+/g, ' ').trim() });
    cur = undefined;
  };
  for (const it of items) {
    if (!isTextItem(it)) continue;
    const y = it.transform[5] ?? 0;
    const size = Math.abs(it.height) || Math.abs(it.transform[3] ?? 0) || 1;
    // A new baseline is a new line even where pdf.js did not mark the end of the last one.
    if (cur && it.str.trim() && Math.abs(y - cur.y) > Math.max(size, cur.size) * 0.5) end();
    if (it.str) {
      cur ??= { text: '', y, size };
      cur.text += it.str;
      cur.size = Math.max(cur.size, size);
    }
    if (it.hasEOL) end();
  }
  end();
  return out;
}

/** One PDF page's text: visual lines joined into paragraphs (one per text line, as the passage
 * cutter expects: a line ends a sentence), words split at a line end re-joined, and lines set
 * larger than the body text recorded as headings. */
export function pageText(items: unknown[]): { text: string; headings: Heading[] } {
  const ls = lines(items);
  const sizes = ls.map((l) => l.size).sort((a, b) => a - b);
  const body = sizes[Math.floor(sizes.length / 2)] ?? 1;
  const isHeading = (l: Line) => l.size >= body * 1.2 && l.text.length <= 150;
  const paras: { text: string; heading: boolean }[] = [];
  let prev: Line | undefined;
  for (const l of ls) {
    const last = paras[paras.length - 1];
    const gap = prev ? prev.y - l.y : 0;
    const sameParagraph = last && prev && !last.heading && !isHeading(l) && gap > 0 && gap <= Math.max(l.size, prev.size) * 1.45;
    if (sameParagraph) {
      // A word broken at the line end is one word again: "gla-" + "cier" → "glacier"; before a
      // capital the hyphen is the word's own ("Jean-" + "Paul" → "Jean-Paul").
      if (/\p{L}-$/u.test(last.text)) last.text = /^\p{Ll}/u.test(l.text) ? last.text.slice(0, -1) + l.text : last.text + l.text;
      else last.text += ` ${l.text}`;
    } else paras.push({ text: l.text, heading: isHeading(l) });
    prev = l;
  }
  const headings: Heading[] = [];
  let offset = 0;
  for (const p of paras) {
    if (p.heading) headings.push({ level: 2, text: p.text, offset });
    offset += p.text.length + 1;
  }
  return { text: paras.map((p) => p.text).join('\n'), headings };
}

const fontFacts = (page: PdfPage, name: string): FontFacts | undefined => {
  try {
    return page.commonObjs.get(name) as FontFacts;
  } catch {
    return undefined; // not loaded: judged with default metrics
  }
};

interface LoadedPage {
  page: PdfPage;
  content: { items: unknown[] };
  ops: PageDrawing['ops'];
}

/** A page with its text content and its operator list (both parsed by pdf.js's worker). */
async function loadPage(doc: PdfDocument, n: number): Promise<LoadedPage> {
  const page = await doc.getPage(n);
  const [content, ops] = await Promise.all([page.getTextContent(), page.getOperatorList()]);
  return { page, content, ops };
}

/** A page's text items without what a reader of the page cannot see (lib/retrieval/pdf-visibility.ts). */
function visibleItems(pdfjs: PdfJs, { page, content, ops }: LoadedPage, layers: { isVisible(group: unknown): boolean } | undefined): unknown[] {
  const marks = judgeGlyphs({
    ops,
    view: page.view,
    OPS: pdfjs.OPS,
    font: (name) => fontFacts(page, name),
    layerVisible: (group) => {
      try {
        return layers ? layers.isVisible(group) : true;
      } catch {
        return true;
      }
    },
  });
  return keepVisibleText(content.items, marks).items;
}

function fileName(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    return decodeURIComponent(last) || url;
  } catch {
    return url;
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The parsed document, or an error that says what is wrong with the file. */
async function openDocument(task: { promise: Promise<PdfDocument> }): Promise<PdfDocument> {
  try {
    return await task.promise;
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    if (name === 'PasswordException') throw new Error('the PDF is password-protected', { cause: e });
    throw new Error(`not a readable PDF (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

/** Pages' texts joined, one line between pages, up to `maxChars`: the page where the text stops
 * is kept in part, and the layout records where (and where each page starts). */
export class PdfText {
  readonly headings: Heading[] = [];
  readonly layout: PdfLayout;
  private readonly parts: string[] = [];
  private length = 0;

  constructor(
    pages: number,
    private readonly maxChars: number,
  ) {
    this.layout = { pageStarts: [], pages };
  }

  /** Adds page `n`; false once the text is full (no further page fits). */
  add(n: number, page: { text: string; headings: Heading[] }): boolean {
    const start = this.length + (this.parts.length ? 1 : 0);
    const text = this.fit(n, start, page.text);
    this.layout.pageStarts.push(start);
    this.parts.push(text);
    for (const h of page.headings) if (h.offset < text.length) this.headings.push({ ...h, offset: start + h.offset });
    this.length = start + text.length;
    return !this.layout.cut;
  }

  get text(): string {
    return this.parts.join('\n');
  }

  /** What of a page starting at `start` fits: all of it, or up to the last word boundary that does. */
  private fit(n: number, start: number, text: string): string {
    const room = this.maxChars - start;
    if (text.length <= room) return text;
    const cut = text.lastIndexOf(' ', room);
    const kept = text.slice(0, Math.max(0, cut > room / 2 ? cut : room));
    this.layout.cut = { page: n, chars: start + kept.length };
    return kept;
  }
}

/** Reads a PDF's text page by page, up to `maxChars` (the page where it stops is recorded). */
export async function readPdf(pdfjs: PdfJs, bytes: Uint8Array, url: string, opts: { maxChars?: number; signal?: AbortSignal } = {}): Promise<ReadablePage> {
  const task = pdfjs.getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  try {
    const doc = await openDocument(task);
    const meta = await doc.getMetadata().catch(() => ({ info: {} })); // metadata is optional
    // Layers the document turns off are not shown; without the configuration, all show.
    const layers = await doc.getOptionalContentConfig().catch(() => undefined);
    const info = (meta.info ?? {}) as Record<string, unknown>;
    const out = new PdfText(doc.numPages, opts.maxChars ?? MAX_SOURCE_CHARS);
    for (let n = 1; n <= doc.numPages; n++) {
      if (opts.signal?.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('cancelled');
      const loaded = await loadPage(doc, n);
      const t = pageText(visibleItems(pdfjs, loaded, layers));
      loaded.page.cleanup();
      if (!out.add(n, t)) break;
    }
    const text = out.text;
    if (!text.trim()) throw new Error('the PDF has no text layer (a scan?)');
    const title = str(info.Title) || out.headings[0]?.text || fileName(url);
    const lang = str(info.Language) || undefined;
    return { url, hash: hashText(`${doc.numPages}\n${text}`), title, text, headings: out.headings, ...(lang ? { lang } : {}), pdf: out.layout };
  } finally {
    // Frees the worker's copy of the document; nothing else to do if that fails.
    await task.destroy().catch(() => undefined);
  }
}

/** Passages of a PDF: each PDF page is cut on its own (a passage never straddles pages) and
 * every passage records its page. Offsets and ids are those of the whole text; the heading path
 * carries over from earlier pages (a section goes on across a page break). */
export function chunkPdf(page: ReadablePage, opts: ChunkOptions): Passage[] {
  const layout = page.pdf;
  if (!layout) return chunkPage(page, opts);
  const out: Passage[] = [];
  layout.pageStarts.forEach((start, i) => {
    const end = i + 1 < layout.pageStarts.length ? (layout.pageStarts[i + 1] ?? page.text.length) - 1 : page.text.length;
    // Headings of earlier pages sit before offset 0 of this page (still in force, never a sentence start).
    const headings = page.headings
      .filter((h) => h.offset < end)
      .map((h) => (h.offset < start ? { ...h, offset: -1 } : { ...h, offset: h.offset - start }));
    const sub: ReadablePage = { ...page, text: page.text.slice(start, end), headings, pdf: undefined };
    for (const p of chunkPage(sub, opts)) {
      const s = p.start + start;
      const e = p.end + start;
      out.push({ ...p, id: passageId(page.url, page.hash, s, e), start: s, end: e, page: i + 1 });
    }
  });
  return out;
}

/** For the trace: where a source's text was cut, or undefined when it was read whole. */
export function cutNote(page: Pick<ReadablePage, 'pdf'>): string | undefined {
  const cut = page.pdf?.cut;
  if (!cut) return undefined;
  return `cut at ${cut.chars.toLocaleString('en')} characters, on page ${cut.page} of ${page.pdf?.pages ?? cut.page}`;
}

export function isPdfUrl(url: string): boolean {
  try {
    return /\.pdf$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

export const isPdfType = (contentType: string): boolean => /^application\/(x-)?pdf\b/i.test(contentType.trim());
