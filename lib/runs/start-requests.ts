/** The requests that start a run from a tab: the same whether the panel, the page's menu or a
 * shortcut asks (they all go through the one 'run/start' handler, lib/runs/handlers.ts). */
import type { SourceScope, TextOrigin } from '../core/run';
import type { RequestMap } from './messages';

export type StartRequest = RequestMap['run/start']['req'];

const inTab = (tabId: number | undefined) => (tabId !== undefined ? { pageTabId: tabId } : {});

/** Verify with RAT: the selection of the tab (`selectionText`, the menu's copy, where the tab
 * cannot be read). */
export function verifySelectionRequest(tabId: number | undefined, selectionText: string): StartRequest {
  return { mode: 'verify', input: { text: selectionText }, ...inTab(tabId) };
}

/** Check this page: the visible article text of the tab. */
export function checkPageRequest(tabId: number | undefined): StartRequest {
  return { mode: 'page', input: { text: '' }, ...inTab(tabId) };
}

/** A question from the panel, asked in the tab the user is on. */
export interface Question {
  text: string;
  /** The conversation it continues. */
  threadId?: string;
  pageTabId?: number;
  /** What the user typed, when the question is a rewrite of it ("Understood as"). */
  asked?: string;
  origins?: TextOrigin[];
}

export function askRequest(q: Question, scope: SourceScope | undefined): StartRequest {
  return {
    mode: 'ask',
    input: { text: q.text, ...(q.threadId ? { thread: { id: q.threadId } } : {}), scope, ...(q.asked !== undefined ? { asked: q.asked } : {}), ...(q.origins ? { origins: q.origins } : {}) },
    pageTabId: q.pageTabId,
  };
}
