/** The retrieval library as the pipeline sees it. Implementations live beside this file
 * (open tabs, web search providers, passages, ranker); browser access goes through adapters. */
import type { WebQuery } from '../core/flow';
import type { CatalogueEntry, Passage, ProviderError, SourceStatus } from '../core/passage';

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

export interface Library {
  /** The sources read so far (open tabs), for the prompts that write queries: so the model can
   * write them in the languages and vocabulary of the sources. Waits for `prepare`. */
  catalogue?(signal?: AbortSignal): Promise<CatalogueEntry[]>;
  /** Read the local part of the library (open tabs) ahead of time, so it overlaps with drafting.
   * Idempotent; `retrieve` awaits it when it has not finished. */
  prepare?(signal?: AbortSignal, hint?: { text?: string; pageTabId?: number }): Promise<SourceStatus[]>;
  /** Search the web (each query once per library); the result pages join the library, and every
   * later `retrieve` waits for searches in flight. Returns what was newly looked at. */
  searchWeb?(queries: WebQuery[], signal?: AbortSignal): Promise<WebSearchResult>;
  /** What passages this library can return: open tabs (any tab, the page the user is on among
   * them), web results. Decided by its configuration, never by what the tabs contain. */
  readonly reach?: { tabs: boolean; web: boolean };
  retrieve(req: RetrieveRequest): Promise<RetrieveResult>;
}
