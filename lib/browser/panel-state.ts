/** What the side panel keeps between openings, in storage.local: the question typed before any
 * model was set up, or while the thread's answer was still being written (it runs once there is
 * a model and that answer is finished), the sources last chosen, and what the worker asks the
 * panel to show (a claim a page mark's "Show in Ratify" named, a check that could not start). */
import { storage } from 'wxt/utils/storage';
import type { RunError, TabScope } from '../core/run';

export interface PendingQuestion {
  text: string;
  threadId?: string;
  pageTabId?: number;
  at: number;
  /** The run of the thread that was being answered when it was asked: it waits for that. */
  after?: string;
}

export const pendingQuestionItem = storage.defineItem<PendingQuestion | null>('local:pendingQuestion', { fallback: null });

export interface StoredScope {
  tabs: TabScope;
  web: boolean;
}

export const panelScopeItem = storage.defineItem<StoredScope | null>('local:panelScope', { fallback: null });

/** A mark's "Show in Ratify": the run and the page sentence whose claim the panel brings up. */
export interface FocusClaim {
  runId: string;
  sentence: string;
  at: number;
}

export const focusClaimItem = storage.defineItem<FocusClaim | null>('local:focusClaim', { fallback: null });

/** A page check started from the page's menu or the shortcut that could not start (the page may
 * not be read): shown once in the panel. */
export interface PanelNotice {
  code: RunError['code'];
  message: string;
  at: number;
}

export const panelNoticeItem = storage.defineItem<PanelNotice | null>('local:panelNotice', { fallback: null });
