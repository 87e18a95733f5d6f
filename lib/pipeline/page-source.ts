/** The page the user is on as the primary source: when the gate finds a question is about that
 * page ("summarize this page", "what does it say about X"), every retrieval returns the page's
 * own best passages first and fills the rest from the library (the tabs and web the user chose).
 * The page's text came with the question (captured when it was asked), so this works whatever
 * the library's scope, and in Node. */
import { dedupe } from '../retrieval/dedupe';
import { chunkPage } from '../retrieval/passages';
import { rankPassages } from '../retrieval/rank';
import { hashText } from '../core/text';
import type { Library, RetrieveRequest, RetrieveResult } from '../retrieval/types';
import type { Passage, SourceStatus } from '../core/passage';
import type { PageContext } from '../core/run';

export interface PrimaryPage {
  library: Library;
  /** The page as the trace lists it. */
  status: SourceStatus;
  passages: Passage[];
}

/** The page's passages, cut like any open tab's. */
export function pagePassages(page: PageContext, passageChars: number): Passage[] {
  const text = page.text ?? '';
  if (!text.trim()) return [];
  return chunkPage({ url: page.url, hash: hashText(text), title: page.title, text, headings: [], lang: page.lang }, { targetChars: passageChars, origin: 'tab', tabId: page.tabId });
}

export function primaryPageLibrary(inner: Library, page: PageContext, passageChars: number): PrimaryPage {
  const passages = pagePassages(page, passageChars);
  const status: SourceStatus = { url: page.url, title: page.title, origin: 'tab', status: 'read', reason: 'the page you are on', ...(page.tabId !== undefined ? { tabId: page.tabId } : {}) };
  const fromPage = (req: RetrieveRequest, k: number): Passage[] => {
    const skip = new Set(req.seed?.map((p) => p.id) ?? []);
    return rankPassages(req.query, passages.filter((p) => !skip.has(p.id)), k).map((r) => r.passage);
  };
  const library: Library = {
    prepare: inner.prepare?.bind(inner),
    catalogue: inner.catalogue?.bind(inner),
    searchWeb: inner.searchWeb?.bind(inner),
    reach: inner.reach,
    async retrieve(req: RetrieveRequest): Promise<RetrieveResult> {
      const k = Math.max(1, req.k);
      const [mine, rest] = await Promise.all([Promise.resolve(fromPage(req, k)), inner.retrieve(req)]);
      // The page's passages lead. The library's own reading of the same tab is left out: the
      // page's copy stands for it (cut the same way, with the address as the model may see it).
      const others = rest.passages.filter((p) => page.tabId === undefined || p.tabId !== page.tabId);
      const merged = dedupe([...mine, ...others], (p) => p.text, k);
      // A query that matches nothing on the page still gets the page's opening, so the answer
      // rests on it rather than on other sources alone.
      if (!mine.length && passages[0] && !merged.some((p) => p.url === page.url)) merged.splice(Math.max(0, k - 1), 1, passages[0]);
      return { ...rest, passages: merged.slice(0, k) };
    },
  };
  return { library, status, passages };
}
