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
 * A server that answers one request at a time (parallel requests queue) or rate-limits them turns
 * speculation off for the rest of the worker's life. */
import { LlmError } from '../llm/errors';
import { applyEvent } from './run-state';
import { drafting, isLastStep, type Chain, type FinalOutput } from './chain';
import { isDone, raceAbort, stepsOfPart, type Ctx } from './context';
import { withDraftedSteps, type CallTiming } from './draft-feed';
import { startLagProbe, type LagProbe } from './lag-probe';
import { exactPromptKey, laterRule, plannedQuery, reviseStep } from './step';
import type { DiscardReason, Run, RunEvent, SpeculationOff, StepState } from '../core/run';

/** A wait this much longer than another request's start counts as queueing. */
const QUEUE_MS = 500;

/** Endpoints seen queueing parallel requests or rate-limiting them, with the reason. */
const offByEndpoint = new Map<string, SpeculationOff>();
/** Requests seen queueing, per endpoint: one can be a slow prompt on a busy but parallel server,
 * so it takes two (a serial server shows it on every parallel request) to turn speculation off. */
const QUEUED_TO_STOP = 2;
const queuedByEndpoint = new Map<string, number>();

/** Why speculation is off for this run, if it is. */
export function speculationOff(ctx: Ctx): SpeculationOff | undefined {
  const why: SpeculationOff | undefined = !ctx.settings.speculate ? 'setting' : ctx.llm.serial ? 'one-at-a-time' : offByEndpoint.get(ctx.llm.endpoint ?? '');
  // Said once per run, in the trace, unless the user chose it.
  if (why && why !== 'setting' && ctx.run().speculationOff !== why) ctx.emit({ type: 'speculation-off', reason: why });
  return why;
}

/** An endpoint seen refusing a request sent beside another: nothing is sent ahead of time to it
 * again, and the run says so. */
export function serverLimitsParallel(ctx: Ctx): void {
  offByEndpoint.set(ctx.llm.endpoint ?? '', 'rate-limit');
  if (ctx.run().speculationOff !== 'rate-limit') ctx.emit({ type: 'speculation-off', reason: 'rate-limit' });
}

/** Forget what was learnt about endpoints (tests). */
export function resetSpeculationPolicy(): void {
  offByEndpoint.clear();
  queuedByEndpoint.clear();
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

interface Attempt extends CallTiming {
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
  ended: boolean;
}

/** `indices`: the chain's steps in order; while the draft streams (chain.feed), empty at first and
 * filled as steps are fed, then replaced by the draft's own. */
export async function runSpeculative(ctx: Ctx, chain: Chain, indices: number[]): Promise<FinalOutput | undefined> {
  const lag = startLagProbe();
  try {
    return await speculate(ctx, chain, indices, lag);
  } finally {
    lag.stop();
  }
}

async function speculate(ctx: Ctx, chain: Chain, indices: number[], lag: LagProbe): Promise<FinalOutput | undefined> {
  const attempts = new Map<number, Attempt>();
  const k = Math.max(1, ctx.settings.passagesPerStep);
  const feed = drafting(chain) ? chain.feed : undefined;
  /** The run as the chain sees it: while the draft streams, with the steps fed so far. */
  const base = (): Run => (feed && drafting(chain) ? feed.provisional(ctx.run()) : ctx.run());
  const stepIn = (run: Run, pos: number) => run.steps.find((s) => s.index === indices[pos]) as StepState;
  const stepAt = (pos: number) => stepIn(base(), pos);
  let off = false;
  /** How many steps from the first can be started: while the draft streams, those whose query
   * and next step's text are in (none of them the last). */
  const startable = () => (feed && drafting(chain) ? feed.ready() : indices.length);
  /** While the draft streams only a lean prompt can be built (its step is started on the steps
   * before it standing; a step after a changed one waits for the whole draft). */
  const buildable = (p: number, view: Run) => !drafting(chain) || (p < startable() && laterRule(chain, indices.slice(0, p).map((_, q) => stepIn(view, q)), false).lean);

  /** Said in the trace once the step is in the run (while the draft streams, it is not yet). */
  const held: RunEvent[] = [];
  const discard = (a: Attempt, reason: DiscardReason) => {
    if (attempts.get(a.pos) !== a || a.live) return;
    attempts.delete(a.pos);
    a.ctrl.abort();
    const ev: RunEvent = { type: 'speculation', index: indices[a.pos] as number, outcome: 'discarded', reason };
    if (drafting(chain)) held.push(ev);
    else ctx.emit(ev);
  };
  const discardAfter = (pos: number, reason: DiscardReason) => {
    for (const a of [...attempts.values()]) if (a.pos > pos) discard(a, reason);
  };
  const stop = (reason: SpeculationOff) => {
    if (off) return;
    off = true;
    offByEndpoint.set(ctx.llm.endpoint ?? '', reason);
    ctx.emit({ type: 'speculation-off', reason });
    discardAfter(-1, reason === 'queueing' ? 'server-queues' : 'server-limits');
  };

  /** Requests that have ended, and the draft's (with which the first revisions overlap). */
  const finished: CallTiming[] = feed ? [feed.call] : [];
  /** Two of the run's requests seen streaming at once: the server answers in parallel, and a slow
   * start is a busy server (or a long prompt), not a queue. */
  let parallelSeen = false;
  /** Parallel requests that queue: this request was sent while another was answering, and said
   * nothing until that one had finished, waiting far longer than the quickest start seen (and
   * long in absolute terms: jitter of a few milliseconds is not a queue), then spoke soon after
   * that one's end. */
  const noteFirstToken = (a: Attempt) => {
    if (a.firstTokenAt !== undefined || a.sentAt === undefined) return;
    const t = (a.firstTokenAt = performance.now());
    const wait = t - a.sentAt;
    const others = [...attempts.values(), ...finished].filter((b) => b !== a && b.sentAt !== undefined && b.firstTokenAt !== undefined && b.failed === undefined);
    // Revisions started while the draft streams mostly start while it (or another) still streams.
    if (others.some((b) => b.endedAt === undefined)) parallelSeen = true;
    // A client that was itself too late to tell: no judgement either way.
    if (parallelSeen || lag.maxSince(a.sentAt) > QUEUE_MS / 2) return;
    const ttft = Math.min(...others.map((b) => (b.firstTokenAt as number) - (b.sentAt as number)));
    // Behind a queue, the first word comes about as soon after the other's end as a request that
    // waited for nothing would say it; a starved client (a busy machine) hears everything late.
    const queued = others.some((b) => b.endedAt !== undefined && b.failed === undefined && (a.sentAt as number) < b.endedAt && b.endedAt < t && t - b.endedAt <= ttft + QUEUE_MS) && wait > Math.max(2 * ttft, ttft + QUEUE_MS);
    if (!queued) return;
    const endpoint = ctx.llm.endpoint ?? '';
    const seen = (queuedByEndpoint.get(endpoint) ?? 0) + 1;
    queuedByEndpoint.set(endpoint, seen);
    if (seen >= QUEUED_TO_STOP) stop('queueing');
  };

  /** The run as it will stand before `pos` if every attempt before it is committed as it has said
   * so far; undefined while that is not known. */
  const projected = (pos: number): Run | undefined => {
    let v = base();
    for (let p = 0; p < pos; p++) {
      const a = attempts.get(p);
      // Done, unless its attempt runs on (a step committed before its queries for the later steps).
      if (isDone(stepIn(v, p)) && !(a && !a.ended)) continue;
      if (!a) return undefined;
      if (a.ended && !a.live && a.failed === undefined) {
        for (const ev of a.buffer) v = applyEvent(v, ev);
        if (isDone(stepIn(v, p))) continue;
        return undefined;
      }
      if (a.said === false || a.writes) {
        // Its reply writes the later steps' queries: they are known once written.
        if (!a.ready) return undefined;
        if (!a.live) for (const ev of a.buffer) v = applyEvent(v, ev);
        if (a.said === false && stepIn(v, p).status !== 'revised') v = applyEvent(v, { type: 'step-done', index: indices[p] as number, revised: a.ready.revised, status: 'revised', citations: [] });
        a.ready.queries.forEach((q, i) => indices[p + 1 + i] !== undefined && q.trim() && (v = applyEvent(v, { type: 'query', index: indices[p + 1 + i] as number, round: 1, query: q.trim() })));
      }
      // Said it stands, or not said yet and assumed to (a cautious attempt stops the walk below).
    }
    return v;
  };

  /** Start what the rules allow, after anything an attempt has just said. */
  const tick = () => {
    if (off || ctx.signal.aborted) return;
    const n = startable();
    for (let p = 0; p < n; p++) {
      if (isDone(stepAt(p))) continue;
      const a = attempts.get(p);
      if (a) {
        if (!a.writes && a.said !== false) {
          if (a.said === true || !a.cautious) continue; // stands, or assumed to
          return; // its verdict is not known yet
        }
        // It writes the later steps' queries (it changed, or its prompt asks for them anyway).
        if (!a.ready || !(a.ready.complete || (a.cautious && a.ready.queries.length > 0))) return;
        // Rule 3: start again after a step that changed (or go on after one that stands).
        const changed = a.said === false;
        const next = p + 1;
        if (next < n && !attempts.has(next)) {
          const view = projected(next);
          if (view && buildable(next, view)) attempts.set(next, launch(next, a.cautious && changed, view));
        }
        // Partial queries start the next step only (its own query is among them).
        if ((a.cautious && changed) || !a.ready.complete) return;
        continue;
      }
      // Rule 2: everything before p stands (or is assumed to): start p.
      const view = projected(p);
      if (!view || !buildable(p, view)) return;
      attempts.set(p, launch(p, false, view));
    }
  };

  const launch = (pos: number, cautious: boolean, view: Run, live = false): Attempt => {
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const key = deferred<string | undefined>();
    const assumed = indices.slice(0, pos).some((_, p) => !isDone(stepAt(p)));
    const { rewriteLater: writes } = laterRule(chain, indices.slice(0, pos).map((_, p) => stepIn(view, p)), isLastStep(chain, indices, pos));
    const a: Attempt = { pos, ctrl, live, cautious, assumed, writes, buffer: [], view, key: key.promise, done: Promise.resolve(undefined), ended: false };
    const sctx: Ctx = {
      ...ctx,
      signal: ctrl.signal,
      run: () => (a.live ? ctx.run() : a.view),
      emit: (ev) => {
        if (a.firstTokenAt === undefined && (ev.type === 'revision-delta' || ev.type === 'answer-delta')) noteFirstToken(a);
        if (a.live) return ctx.emit(ev);
        a.view = applyEvent(a.view, ev);
        a.buffer.push(ev);
      },
    };
    a.done = reviseStep(sctx, chain, indices, pos, {
      onPrompt: (k) => {
        a.sentAt ??= performance.now();
        key.resolve(k);
      },
      onKept: (said) => {
        noteFirstToken(a);
        if (a.said !== undefined) return;
        a.said = said;
        // A step that will not stand invalidates every revision started on its draft.
        if (!said) discardAfter(pos, 'earlier-changed');
        tick();
      },
      onReady: (ready) => {
        a.ready = ready;
        tick();
      },
    }).finally(() => {
      a.ended = true;
      a.endedAt = performance.now();
      finished.push(a);
      key.resolve(undefined); // a step that found no evidence sends no prompt
      const changed = stepIn(a.live ? ctx.run() : a.view, pos)?.status === 'revised';
      if (a.said === undefined || a.said !== !changed) {
        a.said = !changed;
        if (changed) discardAfter(pos, 'earlier-changed');
      }
      ctx.signal.removeEventListener('abort', onAbort);
      tick();
    });
    // A speculation's failure matters only if it is accepted (then it is the step's failure).
    a.done.catch((err: unknown) => {
      a.failed = err;
      if (!a.live && err instanceof LlmError && err.info.code === 'rate-limit') stop('rate-limit');
    });
    return a;
  };

  /** Rule 1: the front, and every later step but the last, at once (or as soon as they have
   * streamed); the front is forwarded to the run at once if the draft is whole. */
  const launchAhead = () => {
    if (off || ctx.signal.aborted) return;
    const front = indices.findIndex((_, p) => !isDone(stepAt(p)));
    if (front < 0) return;
    const end = drafting(chain) ? startable() : indices.length - 1;
    for (let p = front; p < end; p++) {
      const a = attempts.get(p);
      // Past a step whose reply rewrites the later queries, rule 3 decides (tick).
      if (a && (a.said === false || a.writes)) return;
      if (isDone(stepAt(p)) || a) continue;
      const view = projected(p);
      if (!view || !buildable(p, view)) return;
      attempts.set(p, launch(p, p === front, view, p === front && !drafting(chain)));
    }
  };

  if (feed) {
    const stopListening = feed.listen(() => {
      if (feed.failed) return;
      if (!feed.done) {
        // A step has streamed: it joins the chain.
        for (let i = indices.length; i < feed.steps.length; i++) indices.push(feed.base + i);
        launchAhead();
        tick();
        return;
      }
      // The draft has ended (before anyone awaiting it goes on): the chain is the draft's steps,
      // and each revision started on the stream sees them all.
      indices.splice(0, indices.length, ...stepsOfPart(ctx.run(), chain.part).map((s) => s.index));
      for (const ev of held.splice(0)) if (ctx.run().steps.some((s) => 'index' in ev && s.index === ev.index)) ctx.emit(ev);
      for (const a of [...attempts.values()]) {
        if (a.pos >= indices.length) discard(a, 'context-changed');
        else a.view = withDraftedSteps(a.view, ctx.run(), chain.part);
      }
    });
    try {
      await raceAbort(feed.ended, ctx.signal);
    } catch (err) {
      // The draft failed or the run was cancelled: nothing started on it may go on.
      off = true;
      for (const a of attempts.values()) a.ctrl.abort();
      throw err;
    } finally {
      stopListening();
    }
  }

  // Every step's planned evidence, fetched at once: speculation will want it all.
  indices.forEach((_, pos) => isDone(stepAt(pos)) || chain.cache.prefetch(plannedQuery(stepAt(pos), chain.question), k * 2));
  launchAhead();
  tick();

  let final: FinalOutput | undefined;
  for (let pos = 0; pos < indices.length; pos++) {
    if (isDone(stepAt(pos))) continue;
    let a = attempts.get(pos);
    if (a && !a.live) {
      const [key, exact] = await Promise.all([a.key, exactPromptKey(ctx, chain, indices, pos)]);
      if (key === exact && attempts.get(pos) === a && a.failed === undefined) {
        a.live = true;
        for (const ev of a.buffer) ctx.emit(ev);
        a.buffer = [];
        if (a.assumed) ctx.emit({ type: 'speculation', index: indices[pos] as number, outcome: 'accepted' });
      } else {
        discard(a, 'context-changed');
        a = undefined;
      }
    }
    if (!a) {
      // The front, revised exactly.
      a = launch(pos, true, ctx.run(), true);
      attempts.set(pos, a);
    }
    let f: FinalOutput | undefined;
    try {
      f = await a.done;
    } catch (err) {
      // A revision started ahead of time that the server turned away (parallel requests are
      // limited) is asked again, now in front; any other failure is the step's.
      if (!(err instanceof LlmError && err.info.code === 'rate-limit') || a.cautious || ctx.signal.aborted) throw err;
      attempts.delete(pos);
      a = launch(pos, true, ctx.run(), true);
      attempts.set(pos, a);
      f = await a.done;
    }
    attempts.delete(pos);
    final = f ?? final;
    tick();
  }
  return final;
}
