/** One revision started by the speculative schedule (./speculate.ts): what it has said so far,
 * and the run it works in, its own view of the run until it is accepted (live). */
import { applyEvent } from './run-state';
import type { FinalOutput } from './chain';
import type { Ctx } from './context';
import type { CallTiming } from './draft-feed';
import type { Run, RunEvent } from '../core/run';

export interface Attempt extends CallTiming {
  pos: number;
  ctrl: AbortController;
  /** Forwarding to the run (the front step, or an accepted speculation). */
  live: boolean;
  /** Started on confirmed ground (see rule 3). */
  cautious: boolean;
  /** Started while a step before it was not committed: it assumed what that step would be. */
  assumed: boolean;
  /** Its reply writes the later steps' queries whether or not it changes (step.ts laterRule). */
  writes: boolean;
  buffer: RunEvent[];
  view: Run;
  key: Promise<string | undefined>;
  done: Promise<FinalOutput | undefined>;
  /** What its reply said so far: whether the step stands, and (if it changed, or `writes`) its
   * text and the later steps' queries. */
  said?: boolean;
  ready?: { revised: string; queries: string[]; complete: boolean };
  /** Its revision while it streams, once the correction is written (step-query.ts
   * settledRevision): the later steps' evidence is fetched for it. */
  correction?: { text: string; brought: string };
  ended: boolean;
}

/** What an attempt's revision runs in: the run itself once live; before, its own view of the run,
 * with the events it emits kept for replay if it is accepted. `onFirstToken` hears its first
 * streamed word. */
export function attemptContext(ctx: Ctx, a: Attempt, onFirstToken: () => void): Ctx {
  return {
    ...ctx,
    signal: a.ctrl.signal,
    run: () => (a.live ? ctx.run() : a.view),
    emit: (ev) => {
      if (a.firstTokenAt === undefined && (ev.type === 'revision-delta' || ev.type === 'answer-delta')) onFirstToken();
      if (a.live) return ctx.emit(ev);
      a.view = applyEvent(a.view, ev);
      a.buffer.push(ev);
    },
  };
}

/** `run` after an attempt's kept events. */
export function replay(run: Run, events: RunEvent[]): Run {
  return events.reduce((v, ev) => applyEvent(v, ev), run);
}

export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
