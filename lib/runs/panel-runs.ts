/** The side panel's one store of runs: fed by the worker over one subscription (run-feed.ts), a
 * snapshot then updates, each event applied with the one reducer (applyEvent). It holds the run
 * the panel shows (the active run) and every live run; it is the only copy of them in the panel.
 * Runs it does not hold (a thread's earlier, finished answers; History) are read from IndexedDB.
 * React reads it with useSyncExternalStore (components/panel-runs.ts). Browser-free: the
 * connection comes in as a function. */
import { applyEvent } from '../pipeline/run-state';
import type { Run } from '../core/run';
import type { PanelUpdate } from './run-feed';

export interface PanelRuns {
  /** False until the worker's first snapshot has arrived. */
  ready: boolean;
  /** The run the panel shows, as the worker decided (null: none, a new thread). */
  activeRunId: string | null;
  /** The version of the last change of the active run the panel heard of (run-feed.ts). */
  version: number;
  /** The active run and every live run, by id. */
  runs: ReadonlyMap<string, Run>;
}

export const NO_RUNS: PanelRuns = { ready: false, activeRunId: null, version: 0, runs: new Map() };

/** The active run, if the store holds it. */
export function activeRun(s: PanelRuns): Run | undefined {
  return s.activeRunId ? s.runs.get(s.activeRunId) : undefined;
}

function withRun(s: PanelRuns, run: Run): PanelRuns {
  return { ...s, runs: new Map(s.runs).set(run.id, run) };
}

/** One update applied. A snapshot replaces everything: after a reconnect the worker may have
 * restarted, and what it says now is the truth. */
export function reducePanelRuns(s: PanelRuns, u: PanelUpdate): PanelRuns {
  switch (u.type) {
    case 'snapshot':
      return { ready: true, activeRunId: u.activeRunId, version: u.version, runs: new Map(u.runs.map((r) => [r.id, r])) };
    case 'run':
      return withRun(s, u.run);
    case 'event': {
      const run = s.runs.get(u.runId);
      return run ? withRun(s, applyEvent(run, u.event)) : s;
    }
    case 'active':
      return { ...(u.run ? withRun(s, u.run) : s), activeRunId: u.runId, version: u.version };
  }
}

/** Opens the subscription: every update goes to `onUpdate`; `onClose` when the worker went away
 * (the browser stopped it, or it crashed). Returns a function that closes it. */
export type ConnectRuns = (onUpdate: (u: PanelUpdate) => void, onClose: () => void) => () => void;

/** Asks the worker to show a run (request 'run/show'); resolves with the version of the change. */
export type AskToShow = (id: string | null) => Promise<number>;

export interface PanelRunStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => PanelRuns;
  /** Ask the worker to show a run (null: none, a new thread); resolves once the panel has heard
   * that it does (the change, a later one, or a fresh snapshot after a reconnect). */
  show(id: string | null): Promise<void>;
  /** The runs once every change of the shown run this panel asked for has arrived: a question
   * asked right after "New thread" must not join the thread shown before. */
  settled(): Promise<PanelRuns>;
}

const RECONNECTS = 5;

/** Connected while anyone listens. When the worker goes away, connecting again wakes it, and it
 * resumes its runs before it sends a fresh snapshot; a worker that cannot start is tried a few
 * times, each a little later, so the panel does not spin. */
export function createPanelRunStore(connect: ConnectRuns, askToShow: AskToShow, backoffMs = 100): PanelRunStore {
  let state = NO_RUNS;
  const listeners = new Set<() => void>();
  const waiting = new Set<{ version: number; done: () => void }>();
  let stop: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let showing: Promise<unknown> = Promise.resolve();

  const heard = (version: number): Promise<void> => {
    if (state.ready && state.version >= version) return Promise.resolve();
    return new Promise((resolve) => {
      const w = {
        version,
        done: () => {
          waiting.delete(w);
          resolve();
        },
      };
      waiting.add(w);
    });
  };

  const apply = (u: PanelUpdate) => {
    failures = 0;
    state = reducePanelRuns(state, u);
    for (const w of [...waiting]) if (u.type === 'snapshot' || (u.type === 'active' && u.version >= w.version)) w.done();
    for (const l of [...listeners]) l();
  };
  const open = () => {
    stop = connect(apply, () => {
      stop = undefined;
      if (listeners.size && failures < RECONNECTS) timer = setTimeout(open, backoffMs * 2 ** failures++);
    });
  };
  const close = () => {
    clearTimeout(timer);
    stop?.();
    stop = undefined;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) open();
      return () => {
        listeners.delete(listener);
        if (!listeners.size) close();
      };
    },
    getSnapshot: () => state,
    show(id) {
      const shown = askToShow(id).then(heard);
      showing = shown.catch((err: unknown) => console.warn('Ratify: the panel could not change the run it shows', err));
      return shown;
    },
    async settled() {
      await showing;
      return state;
    },
  };
}
