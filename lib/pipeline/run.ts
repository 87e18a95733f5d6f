/** executeRun: one run of the pipeline, as a stream of RunEvents.
 *
 * The pipeline owns the run's state: it applies each event with the one reducer (run-state.ts)
 * and hands the event and the new state to `emit`, which the worker stores, checkpoints and
 * broadcasts. Input is checked here, once; the run's end (`error` then `done`) is decided here,
 * once (`endEvents`). Given a checkpointed run, executeRun continues where it stopped: the gate
 * and the draft are not redone once recorded, revised steps are kept, and the next step starts
 * from the query its predecessor wrote. */
import { classifyLlmError, LlmError } from '../llm/errors';
import { reportThinking } from '../llm/thinking';
import { addUsage, emptyUsage, type Usage } from '../core/usage';
import type { CallUsage, LlmClient } from '../llm/types';
import type { Library } from '../retrieval/types';
import type { PipelineSettings } from '../settings/schema';
import { ask } from './ask';
import { checkPage } from './check-page';
import { raceAbort, type Ctx } from './context';
import { inputProblem } from './input';
import { contextOrigins, unionOrigins } from '../core/flow';
import { applyEvent } from './run-state';
import type { Run, RunError, RunEvent } from '../core/run';
import { verifySelection } from './verify';

export interface ExecuteRunOptions {
  /** A new run (newRun) or a checkpoint to continue. */
  run: Run;
  llm: LlmClient;
  library: Library;
  settings: PipelineSettings;
  /** Why the run cannot start at all (e.g. no model configured): it ends at once with this. */
  blocked?: RunError;
  /** Cancel: in-flight calls stop and the run ends with done/cancelled at once. */
  signal?: AbortSignal;
  /** Receives every event, in order, with the run as the event left it. May return a promise
   * (e.g. a checkpoint write); the run does not wait for it between events, but executeRun
   * resolves only after all have settled. */
  emit: (ev: RunEvent, run: Run) => void | Promise<unknown>;
  now?: () => number;
}

export { canResume } from './run-state';

/** How a run ends after `err` (undefined: it succeeded). The one place that decides it. */
export function endEvents(err: unknown, aborted: boolean): RunEvent[] {
  if (err === undefined) return [{ type: 'done', status: 'done' }];
  const info = err instanceof LlmError ? err.info : classifyLlmError(err, '');
  if (aborted || info.code === 'cancelled') return [{ type: 'done', status: 'cancelled' }];
  return [
    { type: 'error', error: info },
    { type: 'done', status: 'error' },
  ];
}

export async function executeRun(o: ExecuteRunOptions): Promise<Run> {
  const now = o.now ?? Date.now;
  const signal = o.signal ?? new AbortController().signal;
  let state = o.run;
  let closed = false;
  const outstanding: Promise<unknown>[] = [];
  const emit = (ev: RunEvent) => {
    if (closed) return; // nothing after done (late deltas of an aborted call)
    state = applyEvent(state, ev, now());
    if (ev.type === 'done') closed = true;
    try {
      const r = o.emit(ev, state);
      // A listener's failure (a checkpoint write) is the listener's to report; the run goes on.
      if (r && typeof r.then === 'function') outstanding.push(r.catch(() => undefined));
    } catch (err) {
      // Same for a listener that throws: the run must still reach its end.
      console.error('run listener failed', err);
    }
  };
  const usage: Usage = state.usage ? structuredClone(state.usage) : emptyUsage();
  const onUsage = (u: CallUsage) => {
    addUsage(usage, u);
    emit({ type: 'usage', usage: structuredClone(usage) });
  };
  // A thinking model's progress shows in the trace ("thinking…", with its length).
  const llm = reportThinking(o.llm, (stage, chars) => emit({ type: 'thinking', stage, chars }));
  const ctx: Ctx = { llm, library: o.library, settings: o.settings, signal, run: () => state, emit, onUsage };
  const ended = (err: unknown) => endEvents(err, signal.aborted).forEach(emit);

  // Checked synchronously, so a run that cannot start has ended when executeRun returns.
  const problem = inputProblem(state.mode, state.input.text) ?? o.blocked;
  if (problem) {
    ended(new LlmError(problem));
    return state;
  }
  try {
    // A checkpoint continues: after Retry (it had ended) or after a worker restart (still marked
    // running, its half-streamed draft or claims kept): what was cut off is written again once.
    if (state.status !== 'running' || state.gate || state.steps.length || state.draftText !== undefined) emit({ type: 'resume' });
    // What every call after the gate may see, from the input and what the library can return
    // (its configuration, not what the tabs contain); a resumed run keeps what it saw before.
    const reach = o.library.reach ?? { tabs: true, web: true };
    emit({ type: 'flow', origins: unionOrigins(state.origins, contextOrigins(state.input, state.mode, reach)) });
    // Reading open tabs overlaps the gate and the draft, the most promising first; a retrieval
    // uses what has been read by then.
    o.library
      .prepare?.(signal, { text: state.input.text, pageTabId: state.input.page?.tabId })
      .then((sources) => {
        if (sources.length) emit({ type: 'library', sources });
      })
      // A tab that cannot be read is reported per tab by retrieve(); nothing to add here.
      .catch(() => undefined);
    const flow = state.mode === 'verify' ? verifySelection(ctx, state.input) : state.mode === 'page' ? checkPage(ctx, state.input) : ask(ctx);
    flow.catch(() => undefined); // when the race below wins, the flow's own rejection is moot
    await raceAbort(flow, signal);
    ended(undefined);
  } catch (err) {
    ended(err);
  }
  await Promise.all(outstanding);
  return state;
}
