import { applyEvent, newRun } from '../pipeline/run-state';
import type { Run, RunError, RunEvent, RunInput, RunMode } from '../pipeline/types';
import type { Settings } from '../settings/schema';
import { isLlmConfigured } from '../settings/schema';
import { MAX_QUESTION_CHARS, MAX_SELECTION_CHARS } from './limits';

/** What the worker tells a subscriber (the side panel) about one run. */
export type RunUpdate = { type: 'snapshot'; run: Run } | { type: 'event'; runId: string; event: RunEvent };

export interface ExecuteContext {
  settings: Settings;
  signal: AbortSignal;
  emit: (ev: RunEvent) => void;
}

export interface RunManagerDeps {
  store: { put(run: Run): Promise<unknown>; get(id: string): Promise<Run | undefined>; running(): Promise<Run[]> };
  loadSettings(): Promise<Settings>;
  /** Runs the pipeline for `run` (which may hold a checkpoint to resume from). Throws a RunError-like on failure. */
  execute(run: Run, ctx: ExecuteContext): Promise<void>;
  /** Whether `execute` can pick up this checkpoint where it stopped. */
  canResume?(run: Run): boolean;
  classifyError(err: unknown, settings: Settings): RunError;
  /** Called once a run has ended and been saved (e.g. to mark a verified selection in its page). */
  onFinished?(run: Run, settings: Settings): void;
  newId?: () => string;
  now?: () => number;
}

/** Events that end a unit of work: the run is written to IndexedDB after each of them. */
const CHECKPOINT_EVENTS = new Set<RunEvent['type']>(['gate', 'draft', 'library', 'step-done', 'answer', 'claims', 'error', 'done']);

interface Active {
  run: Run;
  ctrl: AbortController;
  listeners: Set<(u: RunUpdate) => void>;
  finished: Promise<void>;
  lastSave: number;
  emit: (ev: RunEvent) => void;
}

/** Owns live runs in the worker: starts, streams, checkpoints, cancels, resumes. Browser-free. */
export class RunManager {
  private active = new Map<string, Active>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: RunManagerDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  /** Create and start a run. Input problems and a missing configuration become a stored run
   * with an error, so the user's text is never lost. */
  async start(mode: RunMode, input: RunInput): Promise<Run> {
    const settings = await this.deps.loadSettings();
    const text = input.text.trim();
    let run = newRun(this.newId(), mode, { ...input, text }, this.now());
    const limit = mode === 'verify' ? MAX_SELECTION_CHARS : MAX_QUESTION_CHARS;
    let problem: RunError | undefined;
    if (!text) problem = { code: 'empty-input', message: mode === 'verify' ? 'The selection is empty.' : 'The question is empty.' };
    else if (text.length > limit)
      problem = { code: 'too-long', message: `The ${mode === 'verify' ? 'selection' : 'question'} has ${text.length.toLocaleString('en')} characters; the limit is ${limit.toLocaleString('en')}. Select a shorter passage.` };
    else if (!isLlmConfigured(settings)) problem = { code: 'not-configured', message: 'No model is configured yet. Open the settings to choose a provider.' };
    if (problem) {
      run = { ...applyEvent(applyEvent(run, { type: 'error', error: problem }, this.now()), { type: 'done', status: 'error' }, this.now()) };
      await this.deps.store.put(run);
      return run;
    }
    run = { ...run, model: settings.llm.model };
    await this.deps.store.put(run);
    this.launch(run, settings);
    return run;
  }

  /** Start again from scratch with the same input (and optionally a changed input flag). */
  async retry(run: Run, patch: Partial<RunInput> = {}): Promise<Run> {
    return this.start(run.mode, { ...run.input, ...patch });
  }

  cancel(id: string): boolean {
    const a = this.active.get(id);
    if (!a) return false;
    // The panel hears "cancelled" at once; output that aborted calls still produce is ignored.
    a.emit({ type: 'done', status: 'cancelled' });
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

  /** Subscribe to a run: the current state first, then every event. Returns undefined if the run is not live. */
  subscribe(id: string, listener: (u: RunUpdate) => void): (() => void) | undefined {
    const a = this.active.get(id);
    if (!a) return undefined;
    listener({ type: 'snapshot', run: a.run });
    a.listeners.add(listener);
    return () => a.listeners.delete(listener);
  }

  /** After a worker restart: runs still marked running were cut off. Resume those the pipeline
   * can continue from their checkpoint; mark the rest interrupted (the panel offers Retry). */
  async recover(): Promise<Run[]> {
    const stale = (await this.deps.store.running()).filter((r) => !this.active.has(r.id));
    if (!stale.length) return [];
    const settings = await this.deps.loadSettings();
    const out: Run[] = [];
    for (const r of stale) {
      if (this.deps.canResume?.(r) && isLlmConfigured(settings)) {
        this.launch(r, settings);
        out.push(r);
      } else {
        let run = applyEvent(r, { type: 'error', error: { code: 'interrupted', message: 'The run was interrupted when the browser stopped the extension\'s worker.' } }, this.now());
        run = applyEvent(run, { type: 'done', status: 'interrupted' }, this.now());
        await this.deps.store.put(run);
        out.push(run);
      }
    }
    return out;
  }

  private launch(initial: Run, settings: Settings) {
    const ctrl = new AbortController();
    const entry: Active = { run: initial, ctrl, listeners: new Set(), finished: Promise.resolve(), lastSave: this.now(), emit: () => {} };
    this.active.set(initial.id, entry);
    let saving: Promise<unknown> = Promise.resolve();
    const save = () => {
      const snapshot = entry.run;
      entry.lastSave = this.now();
      saving = saving.then(() => this.deps.store.put(snapshot)).catch(() => undefined);
      return saving;
    };
    const emit = (event: RunEvent) => {
      if (entry.run.status !== 'running') return;
      entry.run = applyEvent(entry.run, event, this.now());
      for (const l of entry.listeners) l({ type: 'event', runId: entry.run.id, event });
      // Streaming text is saved at most once a second; finished units of work at once.
      if (CHECKPOINT_EVENTS.has(event.type) || this.now() - entry.lastSave > 1000) void save();
    };
    entry.emit = emit;
    entry.finished = (async () => {
      try {
        await this.deps.execute(entry.run, { settings, signal: ctrl.signal, emit });
        if (entry.run.status === 'running') emit({ type: 'done', status: ctrl.signal.aborted ? 'cancelled' : 'done' });
      } catch (err) {
        if (ctrl.signal.aborted) {
          emit({ type: 'done', status: 'cancelled' });
        } else {
          emit({ type: 'error', error: this.deps.classifyError(err, settings) });
          emit({ type: 'done', status: 'error' });
        }
      } finally {
        await save();
        this.active.delete(entry.run.id);
        this.deps.onFinished?.(entry.run, settings);
      }
    })();
  }
}
