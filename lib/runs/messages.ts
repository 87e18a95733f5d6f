/** The typed protocol between extension pages (side panel, options) and the worker.
 * Requests go over runtime.sendMessage; the panel's runs over one Port named RUNS_PORT
 * (lib/runs/run-feed.ts). */
import type { ConnectionReport } from '../llm/test-connection';
import type { LlmSettings } from '../settings/schema';
import type { Run, RunError, RunInput, RunMode } from '../core/run';
import type { Verdict } from '../core/verdicts';

/** A page check done on the page the user is on now (the newest one): offered again on a visit. */
export interface EarlierCheck {
  runId: string;
  checkedAt: number;
  /** Claims by verdict. */
  counts: Record<Verdict, number>;
  total: number;
  /** Checked sentences the page still shows unchanged (only those are marked again). */
  unchanged: number;
}

export interface RequestMap {
  /** Ask from the panel: `pageTabId` is the tab the user is on (its title, address, selection and
   * readable text are captured by the worker, within the privacy rules); `input.thread.id` the
   * conversation it continues (the worker adds the earlier turns, once any answer of the thread
   * still being written is finished, so a question asked meanwhile sees it). Check this page
   * (mode 'page'): the worker reads the visible article text of tab `pageTabId` itself. Verify
   * (mode 'verify'): the worker reads the selection of tab `pageTabId` as the user sees it, with
   * `input.text` (the menu's selection text) where the tab cannot be read. Every run the panel,
   * the menus and the shortcuts start is started by this request (lib/runs/start-requests.ts);
   * the run started becomes the one the panel shows. */
  'run/start': { req: { mode: RunMode; input: RunInput; pageTabId?: number }; res: Run };
  /** Show this run in the panel (null: none, a new thread). The worker keeps which run that is
   * and tells every panel (lib/runs/run-feed.ts); the panel only asks. Resolves with the version
   * of the change, which the panel waits to hear of. */
  'run/show': { req: { id: string | null }; res: number };
  'run/cancel': { req: { id: string }; res: boolean };
  /** Continue a failed or interrupted run from its last checkpoint (or start it again). */
  'run/retry': { req: { id: string }; res: Run };
  /** Start again from scratch with the same input (a question about the page the user is on
   * reads that page again, if the tab still shows it: access to sites may have been granted). */
  'run/again': { req: { id: string; forceRetrieval?: boolean }; res: Run };
  'llm/test': { req: { llm: LlmSettings }; res: ConnectionReport };
  'llm/models': { req: { llm: LlmSettings }; res: string[] };
  'source/open': { req: { url: string; tabId?: number; quote?: string; page?: number }; res: boolean };
  'marks/clear': { req: { tabId: number }; res: boolean };
  /** Delete one run (cancelling it first if it is live). */
  'runs/delete': { req: { id: string }; res: boolean };
  /** Delete every run of a thread (cancelling a live one first); the runs as they were deleted
   * come back, so the panel can offer Undo. */
  'threads/delete': { req: { id: string }; res: Run[] };
  /** Put deleted runs back (Undo). */
  'runs/restore': { req: { runs: Run[] }; res: boolean };
  /** How many verdict marks the tab shows now (0 when it navigated, was reloaded or cleared). */
  'marks/count': { req: { tabId: number }; res: number };
  /** Scroll the tab to the mark of this sentence and show its tooltip (false: no such mark now). */
  'marks/reveal': { req: { tabId: number; sentence: string }; res: boolean };
  /** The newest page check of the page shown in this tab, if any. */
  'page/earlier': { req: { tabId: number }; res: EarlierCheck | null };
  /** Draw an earlier page check's marks again, on the sentences the page still shows unchanged;
   * resolves with how many were drawn. */
  'page/show-earlier': { req: { runId: string; tabId: number }; res: number };
  /** Delete every run and the page cache (settings stay). */
  'data/delete-all': { req: Record<string, never>; res: boolean };
}

export type RequestType = keyof RequestMap;
export type Request = { [K in RequestType]: { type: K } & RequestMap[K]['req'] }[RequestType];
export type Reply<T> = { ok: true; value: T } | { ok: false; error: RunError };

/** The name of the port a panel follows its runs over. */
export const RUNS_PORT = 'runs';

export function isRequest(x: unknown): x is Request {
  return typeof x === 'object' && x !== null && typeof (x as { type?: unknown }).type === 'string' && (x as { type: string }).type.includes('/');
}
