/** The readable text of one page (an open tab or a fetched search result): what the tabs reader
 * and the page readers produce, what the page cache stores, what passages are cut from. */

export interface Heading {
  level: number;
  text: string;
  /** Character offset of the heading line in `text`. */
  offset: number;
}

export interface ReadablePage {
  url: string;
  /** Hash of the content the text was extracted from (tab: title + body text; web: the HTML). */
  hash: string;
  title: string;
  text: string;
  headings: Heading[];
  lang?: string;
  /** Set for a PDF: where each of its pages starts in `text` (lib/retrieval/pdf.ts). */
  pdf?: PdfLayout;
}

export interface PdfLayout {
  /** Offset in `text` where PDF page i + 1 starts. */
  pageStarts: number[];
  /** Pages in the document (more than pageStarts.length when the text was cut). */
  pages: number;
  /** The text reached the per-source cap: it stops on this page, after this many characters. */
  cut?: { page: number; chars: number };
}

/** Turns HTML into a ReadablePage. Node: linkedom; Firefox background page: DOMParser; Chrome
 * worker: a message round trip to the offscreen document (lib/browser/offscreen-reader.ts). */
export interface PageReader {
  read(html: string, url: string, signal?: AbortSignal): Promise<ReadablePage>;
  /** A PDF's bytes to text by page (lib/retrieval/pdf.ts); without it PDFs are not read. */
  readPdf?(bytes: Uint8Array, url: string, signal?: AbortSignal): Promise<ReadablePage>;
}

/** Plain text whose sections are marked as MediaWiki "explaintext" does ("== Heading ==") or as
 * Markdown does ("## Heading"), e.g. Wikipedia extracts and Tavily raw content. Turns the markers
 * into plain heading lines with offsets. */
export function pageFromMarkedText(url: string, title: string, raw: string, hash: string, lang?: string): ReadablePage {
  const headings: Heading[] = [];
  const lines: string[] = [];
  let offset = 0;
  for (const line of raw.split('\n')) {
    const t = line.trim();
    if (!t) continue;
    const h = /^(={2,6})\s*(.*?)\s*={2,6}$/.exec(t) ?? /^(#{1,6})\s+(.*?)\s*#*$/.exec(t);
    const [, marks, title] = h ?? [];
    const text = h ? title : t;
    if (!text) continue;
    if (marks) headings.push({ level: marks.length, text, offset });
    lines.push(text);
    offset += text.length + 1;
  }
  return { url, hash, title, text: lines.join('\n'), headings, lang };
}
