/** Which runs the Ask view shows, and which thread a question joins: read from the panel's one
 * store of runs (lib/runs/panel-runs.ts) and, for the runs it does not hold, IndexedDB. */
import type { Run } from '@/lib/core/run';
import { activeRun, type PanelRuns } from '@/lib/runs/panel-runs';
import { threadOf } from '@/lib/store/threads';

/** The thread the panel shows, in order. IndexedDB gives the thread's runs and their order; a run
 * the store holds (the active run, a live one) is shown as the store holds it, never as its (up
 * to a second old) stored checkpoint; the active run is shown even before IndexedDB lists it.
 * Stored runs of another thread (a query not yet updated after "New thread") are left out. */
export function threadRuns(stored: readonly Run[], panel: PanelRuns): Run[] {
  const active = activeRun(panel);
  if (!active) return [];
  const thread = threadOf(active);
  const shown = stored.filter((r) => threadOf(r) === thread).map((r) => panel.runs.get(r.id) ?? r);
  if (!shown.some((r) => r.id === active.id)) shown.push(active);
  return shown;
}

/** What a question asked now joins: the active run's thread (a page check is not a conversation:
 * a question asked meanwhile starts its own thread), and the answer of that thread still being
 * written, which the question waits for (a live run is always in the store). */
export function askTarget(panel: PanelRuns): { threadId?: string; busy?: Run } {
  const active = activeRun(panel);
  if (!active || active.mode === 'page') return {};
  const threadId = threadOf(active);
  const busy = [...panel.runs.values()].find((r) => r.status === 'running' && threadOf(r) === threadId);
  return { threadId, ...(busy ? { busy } : {}) };
}

/** Page checks still running that the panel is not showing. */
export function otherLiveChecks(panel: PanelRuns): Run[] {
  return [...panel.runs.values()].filter((r) => r.mode === 'page' && r.status === 'running' && r.id !== panel.activeRunId);
}
