/** Speculative revision: faster than the causal limit, still causal.
 *
 * Steps are committed in order, and a revision made ahead of time is committed only if the
 * round-1 prompt it was made from equals the prompt the step gets once the steps before it are
 * revised (so the answer and citations are those of the sequential schedule); otherwise it is
 * discarded, and the trace says so. Which revisions are started ahead of time:
 *
 * 1. The front step (the first not yet revised) and every later step but the last start at once,
 *    each assuming that the steps before it stand as drafted: in a pipelined chain as soon as the
 *    step has streamed (chain.ts; its prompt holds nothing written after it), else at the draft's
 *    end. The last step, the longest call (it writes the answer), waits until the front says it
 *    stands, and for the draft's end: a draft wrong from its first step wastes at most n − 2 calls.
 * 2. A step whose reply says it stands ("kept", its first field) lets every later step start.
 * 3. A step that says it changed discards the revisions started on its draft. Then, as soon as its
 *    revised text and its queries for the later steps have streamed, the later steps start again
 *    from its revised text; if it was itself started cautiously (the front, or the step after a
 *    cautious step that changed), only the next step starts, cautiously, so a draft wrong in
 *    every step costs no more calls than the sequential schedule after the first.
 *
 * Nothing is committed before the draft has ended: a revision started on a streamed step is kept
 * only if its prompt equals the one the whole draft gives (the front's included; only those that
 * assumed earlier steps stand are said to be speculative in the trace).
 *
 * The last step's first round also has its answer written beside it, assuming the step stands
 * (./answer-beside.ts): kept only if the step's revision says so, else the revision's own answer.
 *
 * A server that answers one request at a time (parallel requests queue) or rate-limits them turns
 * speculation off for the rest of the worker's life (./speculation-policy.ts). */
import { LlmError } from '../llm/errors';
import { applyEvent } from './run-state';
import { drafting, isLastStep, type Chain, type FinalOutput } from './chain';
import { isDone, raceAbort, stepsOfPart, type Ctx } from './context';
import { withDraftedSteps, type CallTiming, type DraftFeed } from './draft-feed';
import { attemptContext, deferred, replay, type Attempt } from './speculation-attempt';
import { startLagProbe, type LagProbe } from './lag-probe';
import { firstWordSays, turnOffFor } from './speculation-policy';
import { exactPromptKey, laterRule, reviseStep } from './step';
import { LaterEvidence } from './later-evidence';
import type { StepHooks } from './step-reply';
import type { DiscardReason, Run, RunEvent, SpeculationOff, StepState } from '../core/run';
import { followAbort } from '../core/abort';

/** `indices`: the chain's steps in order; while the draft streams (chain.feed), empty at first and
 * filled as steps are fed, then replaced by the draft's own. */
export async function runSpeculative(ctx: Ctx, chain: Chain, indices: number[]): Promise<FinalOutput | undefined> {
  const lag = startLagProbe();
  try {
    return await new Speculation(ctx, chain, indices, lag).run();
  } finally {
    lag.stop();
  }
}

/** One chain revised on the speculative schedule (the rules above). */
class Speculation {
  private readonly attempts = new Map<number, Attempt>();
  private readonly evidence: LaterEvidence;
  private readonly feed: DraftFeed | undefined;
  private off = false;
  /** Said in the trace once the step is in the run (while the draft streams, it is not yet). */
  private readonly held: RunEvent[] = [];
  /** Requests that have ended, and the draft's (with which the first revisions overlap). */
  private readonly finished: CallTiming[];
  /** Two replies seen streaming at once: a slow start is a busy server or long prompt, not a queue. */
  private parallelSeen = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly chain: Chain,
    private readonly indices: number[],
    private readonly lag: LagProbe,
  ) {
    this.evidence = new LaterEvidence(chain, { indices, attempts: this.attempts, stepIn: (r, p) => this.stepIn(r, p), stepAt: (p) => this.stepAt(p), projected: (p) => this.projected(p) }, ctx.settings.passagesPerStep);
    this.feed = drafting(chain) ? chain.feed : undefined;
    this.finished = this.feed ? [this.feed.call] : [];
  }

  async run(): Promise<FinalOutput | undefined> {
    if (this.feed) await this.followDraft(this.feed);
    // Every step's planned evidence, fetched at once: speculation will want it all.
    this.evidence.from(0, this.base());
    this.launchAhead();
    this.tick();
    let final: FinalOutput | undefined;
    for (let pos = 0; pos < this.indices.length; pos++) {
      if (isDone(this.stepAt(pos))) continue;
      final = (await this.commitStep(pos)) ?? final;
      this.tick();
    }
    return final;
  }

  /** The run as the chain sees it: while the draft streams, with the steps fed so far. */
  private base(): Run {
    return this.feed && drafting(this.chain) ? this.feed.provisional(this.ctx.run()) : this.ctx.run();
  }

  private stepIn(run: Run, pos: number): StepState {
    return run.steps.find((s) => s.index === this.indices[pos]) as StepState;
  }

  private stepAt(pos: number): StepState {
    return this.stepIn(this.base(), pos);
  }

  /** How many steps from the first can be started: while the draft streams, those whose query
   * and next step's text are in (none of them the last). */
  private startable(): number {
    return this.feed && drafting(this.chain) ? this.feed.ready() : this.indices.length;
  }

  /** While the draft streams only a lean prompt can be built (its step is started on the steps
   * before it standing; a step after a changed one waits for the whole draft). */
  private buildable(p: number, view: Run): boolean {
    return !drafting(this.chain) || (p < this.startable() && laterRule(this.chain, this.indices.slice(0, p).map((_, q) => this.stepIn(view, q)), false).lean);
  }

  private discard(a: Attempt, reason: DiscardReason): void {
    if (this.attempts.get(a.pos) !== a || a.live) return;
    this.attempts.delete(a.pos);
    a.ctrl.abort();
    const ev: RunEvent = { type: 'speculation', index: this.indices[a.pos] as number, outcome: 'discarded', reason };
    if (drafting(this.chain)) this.held.push(ev);
    else this.ctx.emit(ev);
  }

  private discardAfter(pos: number, reason: DiscardReason): void {
    for (const a of [...this.attempts.values()]) if (a.pos > pos) this.discard(a, reason);
  }

  private stop(reason: SpeculationOff): void {
    if (this.off) return;
    this.off = true;
    turnOffFor(this.ctx.llm, reason);
    this.ctx.emit({ type: 'speculation-off', reason });
    this.discardAfter(-1, reason === 'queueing' ? 'server-queues' : 'server-limits');
  }

  /** An attempt's first word: beside another reply (the endpoint answers side by side), or
   * after waiting in the server's queue, twice at this endpoint (speculation stops). */
  private noteFirstToken(a: Attempt): void {
    if (a.firstTokenAt !== undefined || a.sentAt === undefined) return;
    const said = firstWordSays({ sentAt: a.sentAt, firstTokenAt: (a.firstTokenAt = performance.now()), promptChars: a.promptChars }, [...this.attempts.values(), ...this.finished].filter((b) => b !== a), this.parallelSeen, this.lag.maxSince(a.sentAt), this.ctx.llm);
    if (said === 'parallel') this.parallelSeen = true;
    if (said === 'queueing') this.stop('queueing');
  }

  /** The run as it will stand before `pos` if every attempt before it is committed as it has said
   * so far; undefined while that is not known. */
  private projected(pos: number): Run | undefined {
    let v: Run | undefined = this.base();
    for (let p = 0; p < pos && v; p++) v = this.projectStep(v, p);
    return v;
  }

  /** `v` with step `p` as its attempt has said so far; undefined while that is not known. */
  private projectStep(v: Run, p: number): Run | undefined {
    const a = this.attempts.get(p);
    // Done, unless its attempt runs on (a step committed before its queries for the later steps).
    if (isDone(this.stepIn(v, p)) && !(a && !a.ended)) return v;
    if (!a) return undefined;
    if (a.ended && !a.live && a.failed === undefined) {
      const after = replay(v, a.buffer);
      return isDone(this.stepIn(after, p)) ? after : undefined;
    }
    if (a.said === false || a.writes) return this.withWritten(v, p, a);
    // Said it stands, or not said yet and assumed to (a cautious attempt stops the walk below).
    return v;
  }

  /** Its reply writes the later steps' queries: they are known once written. */
  private withWritten(run: Run, p: number, a: Attempt): Run | undefined {
    if (!a.ready) return undefined;
    let v = a.live ? run : replay(run, a.buffer);
    if (a.said === false && this.stepIn(v, p).status !== 'revised') v = applyEvent(v, { type: 'step-done', index: this.indices[p] as number, revised: a.ready.revised, status: 'revised', citations: [] });
    a.ready.queries.forEach((q, i) => {
      const later = this.indices[p + 1 + i];
      if (later !== undefined && q.trim()) v = applyEvent(v, { type: 'query', index: later, round: 1, query: q.trim() });
    });
    return v;
  }

  /** Start what the rules allow, after anything an attempt has just said. */
  private tick(): void {
    if (this.off || this.ctx.signal.aborted) return;
    const n = this.startable();
    for (let p = 0; p < n; p++) {
      if (isDone(this.stepAt(p))) continue;
      const a = this.attempts.get(p);
      if (a) {
        if (this.goesOnPast(a, p, n)) continue;
        return;
      }
      // Rule 2: everything before p stands (or is assumed to): start p.
      const view = this.projected(p);
      if (!view || !this.buildable(p, view)) return;
      this.attempts.set(p, this.launch(p, false, view));
    }
  }

  /** Whether `tick` goes on past step p's attempt. After a step whose reply writes the later
   * steps' queries (it changed, or its prompt asks for them anyway), rule 3 starts the next. */
  private goesOnPast(a: Attempt, p: number, n: number): boolean {
    // Stands, or assumed to; else its verdict is not known yet.
    if (!a.writes && a.said !== false) return a.said === true || !a.cautious;
    if (!a.ready || !(a.ready.complete || (a.cautious && a.ready.queries.length > 0))) return false;
    // Rule 3: start again after a step that changed (or go on after one that stands).
    const changed = a.said === false;
    const next = p + 1;
    if (next < n && !this.attempts.has(next)) {
      const view = this.projected(next);
      if (view && this.buildable(next, view)) this.attempts.set(next, this.launch(next, a.cautious && changed, view));
    }
    // Partial queries start the next step only (its own query is among them).
    return !((a.cautious && changed) || !a.ready.complete);
  }

  private launch(pos: number, cautious: boolean, view: Run, live = false): Attempt {
    const { ctx, chain, indices } = this;
    const ctrl = new AbortController();
    const unfollow = followAbort(ctx.signal, () => ctrl.abort());
    const key = deferred<string | undefined>();
    const assumed = indices.slice(0, pos).some((_, p) => !isDone(this.stepAt(p)));
    const { rewriteLater: writes } = laterRule(chain, indices.slice(0, pos).map((_, p) => this.stepIn(view, p)), isLastStep(chain, indices, pos));
    const a: Attempt = { pos, ctrl, live, cautious, assumed, writes, buffer: [], view, key: key.promise, done: Promise.resolve(undefined), ended: false };
    a.done = reviseStep(attemptContext(ctx, a, () => this.noteFirstToken(a)), chain, indices, pos, this.attemptHooks(a, key.resolve)).finally(() => {
      a.ended = true;
      a.endedAt = performance.now();
      this.finished.push(a);
      key.resolve(undefined); // a step that found no evidence sends no prompt
      this.settleSaid(a);
      unfollow();
      this.tick();
    });
    // A speculation's failure matters only if it is accepted (then it is the step's failure).
    a.done.catch((err: unknown) => {
      a.failed = err;
      if (!a.live && err instanceof LlmError && err.info.code === 'rate-limit') this.stop('rate-limit');
    });
    return a;
  }

  /** What an attempt's reply says as it streams. */
  private attemptHooks(a: Attempt, resolveKey: (key: string | undefined) => void): StepHooks {
    return {
      onPrompt: (k) => {
        a.sentAt ??= performance.now();
        a.promptChars ??= k.length;
        resolveKey(k);
      },
      onKept: (said) => {
        this.noteFirstToken(a);
        if (a.said !== undefined) return;
        a.said = said;
        // A step that will not stand invalidates every revision started on its draft.
        if (!said) this.discardAfter(a.pos, 'earlier-changed');
        this.tick();
      },
      onReady: (ready) => {
        a.ready = ready;
        if (a.said === false && !this.chain.modelQueries) this.evidence.from(a.pos + 1);
        this.tick();
      },
      onRevising: (partial) => this.evidence.whileRevising(a, partial),
    };
  }

  /** An attempt has ended (or failed): whether its step stands is known now. */
  private settleSaid(a: Attempt): void {
    const changed = this.stepIn(a.live ? this.ctx.run() : a.view, a.pos)?.status === 'revised';
    if (a.said === undefined || a.said !== !changed) {
      a.said = !changed;
      if (changed) this.discardAfter(a.pos, 'earlier-changed');
    }
  }

  /** Rule 1: the front, and every later step but the last, at once (or as soon as they have
   * streamed); the front is forwarded to the run at once if the draft is whole. */
  private launchAhead(): void {
    if (this.off || this.ctx.signal.aborted) return;
    const front = this.indices.findIndex((_, p) => !isDone(this.stepAt(p)));
    if (front < 0) return;
    const end = drafting(this.chain) ? this.startable() : this.indices.length - 1;
    for (let p = front; p < end; p++) {
      const a = this.attempts.get(p);
      // Past a step whose reply rewrites the later queries, rule 3 decides (tick).
      if (a && (a.said === false || a.writes)) return;
      if (isDone(this.stepAt(p)) || a) continue;
      const view = this.projected(p);
      if (!view || !this.buildable(p, view)) return;
      this.attempts.set(p, this.launch(p, p === front, view, p === front && !drafting(this.chain)));
    }
  }

  /** While the draft streams, each step joins the chain as it has streamed; until it has ended. */
  private async followDraft(feed: DraftFeed): Promise<void> {
    const stopListening = feed.listen(() => this.onFeed(feed));
    try {
      await raceAbort(feed.ended, this.ctx.signal);
    } catch (err) {
      // The draft failed or the run was cancelled: nothing started on it may go on.
      this.off = true;
      for (const a of this.attempts.values()) a.ctrl.abort();
      throw err;
    } finally {
      stopListening();
    }
  }

  private onFeed(feed: DraftFeed): void {
    if (feed.failed) return;
    if (feed.done) return this.draftEnded();
    // A step has streamed: it joins the chain (after a change, its evidence is the change's).
    const from = this.indices.length;
    for (let i = from; i < feed.steps.length; i++) this.indices.push(feed.base + i);
    if (this.indices.length > from) this.evidence.streamed(from);
    this.launchAhead();
    this.tick();
  }

  /** The draft has ended (before anyone awaiting it goes on): the chain is the draft's steps, and
   * each revision started on the stream sees them all. */
  private draftEnded(): void {
    const { ctx, chain, indices } = this;
    const streamed = indices.length;
    indices.splice(0, indices.length, ...stepsOfPart(ctx.run(), chain.part).map((s) => s.index));
    for (const ev of this.held.splice(0)) if (ctx.run().steps.some((s) => 'index' in ev && s.index === ev.index)) ctx.emit(ev);
    for (const a of [...this.attempts.values()]) {
      if (a.pos >= indices.length) this.discard(a, 'context-changed');
      else a.view = withDraftedSteps(a.view, ctx.run(), chain.part);
    }
    this.evidence.streamed(Math.min(streamed, indices.length));
  }

  /** Commits step `pos` (steps are committed in order): the revision started ahead of time if its
   * prompt was exact, else the step revised now, in front. */
  private async commitStep(pos: number): Promise<FinalOutput | undefined> {
    let a = await this.acceptedAttempt(pos);
    if (!a) {
      // The front, revised exactly.
      a = this.launch(pos, true, this.ctx.run(), true);
      this.attempts.set(pos, a);
    }
    const f = await this.outcome(pos, a);
    this.attempts.delete(pos);
    return f;
  }

  /** The attempt at `pos`, made live if it was started ahead of time on the prompt the step gets
   * now; discarded (undefined) if not. */
  private async acceptedAttempt(pos: number): Promise<Attempt | undefined> {
    const a = this.attempts.get(pos);
    if (!a || a.live) return a;
    const [key, exact] = await Promise.all([a.key, exactPromptKey(this.ctx, this.chain, this.indices, pos)]);
    if (key !== exact || this.attempts.get(pos) !== a || a.failed !== undefined) {
      this.discard(a, 'context-changed');
      return undefined;
    }
    a.live = true;
    for (const ev of a.buffer) this.ctx.emit(ev);
    a.buffer = [];
    if (a.assumed) this.ctx.emit({ type: 'speculation', index: this.indices[pos] as number, outcome: 'accepted' });
    return a;
  }

  /** The step's revision. One started ahead of time that the server turned away (parallel
   * requests are limited) is asked again, now in front; any other failure is the step's. */
  private async outcome(pos: number, a: Attempt): Promise<FinalOutput | undefined> {
    try {
      return await a.done;
    } catch (err) {
      if (!(err instanceof LlmError && err.info.code === 'rate-limit') || a.cautious || this.ctx.signal.aborted) throw err;
      this.attempts.delete(pos);
      const again = this.launch(pos, true, this.ctx.run(), true);
      this.attempts.set(pos, again);
      return await again.done;
    }
  }
}
