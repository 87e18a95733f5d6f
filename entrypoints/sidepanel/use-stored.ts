/** What the worker and the panel keep in storage.local (lib/browser/panel-state.ts), as React
 * state that follows every change. */
import { useEffect, useState } from 'react';
import { panelNoticeItem, pendingQuestionItem, type PanelNotice, type PendingQuestion } from '@/lib/browser/panel-state';

interface WatchedItem<T> {
  getValue(): Promise<T>;
  watch(cb: (value: T) => void): () => void;
}

export function useStoredItem<T>(item: WatchedItem<T>, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    void item.getValue().then(setValue);
    return item.watch(setValue);
  }, [item]);
  return value;
}

/** A check the page's menu or the shortcut could not start (shown until dismissed or a minute). */
export function useNotice(): PanelNotice | null {
  const n = useStoredItem(panelNoticeItem, null);
  return n && Date.now() - n.at < 60_000 ? n : null;
}

/** The question waiting for a model to be set up, or for the answer before it. */
export function usePending(): PendingQuestion | null {
  return useStoredItem(pendingQuestionItem, null);
}
