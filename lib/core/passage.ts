/** What the library found, as the run model records it: passages of source text, where they came
 * from, and what happened to each candidate source. The library itself is lib/retrieval. */

export type Origin = 'tab' | 'web';

/** A sentence-bounded slice of one source text. */
export interface Passage {
  /** Stable across runs for the same source text: derived from URL, content hash and offsets. */
  id: string;
  url: string;
  title: string;
  origin: Origin;
  text: string;
  /** Headings above the passage, outermost first. */
  headingPath: string[];
  /** Character offsets of `text` in the source's readable text. */
  start: number;
  end: number;
  /** Set for open tabs, so a citation can focus the tab. */
  tabId?: number;
  /** Which search provider found it (web passages). */
  provider?: string;
  /** PDF page (1-based) the passage is on; passages never straddle PDF pages. */
  page?: number;
}

/** What happened to one candidate source (a tab or a search result), for the run's trace. */
export interface SourceStatus {
  url: string;
  title: string;
  origin: Origin;
  status: 'read' | 'cached' | 'skipped' | 'failed';
  /** Why it was skipped or failed, in a few words (e.g. "excluded domain", "time-out after 5 s"). */
  reason?: string;
  tabId?: number;
  provider?: string;
}

export interface ProviderError {
  provider: string;
  message: string;
  status?: number;
}

/** One source in the library as the model may see it when it writes queries: what it is and in
 * which language, never its text. */
export interface CatalogueEntry {
  title: string;
  /** Host name. */
  site: string;
  /** Address without query string or fragment. */
  url: string;
  /** BCP 47 language of the page, when it declares one. */
  lang?: string;
  origin: Origin;
}
