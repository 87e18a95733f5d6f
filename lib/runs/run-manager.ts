/** Owns live runs in the worker: starts them, stores and broadcasts what the pipeline reports,
 * checkpoints, cancels, continues and recovers them. It never changes a run itself: the pipeline
 * (executeRun) is the one reducer of a run's events; the manager keeps the state it is handed.
 * Browser-free: storage and the executor come in as dependencies. */
import { classifyLlmError } from '../llm/errors';
import { canResume } from '../pipeline/run';
import { endedWithError, newRun } from '../pipeline/run-state';
import type { Run, RunError, RunEvent, RunInput, RunMode } from '../core/run';
import { isLlmConfigured, type Settings } from '../settings/schema';

/** What the manager tells its watchers: a run as it (re)starts, or as a failure to start left it,
 * then each of its events. */
export type RunUpdate = { type: 'run'; run: Run } | { type: 'event'; runId: string; event: RunEvent };

export interface ExecuteContext {
  settings: Settings;
  signal: AbortSignal;
  /** Set when the run cannot start (no model configured): the pipeline ends it with this. */
  blocked?: RunError;
  /** Every event of the run, with the run as the pipeline's reducer left it. */
  emit: (ev: RunEvent, run: Run) => void;
}

export interface RunManagerDeps {
  store: { put(run: Run): Promise<unknown>; get(id: string): Promise<Run | undefined>; running(): Promise<Run[]> };
  loadSettings(): Promise<Settings>;
  /** Runs the pipeline (executeRun) for `run`, which may hold a checkpoint to continue from. */
  execute(run: Run, ctx: ExecuteContext): Promise<unknown>;
  /** Called once a run has ended and been saved (e.g. to mark a verified selection in its page). */
  onFinished?(run: Run, settings: Settings): void;
  /** Called with every event of a live run (e.g. to mark a page's sentences as verdicts land). */
  onEvent?(run: Run, event: RunEvent, settings: Settings): void;
  /** Called when a run starts, continues or resumes (e.g. to keep the worker up while it is live). */
  onLaunch?(run: Run): void;
  /** A checkpoint could not be written (the run goes on; the next checkpoint tries again). */
  onSaveError?(err: unknown, run: Run): void;
  newId?: () => string;
  now?: () => number;
}

/** Events that end a unit of work: the run is written to IndexedDB after each of them. */
const CHECKPOINT_EVENTS = new Set<RunEvent['type']>(['gate', 'draft', 'library', 'step-done', 'next-queries', 'part-answer', 'answer', 'claims', 'error', 'done']);

interface Active {
  run: Run;
  ctrl: AbortController;
  finished: Promise<void>;
  lastSave: number;
}

const NOT_CONFIGURED: RunError = { code: 'not-configured', message: 'No model is configured yet. Open the settings to choose a provider.' };

export class RunManager {
  private active = new Map<string, Active>();
  private readonly watchers = new Set<(u: RunUpdate) => void>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: RunManagerDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  /** Create and start a run. A run that cannot start (bad input, nothing configured) is kept as
   * a run with its error, so the user's text is never lost; it has ended when this returns. */
  async start(mode: RunMode, input: RunInput): Promise<Run> {
    const settings = await this.deps.loadSettings();
    const run: Run = { ...newRun(this.newId(), mode, { ...input, text: input.text.trim() }, this.now()), model: settings.llm.model || undefined };
    await this.deps.store.put(run);
    return this.launch(run, settings);
  }

  /** Retry: a run that stopped part-way (an error, a cancel, an interrupted worker) continues
   * from its last checkpoint; anything else starts again. */
  async retry(run: Run): Promise<Run> {
    if (run.status !== 'done' && run.status !== 'running' && canResume(run) && !this.active.has(run.id)) {
      const settings = await this.deps.loadSettings();
      return this.launch(run, settings);
    }
    return this.again(run);
  }

  /** Run again from scratch with the same input (optionally changed, e.g. forced retrieval). */
  async again(run: Run, patch: Partial<RunInput> = {}): Promise<Run> {
    return this.start(run.mode, { ...run.input, ...patch });
  }

  cancel(id: string): boolean {
    const a = this.active.get(id);
    if (!a) return false;
    // The pipeline ends the run as cancelled at once; output aborted calls still produce is ignored.
    a.ctrl.abort();
    return true;
  }

  activeIds(): string[] {
    return [...this.active.keys()];
  }

  isActive(id: string): boolean {
    return this.active.has(id);
  }

  /** Wait until a live run has finished (tests, shutdown). */
  async settled(id: string): Promise<void> {
    await this.active.get(id)?.finished;
  }

  /** Every live run as it is now. */
  liveRuns(): Run[] {
    return [...this.active.values()].map((a) => a.run);
  }

  /** Watch every run: each one as it (re)starts, then its events. What is live already is in
   * liveRuns(); the two read together (no await between) miss nothing. */
  watch(listener: (u: RunUpdate) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  private tell(u: RunUpdate): void {
    for (const l of this.watchers) l(u);
  }

  /** After a worker restart: runs still marked running were cut off. Continue those the pipeline
   * can continue from their checkpoint; mark the rest interrupted (the panel offers Retry). */
  async recover(): Promise<Run[]> {
    const stale = (await this.deps.store.running()).filter((r) => !this.active.has(r.id));
    if (!stale.length) return [];
    const settings = await this.deps.loadSettings();
    const out: Run[] = [];
    for (const r of stale) {
      if (canResume(r) && isLlmConfigured(settings)) {
        out.push(this.launch(r, settings));
      } else {
        const run = endedWithError(r, { code: 'interrupted', message: "The run was interrupted when the browser stopped the extension's worker." }, 'interrupted', this.now());
        await this.deps.store.put(run);
        out.push(run);
      }
    }
    return out;
  }

  private launch(initial: Run, settings: Settings): Run {
    const ctrl = new AbortController();
    const entry: Active = { run: initial, ctrl, finished: Promise.resolve(), lastSave: this.now() };
    this.active.set(initial.id, entry);
    this.tell({ type: 'run', run: initial });
    this.deps.onLaunch?.(initial);
    let saving: Promise<unknown> = Promise.resolve();
    const save = () => {
      const snapshot = entry.run;
      entry.lastSave = this.now();
      saving = saving
        .then(() => this.deps.store.put(snapshot))
        .catch((err: unknown) => (this.deps.onSaveError ?? ((e: unknown) => console.error('checkpoint failed', e)))(err, snapshot));
      return saving;
    };
    const emit = (event: RunEvent, run: Run) => {
      entry.run = run;
      this.tell({ type: 'event', runId: run.id, event });
      // Streaming text is saved at most once a second; finished units of work at once.
      if (CHECKPOINT_EVENTS.has(event.type) || this.now() - entry.lastSave > 1000) void save();
      try {
        this.deps.onEvent?.(run, event, settings);
      } catch (err) {
        // A listener's failure (a tab that closed) must not stop the run.
        console.warn('run event listener failed', err);
      }
    };
    const blocked = isLlmConfigured(settings) ? undefined : { ...NOT_CONFIGURED };
    entry.finished = (async () => {
      try {
        await this.deps.execute(entry.run, { settings, signal: ctrl.signal, blocked, emit });
      } catch (err) {
        // executeRun ends every run itself; this only catches a failure to start it (wiring).
        if (entry.run.status === 'running') {
          entry.run = endedWithError(entry.run, classifyLlmError(err, settings.llm.baseURL), 'error', this.now());
          this.tell({ type: 'run', run: entry.run });
        }
      } finally {
        await save();
        this.active.delete(entry.run.id);
        this.deps.onFinished?.(entry.run, settings);
      }
    })();
    return entry.run;
  }
}
