/** The page cache as the tabs reader and the library use it: readable text by URL, with the hash of
 * the content it came from, so an unchanged page is not extracted twice. lib/store implements it
 * (IndexedDB in the extension, memory in Node). */
import type { PdfLayout } from './page';

/** Readable text of a page (open tab or fetched search result), cached by URL and content hash. */
export interface CachedPage {
  url: string;
  /** Hash of the content the text was extracted from; a changed page gets a new hash. */
  hash: string;
  title: string;
  text: string;
  /** Headings with their character offsets into `text`, for passage heading paths. */
  headings: { level: number; text: string; offset: number }[];
  lang?: string;
  /** PDFs: where each PDF page starts in `text`, and where the text was cut. */
  pdf?: PdfLayout;
  storedAt: number;
}

export interface PageCache {
  get(url: string): Promise<CachedPage | undefined>;
  put(page: CachedPage): Promise<void>;
  delete(url: string): Promise<void>;
  clear(): Promise<void>;
}
