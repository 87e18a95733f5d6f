/** The worker's side of the panel's one subscription: which run the panel shows (the active run)
 * and every live run, as a snapshot first and then as they change. The worker is the only writer
 * of the active run: `show` is called by the request handlers alone (a run started, continued or
 * opened, "New thread", a mark's "Show in Ratify"); panels only ask (request 'run/show').
 * Browser-free: the port and the storage the active run id is kept in come in as dependencies. */
import type { Run } from '../core/run';
import type { RunManager, RunUpdate } from './run-manager';

/** What a panel is told, in order. `snapshot` (first, and again after a reconnect) is the whole
 * state; `run` a run that (re)started; `event` one event of a live run; `active` the run to show
 * now, with its copy when the panel may not hold it (a stored run opened from History).
 * `version` orders the changes of the active run (a time, increasing, also across worker restarts),
 * so a panel can tell when the change it asked for has arrived. */
export type PanelUpdate =
  | { type: 'snapshot'; activeRunId: string | null; version: number; runs: Run[] }
  | RunUpdate
  | { type: 'active'; runId: string | null; version: number; run?: Run };

/** Where the active run id is kept, so a worker the browser restarted still knows it. */
export interface ActiveRunStorage {
  get(): Promise<string | null>;
  set(id: string | null): Promise<void>;
}

export interface RunFeedDeps {
  manager: Pick<RunManager, 'watch' | 'liveRuns' | 'isActive'>;
  getRun(id: string): Promise<Run | undefined>;
  activeRun: ActiveRunStorage;
  /** Resolves once runs left by a previous worker have been resumed or marked: a panel that
   * reconnects to a restarted worker must not get a stale snapshot of a run about to resume. */
  ready: Promise<unknown>;
}

export interface RunFeed {
  /** A panel subscribes: `send` gets the snapshot, then every update; call the result to stop. */
  connect: (send: (u: PanelUpdate) => void) => Promise<() => void>;
  /** Make `id` the run every panel shows (null: none). The one writer of the active run.
   * Resolves with the version of the change once every panel has been told. */
  show: (id: string | null) => Promise<number>;
}

export function createRunFeed(deps: RunFeedDeps, now: () => number = Date.now): RunFeed {
  const panels = new Set<(u: PanelUpdate) => void>();
  const tell = (u: PanelUpdate) => {
    for (const send of panels) {
      try {
        send(u);
      } catch (err) {
        // A panel that closed while being told: it is forgotten (its port is gone).
        console.warn('Ratify: a panel could not be told about its runs', err);
        panels.delete(send);
      }
    }
  };
  deps.manager.watch(tell);
  let activeId: string | null = null;
  let version = 0;
  // Changes of the active run are made one after another, in the order they were asked for.
  let changes: Promise<unknown> = deps.activeRun.get().then((id) => (activeId = id));

  /** The active run's copy for a panel: the live one if it is live now, else the stored one (read
   * again if it finished while being read, so its last checkpoint is not missed). */
  const copyOf = async (id: string): Promise<Run | undefined> => {
    for (;;) {
      const wasLive = deps.manager.isActive(id);
      const stored = await deps.getRun(id);
      const live = deps.manager.liveRuns().find((r) => r.id === id);
      if (live) return live;
      if (!wasLive) return stored;
    }
  };

  const snapshot = async (): Promise<PanelUpdate> => {
    for (;;) {
      const [id, at] = [activeId, version];
      const copy = id ? await copyOf(id) : undefined;
      if (at !== version) continue; // changed meanwhile: read again
      const runs = deps.manager.liveRuns();
      if (copy && !runs.some((r) => r.id === copy.id)) runs.push(copy);
      return { type: 'snapshot', activeRunId: id, version: at, runs };
    }
  };

  return {
    async connect(send) {
      await deps.ready;
      await changes;
      const first = await snapshot();
      // No await from here on: the snapshot and the updates that follow it miss nothing.
      send(first);
      panels.add(send);
      return () => panels.delete(send);
    },
    show(id) {
      const change = changes.then(async () => {
        activeId = id;
        const at = (version = Math.max(version + 1, now()));
        await deps.activeRun.set(id);
        const run = id ? await copyOf(id) : undefined;
        tell({ type: 'active', runId: id, version: at, ...(run ? { run } : {}) });
        return at;
      });
      // A failed change (storage refused) does not block the next one.
      changes = change.catch((err: unknown) => console.error('Ratify: the active run could not be changed', err));
      return change;
    },
  };
}
