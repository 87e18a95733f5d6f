/** What every stage of a run shares: the injected dependencies, the live run state (kept by
 * applying our own events) and a few helpers for abort and accounting. */
import { LlmError } from '../llm/errors';
import type { CallUsage, LlmClient } from '../llm/types';
import type { Library } from '../retrieval/types';
import type { Passage } from '../core/passage';
import type { PipelineSettings } from '../settings/schema';
import type { Run, RunEvent, StepState } from '../core/run';
import { followAbort } from '../core/abort';

export interface Ctx {
  llm: LlmClient;
  library: Library;
  settings: PipelineSettings;
  signal: AbortSignal;
  // Functions, not methods: stages hand them on as callbacks.
  /** The run as our own events have left it. */
  run: () => Run;
  emit: (ev: RunEvent) => void;
  onUsage: (u: CallUsage) => void;
  /** Resolves once the run's web searches have started (web-plan.ts); a retrieval waits for it,
   * so the pages they find can rank. */
  webReady?: Promise<void>;
}

export const DONE_STATUSES: StepState['status'][] = ['revised', 'unchanged', 'malformed'];

export function isDone(s: StepState): boolean {
  // A changed step whose queries for the later steps were not all written is revised again.
  return DONE_STATUSES.includes(s.status) && !s.queriesPending;
}

export function cancelled(stage?: string): LlmError {
  return new LlmError({ code: 'cancelled', message: 'Cancelled.', stage });
}

/** Rejects as soon as `signal` aborts, even if `p` ignores the signal (a slow library or a
 * store write must not hold a cancelled run past 1 s). */
export async function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw cancelled();
  let unfollow = () => {};
  const aborted = new Promise<never>((_, reject) => (unfollow = followAbort(signal, () => reject(cancelled()))));
  try {
    return await Promise.race([p, aborted]);
  } finally {
    unfollow();
  }
}

export function stepsOfPart(run: Run, part: number | undefined): StepState[] {
  return run.steps.filter((s) => s.part === part).sort((a, b) => a.index - b.index);
}

/** Every passage the run has seen, by id (from the steps' recorded rounds). */
export function passagesById(run: Run): Map<string, Passage> {
  const m = new Map<string, Passage>();
  for (const s of run.steps) for (const q of s.queries) for (const p of q.passages) if (!m.has(p.id)) m.set(p.id, p);
  return m;
}
