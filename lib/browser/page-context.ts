import { browser, type Browser } from 'wxt/browser';
import type { PageContext } from '../core/run';
import { promptUrl } from '../core/url';
import { withTimeout } from '../retrieval/tabs';
import type { ReadPolicy, TabInfo } from '../retrieval/read-policy';
import { isPdfUrl } from '../retrieval/pdf';
import { withPdfTabs } from '../retrieval/pdf-tabs';
import type { ReadablePage } from '../retrieval/page';
import { createBrowserPageReader } from './offscreen-reader';
import { createBrowserTabsAdapter } from './tabs-adapter';

/** How much of the page goes with a question: the start the gate reads, and the text that serves
 * as the primary source when the question is about the page. */
export const PAGE_START_CHARS = 2000;
export const PAGE_TEXT_CHARS = 60_000;
const SELECTION_CHARS = 4000;

export interface CapturedSelection {
  text: string;
  page: PageContext;
  /** Sentences of the selection hidden on the page, left out. */
  hiddenSentences?: number;
}

const READER_FILE = '/reader.js';
const SELECTION_GLOBAL = '__ratifyReadSelection'; // set by entrypoints/reader.ts

interface ReadSelection {
  text: string;
  hiddenSentences: number;
  surrounding: string;
}

/** Runs in the page: what the reader script found, or that the page is a PDF viewer. */
function callReader(global: string, maxContext: number): ReadSelection | 'pdf' | null {
  // Chrome's PDF viewer: the selection lives in the viewer's own frame, out of reach here.
  if (document.contentType === 'application/pdf') return 'pdf';
  const fn = (globalThis as Record<string, unknown>)[global];
  return typeof fn === 'function' ? (fn as (n: number) => ReadSelection | null)(maxContext) : null;
}

/** The selection and its context in a tab; falls back to the menu's selectionText where the page
 * cannot be scripted (PDF viewer, browser pages, store pages). A PDF tab is marked as one. */
export async function captureSelection(tab: Browser.tabs.Tab, fallbackText = ''): Promise<CapturedSelection> {
  const page: PageContext = { url: tab.url ?? '', title: tab.title ?? '', tabId: tab.id, ...(isPdfUrl(tab.url ?? '') ? { pdf: true } : {}) };
  if (tab.id === undefined) return { text: fallbackText, page };
  try {
    // The reader's visibility rules decide what of the selection is checked (and marked): the
    // user's own view of it, hidden sentences left out (lib/retrieval/visible-selection.ts).
    await browser.scripting.executeScript({ target: { tabId: tab.id }, files: [READER_FILE] });
    const [res] = await browser.scripting.executeScript({ target: { tabId: tab.id }, func: callReader, args: [SELECTION_GLOBAL, 2000] });
    const got = res?.result;
    if (got === 'pdf') return { text: fallbackText, page: { ...page, pdf: true } };
    if (!got) return { text: fallbackText, page };
    return { text: got.text, ...(got.hiddenSentences ? { hiddenSentences: got.hiddenSentences } : {}), page: { ...page, surrounding: got.surrounding || undefined } };
  } catch {
    return { text: fallbackText, page };
  }
}


/** Runs in the page: the user's current selection, as they see it. */
function readSelectionOnly(max: number): string {
  return (window.getSelection()?.toString() ?? '').slice(0, max);
}

/** The tab as the read policy sees it; undefined when it closed meanwhile. */
async function tabInfo(tabId: number): Promise<TabInfo | undefined> {
  let tab: Browser.tabs.Tab;
  try {
    tab = await browser.tabs.get(tabId);
  } catch {
    return undefined; // the tab closed between the question and now: asked without a page
  }
  return { id: tabId, windowId: tab.windowId, url: tab.url ?? '', title: tab.title ?? '', incognito: tab.incognito, discarded: tab.discarded };
}

/** The tab's readable text (a PDF tab from its file, as the library reads it); undefined when it
 * cannot be read (still loading, PDF viewer): then it is asked about by title and address. */
async function readTabPage(info: TabInfo, timeoutMs: number): Promise<ReadablePage | undefined> {
  const adapter = withPdfTabs(createBrowserTabsAdapter(), { fetch: (input, init) => fetch(input, init), reader: createBrowserPageReader() });
  try {
    const read = await withTimeout(Math.max(timeoutMs, adapter.timeoutFor?.(info) ?? 0), undefined, (signal) => adapter.read(info, { signal }));
    return read.kind === 'page' ? read.page : undefined;
  } catch (err) {
    console.warn('reading the current page failed', err);
    return undefined;
  }
}

/** The user's selection in the tab ('' when there is none or it cannot be read: no selection is
 * then part of the question). */
function selectionIn(tabId: number): Promise<string> {
  return browser.scripting
    .executeScript({ target: { tabId }, func: readSelectionOnly, args: [SELECTION_CHARS] })
    .then(([r]) => (typeof r?.result === 'string' ? r.result.trim() : ''))
    .catch(() => '');
}

function pageContext(info: TabInfo, page: ReadablePage | undefined, selection: string): PageContext {
  const text = page?.text.trim() ?? '';
  return {
    url: promptUrl(info.url), // no query string or fragment (tokens are not the model's business)
    title: info.title || page?.title || '',
    tabId: info.id,
    ...(text ? { surrounding: text.slice(0, PAGE_START_CHARS), text: text.slice(0, PAGE_TEXT_CHARS) } : {}),
    ...(selection ? { selection } : {}),
    ...(page?.lang ? { lang: page.lang } : {}),
    // A PDF is read from its file; the viewer cannot show marks.
    ...(page?.pdf || isPdfUrl(info.url) ? { pdf: true } : {}),
  };
}

/** The page the user is on, as a question from the panel carries it: title, address (no query),
 * selection and readable text (Readability in the tab, hidden text and form fields left out).
 * Undefined when it is not among the sources the user chose for the question, or the privacy
 * rules say the tab may not be read (browser page, excluded site, incognito): then not even its
 * title or address goes to the model (lib/retrieval/read-policy.ts decides both). */
export async function capturePage(tabId: number, policy: ReadPolicy, timeoutMs = 5000): Promise<PageContext | undefined> {
  if (!policy.pageChosen(tabId)) return undefined;
  const info = await tabInfo(tabId);
  if (!info || policy.skipReason(info)) return undefined;
  const [page, selection] = await Promise.all([readTabPage(info, timeoutMs), selectionIn(tabId)]);
  return pageContext(info, page, selection);
}
