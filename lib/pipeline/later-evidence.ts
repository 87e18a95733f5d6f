/** The later steps' evidence, fetched ahead of their turn by the speculative schedule
 * (./speculate.ts). Where queries are made in code (chain.ts `modelQueries` false), a step's query
 * is known as soon as the steps before it are (step.ts plannedQuery), and a changed step's
 * correction reaches it as soon as the correction is written (step-query.ts settledRevision), not
 * once the changed text has streamed whole. Fetches are memoised (retrieval-cache.ts): asking
 * again costs nothing. */
import type { Chain } from './chain';
import { isDone } from './context';
import { applyEvent } from './run-state';
import type { Attempt } from './speculation-attempt';
import { plannedQuery } from './step';
import { settledRevision } from './step-query';
import type { Run, StepState } from '../core/run';

/** What the schedule knows of the chain: its steps in order, and how the run will stand. */
export interface ChainView {
  readonly indices: readonly number[];
  readonly attempts: ReadonlyMap<number, Attempt>;
  stepIn(run: Run, pos: number): StepState;
  /** The step as the chain sees it now (while the draft streams, as streamed so far). */
  stepAt(pos: number): StepState;
  /** The run as it will stand before `pos`, if known. */
  projected(pos: number): Run | undefined;
}

export class LaterEvidence {
  private readonly k: number;

  constructor(
    private readonly chain: Chain,
    private readonly view: ChainView,
    passagesPerStep: number,
  ) {
    this.k = Math.max(1, passagesPerStep) * 2;
  }

  /** The planned evidence of the steps from `from` on, as the run is projected to stand before
   * them (or as `run` has it). */
  from(from: number, run = this.view.projected(from)): void {
    if (!run) return;
    const { indices } = this.view;
    for (let p = from; p < indices.length; p++) {
      const step = this.view.stepIn(run, p);
      if (!isDone(step)) this.chain.cache.prefetch(plannedQuery(this.chain, step, indices.slice(0, p).map((_, q) => this.view.stepIn(run, q))), this.k);
    }
  }

  /** A step said to change, its revision streaming (`partial`; none: the correction already
   * written, for steps that have streamed since): the later steps' evidence for its correction,
   * fetched once it is written and again only if it grows. */
  whileRevising(a: Attempt, partial?: string): void {
    if (this.chain.modelQueries || a.ready || this.view.attempts.get(a.pos) !== a) return;
    const c = partial === undefined ? a.correction : settledRevision(this.view.stepAt(a.pos).draft, partial);
    if (!c || (partial !== undefined && c.brought === a.correction?.brought)) return;
    a.correction = c;
    const before = this.view.projected(a.pos);
    if (before) this.from(a.pos + 1, applyEvent(before, { type: 'step-done', index: this.view.indices[a.pos] as number, revised: c.text, status: 'revised', citations: [] }));
  }

  /** Steps from `from` on have streamed: their evidence now, for the corrections written so far
   * too. */
  streamed(from: number): void {
    if (this.chain.modelQueries) return;
    this.from(from);
    for (const a of this.view.attempts.values()) if (a.said === false) this.whileRevising(a);
  }
}
