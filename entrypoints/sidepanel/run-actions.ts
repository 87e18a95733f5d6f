/** What the buttons of a run in the panel do: each one a request to the worker. */
import { request } from '@/lib/browser/messaging';
import { unionOrigins, UNKNOWN_ORIGINS } from '@/lib/core/flow';
import type { Run } from '@/lib/core/run';
import type { Question } from '@/lib/runs/start-requests';
import { threadOf } from '@/lib/store/threads';
import type { RunActions } from '@/components/RunView';
import type { Act } from './use-act';

export function runActions(run: Run, { act, ask, openSettings }: { act: Act; ask: (q: Question) => Promise<boolean>; openSettings: () => void }): RunActions {
  return {
    onCancel: () => void act(() => request('run/cancel', { id: run.id })),
    // Retry continues a run under its own id: the worker sends the panel the continued run.
    onRetry: () => void act(() => request('run/retry', { id: run.id })),
    onAgain: (forceRetrieval) => void act(() => request('run/again', { id: run.id, forceRetrieval })),
    onOpenSource: (s) => void act(() => request('source/open', { url: s.url, tabId: s.tabId, quote: s.quote, page: s.page })),
    onOpenSettings: openSettings,
    onClearMarks: (tabId) => void act(() => request('marks/clear', { tabId })),
    countMarks: (tabId) => request('marks/count', { tabId }),
    onRevealClaim: (tabId, sentence) => request('marks/reveal', { tabId, sentence }).catch(() => false),
    // The user says how the question is meant: this run is replaced by one that asks exactly that.
    onAskUnderstood: (understood) =>
      void act(async () => {
        await request('runs/delete', { id: run.id });
        // The rewrite keeps the origins of the call that wrote it: only what the user typed counts
        // as typed (lib/core/flow.ts).
        await ask({ text: understood, threadId: threadOf(run), pageTabId: run.input.page?.tabId, asked: run.input.asked ?? run.input.text, origins: unionOrigins(run.input.origins, run.gate?.origins ?? UNKNOWN_ORIGINS) });
      }),
  };
}
