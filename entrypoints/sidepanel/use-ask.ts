/** Starting runs from the panel: a question runs at once, or waits (stored, so closing the panel or
 * opening the settings loses nothing) for a model to be set up or for the answer of its thread
 * still being written; a waiting question runs once, as soon as it can. Check this page asks for
 * access to sites first where it has none. Every run starts with the one 'run/start' request. */
import { useEffect, useRef } from 'react';
import { request } from '@/lib/browser/messaging';
import { requestHostAccess } from '@/lib/browser/host-access';
import { panelNoticeItem, pendingQuestionItem, type PendingQuestion } from '@/lib/browser/panel-state';
import { NO_SITE_ACCESS } from '@/lib/retrieval/tabs';
import type { PanelRuns } from '@/lib/runs/panel-runs';
import { askRequest, checkPageRequest, type Question } from '@/lib/runs/start-requests';
import { panelRuns } from '@/components/panel-runs';
import { askTarget } from '@/components/thread-runs';
import type { Act } from './use-act';
import { usePending } from './use-stored';
import type { Sources } from './use-sources';

export interface Asking {
  /** 'waits': stored until it can run; true: started; false: the request failed (shown). */
  ask: (text: string) => Promise<'waits' | boolean>;
  start: (q: Question) => Promise<boolean>;
  pending: PendingQuestion | null;
  /** The pending question waits for an answer still being written. */
  waiting: boolean;
}

export function useAsk({ configured, sources, act, panel }: { configured: boolean | undefined; sources: Sources; act: Act; panel: PanelRuns }): Asking {
  const pending = usePending();
  const start = (q: Question) => act(() => request('run/start', askRequest(q, sources.scope)));
  const ask = async (text: string): Promise<'waits' | boolean> => {
    // Read after any change of the shown run the panel asked for ("New thread") has arrived.
    const { threadId, busy } = askTarget(await panelRuns.settled());
    const q = { text, threadId, pageTabId: sources.page?.tab.id };
    if (configured !== false && !busy) return start(q);
    // No model yet, or an answer to wait for (asked alongside, it would not see it).
    await pendingQuestionItem.setValue({ ...q, at: Date.now(), ...(busy ? { after: busy.id } : {}) });
    return 'waits';
  };
  const waiting = pending?.after !== undefined && panel.runs.get(pending.after)?.status === 'running';
  useRunWhenReady({ ready: !!configured && panel.ready, pending, waiting, start });
  return { ask, start, pending, waiting };
}

/** Set up at last, and the answer it waited for finished: the waiting question runs, once. */
function useRunWhenReady({ ready, pending, waiting, start }: { ready: boolean; pending: PendingQuestion | null; waiting: boolean; start: (q: Question) => Promise<boolean> }) {
  const ran = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!ready || !pending || waiting || ran.current === pending.at) return;
    ran.current = pending.at;
    void pendingQuestionItem.setValue(null).then(() => start(pending));
  }, [ready, pending, waiting]); // start() is read fresh on purpose: the sources chosen now apply
}

/** Check this page: without access to sites the browser's prompt is shown first, inside the click
 * (it is refused after an await); the check reads the page either way it can. */
export function checkThisPage(sources: Sources, act: Act): void {
  const tabId = sources.page?.tab.id;
  if (tabId === undefined) return;
  const asked = sources.page?.skip?.startsWith(NO_SITE_ACCESS) ? requestHostAccess().catch(() => false) : Promise.resolve(true);
  void panelNoticeItem.setValue(null);
  void asked.then(() => act(() => request('run/start', checkPageRequest(tabId))));
}
