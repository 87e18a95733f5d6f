/** A side panel following a worker's runs, in memory: the real run feed (lib/runs/run-feed.ts)
 * and the real panel store (lib/runs/panel-runs.ts), connected without a browser port. */
import type { Run } from '../../lib/core/run';
import { createPanelRunStore, type PanelRuns } from '../../lib/runs/panel-runs';
import { createRunFeed, type ActiveRunStorage, type PanelUpdate, type RunFeed, type RunFeedDeps } from '../../lib/runs/run-feed';

export function memoryActiveRun(initial: string | null = null): ActiveRunStorage & { value(): string | null } {
  let id = initial;
  return {
    get: () => Promise.resolve(id),
    set: (v) => {
      id = v;
      return Promise.resolve();
    },
    value: () => id,
  };
}

export interface PanelFollower {
  /** The panel's copy of a run. */
  run: (id: string) => Run | undefined;
  state: () => PanelRuns;
  /** Every update the panel was sent, in order. */
  seen: PanelUpdate[];
  /** Called after each update has been applied to the panel's store. */
  onUpdate: (f: (u: PanelUpdate) => void) => void;
  close: () => void;
}

/** Connects a panel to a worker's runs at once (the snapshot arrives within a few microtasks),
 * over a run feed of its own. */
export function followPanel(manager: RunFeedDeps['manager'], o: Partial<Omit<RunFeedDeps, 'manager'>> = {}): PanelFollower {
  return followFeed(createRunFeed({ manager, getRun: o.getRun ?? (() => Promise.resolve(undefined)), activeRun: o.activeRun ?? memoryActiveRun(), ready: o.ready ?? Promise.resolve() }));
}

/** Connects a panel to a worker's run feed. */
export function followFeed(feed: RunFeed): PanelFollower {
  const seen: PanelUpdate[] = [];
  const after: ((u: PanelUpdate) => void)[] = [];
  const store = createPanelRunStore((apply) => {
    let stop: (() => void) | undefined;
    let closed = false;
    void feed.connect((u) => {
      seen.push(u);
      apply(u);
      for (const f of after) f(u);
    }).then((s) => (closed ? s() : (stop = s)));
    return () => {
      closed = true;
      stop?.();
    };
  }, (id) => feed.show(id));
  const unsubscribe = store.subscribe(() => {});
  return { run: (id) => store.getSnapshot().runs.get(id), state: () => store.getSnapshot(), seen, onUpdate: (f) => after.push(f), close: unsubscribe };
}
