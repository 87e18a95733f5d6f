/** What the side panel keeps between openings, in storage.local: the question typed before any
 * model was set up (it runs once one is), and the sources last chosen. */
import { storage } from 'wxt/utils/storage';
import type { TabScope } from '../core/run';

export interface PendingQuestion {
  text: string;
  threadId?: string;
  pageTabId?: number;
  at: number;
}

export const pendingQuestionItem = storage.defineItem<PendingQuestion | null>('local:pendingQuestion', { fallback: null });

export interface StoredScope {
  tabs: TabScope;
  web: boolean;
}

export const panelScopeItem = storage.defineItem<StoredScope | null>('local:panelScope', { fallback: null });
