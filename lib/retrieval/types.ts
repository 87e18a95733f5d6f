/** The retrieval library as the pipeline sees it. Implementations live beside this file
 * (open tabs, web search providers, passages, ranker); browser access goes through adapters. */

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

/** A query that may go to web search. Only lib/pipeline/flow.ts `toWebQuery` makes one, from
 * text written by a call that saw nothing but network-safe text (SECURITY.md); lint forbids
 * casting to it anywhere else. */
export type WebQuery = string & { readonly __webQuery: 'network-safe' };

export interface RetrieveRequest {
  /** One query, or several alternatives separated by " || " (e.g. the same question in the
   * languages of the sources): each is ranked and the rankings are fused. */
  query: string;
  /** Passages wanted after refinement. */
  k: number;
  /** 1 for the first round of a step; later rounds may use `seed` (what earlier rounds found). */
  round?: number;
  seed?: Passage[];
  signal?: AbortSignal;
  /** Also search the web with this (once per library) before ranking. Without it the web is not
   * searched for this request: `query` ranks the tabs and the result pages already found. */
  web?: WebQuery;
}

export interface WebSearchResult {
  sources: SourceStatus[];
  errors: ProviderError[];
}

export interface RetrieveResult {
  passages: Passage[];
  /** Sources looked at for this request (newly read or skipped). */
  sources: SourceStatus[];
  errors: ProviderError[];
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

export interface Library {
  /** The sources read so far (open tabs), for the prompts that write queries: so the model can
   * write them in the languages and vocabulary of the sources. Waits for `prepare`. */
  catalogue?(signal?: AbortSignal): Promise<CatalogueEntry[]>;
  /** Read the local part of the library (open tabs) ahead of time, so it overlaps with drafting.
   * Idempotent; `retrieve` awaits it when it has not finished. */
  prepare?(signal?: AbortSignal): Promise<SourceStatus[]>;
  /** Search the web (each query once per library); the result pages join the library, and every
   * later `retrieve` waits for searches in flight. Returns what was newly looked at. */
  searchWeb?(queries: WebQuery[], signal?: AbortSignal): Promise<WebSearchResult>;
  /** What passages this library can return: open tabs (any tab, the page the user is on among
   * them), web results. Decided by its configuration, never by what the tabs contain. */
  readonly reach?: { tabs: boolean; web: boolean };
  retrieve(req: RetrieveRequest): Promise<RetrieveResult>;
}
