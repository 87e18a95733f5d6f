/** Speculative revision: faster than the causal limit, still causal.
 *
 * Steps are committed in order, and a revision made ahead of time is committed only if the
 * round-1 prompt it was made from equals the prompt the step gets once the steps before it are
 * revised (so the answer and citations are those of the sequential schedule); otherwise it is
 * discarded, and the trace says so. Which revisions are started ahead of time:
 *
 * 1. At the draft's end, the front step (the first not yet revised) and every later step but the
 *    last start at once, each assuming that the steps before it stand as drafted. The last step,
 *    the longest call (it writes the answer), waits until the front says it stands: a draft wrong
 *    from its first step wastes at most n − 2 calls.
 * 2. A step whose reply says it stands ("kept", its first field) lets every later step start.
 * 3. A step that says it changed discards the revisions started on its draft. Then, as soon as its
 *    revised text and its queries for the later steps have streamed, the later steps start again
 *    from its revised text; if it was itself started cautiously (the front, or the step after a
 *    cautious step that changed), only the next step starts, cautiously, so a draft wrong in
 *    every step costs no more calls than the sequential schedule after the first.
 *
 * A server that answers one request at a time (parallel requests queue) or rate-limits them turns
 * speculation off for the rest of the worker's life. */
import { LlmError } from '../llm/errors';
import { applyEvent } from './run-state';
import type { Chain, FinalOutput } from './chain';
import { isDone, type Ctx } from './context';
import { exactPromptKey, plannedQuery, reviseStep } from './step';
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

interface Attempt {
  pos: number;
  ctrl: AbortController;
  /** Forwarding to the run (the front step, or an accepted speculation). */
  live: boolean;
  /** Started on confirmed ground (see rule 3). */
  cautious: boolean;
  buffer: RunEvent[];
  view: Run;
  key: Promise<string | undefined>;
  done: Promise<FinalOutput | undefined>;
  /** What its reply said so far: whether the step stands, and if not its text and new queries. */
  said?: boolean;
  ready?: { revised: string; queries: string[]; complete: boolean };
  ended: boolean;
  /** When its request went out (its prompt was built), its first output came, it ended. */
  sentAt?: number;
  firstTokenAt?: number;
  endedAt?: number;
  failed?: unknown;
}

export async function runSpeculative(ctx: Ctx, chain: Chain, indices: number[]): Promise<FinalOutput | undefined> {
  const attempts = new Map<number, Attempt>();
  const k = Math.max(1, ctx.settings.passagesPerStep);
  const n = indices.length;
  const stepIn = (run: Run, pos: number) => run.steps.find((s) => s.index === indices[pos]) as StepState;
  const stepAt = (pos: number) => stepIn(ctx.run(), pos);
  let off = false;

  // Every step's planned evidence, fetched at once: speculation will want it all.
  indices.forEach((_, pos) => isDone(stepAt(pos)) || chain.cache.prefetch(plannedQuery(stepAt(pos), chain.question), k * 2));

  const discard = (a: Attempt, reason: DiscardReason) => {
    if (attempts.get(a.pos) !== a || a.live) return;
    attempts.delete(a.pos);
    a.ctrl.abort();
    ctx.emit({ type: 'speculation', index: indices[a.pos] as number, outcome: 'discarded', reason });
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

  const finished: Attempt[] = [];
  /** Parallel requests that queue: this request was sent while another was answering, and said
   * nothing until that one had finished, waiting far longer than the quickest start seen (and
   * long in absolute terms: jitter of a few milliseconds is not a queue). */
  const noteFirstToken = (a: Attempt) => {
    if (a.firstTokenAt !== undefined || a.sentAt === undefined) return;
    const t = (a.firstTokenAt = performance.now());
    const wait = t - a.sentAt;
    const others = [...attempts.values(), ...finished].filter((b) => b !== a && b.sentAt !== undefined && b.firstTokenAt !== undefined);
    const ttft = Math.min(...others.map((b) => (b.firstTokenAt as number) - (b.sentAt as number)));
    const queued = others.some((b) => b.endedAt !== undefined && b.failed === undefined && (a.sentAt as number) < b.endedAt && b.endedAt < t) && wait > Math.max(2 * ttft, ttft + QUEUE_MS);
    if (!queued) return;
    const endpoint = ctx.llm.endpoint ?? '';
    const seen = (queuedByEndpoint.get(endpoint) ?? 0) + 1;
    queuedByEndpoint.set(endpoint, seen);
    if (seen >= QUEUED_TO_STOP) stop('queueing');
  };

  /** The run as it will stand before `pos` if every attempt before it is committed as it has said
   * so far; undefined while that is not known. */
  const projected = (pos: number): Run | undefined => {
    let v = ctx.run();
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
      if (a.said === false) {
        if (!a.ready) return undefined;
        if (!a.live) for (const ev of a.buffer) v = applyEvent(v, ev);
        if (stepIn(v, p).status !== 'revised') v = applyEvent(v, { type: 'step-done', index: indices[p] as number, revised: a.ready.revised, status: 'revised', citations: [] });
        a.ready.queries.forEach((q, i) => indices[p + 1 + i] !== undefined && q.trim() && (v = applyEvent(v, { type: 'query', index: indices[p + 1 + i] as number, round: 1, query: q.trim() })));
      }
      // Said it stands, or not said yet and assumed to (a cautious attempt stops the walk below).
    }
    return v;
  };

  /** Start what the rules allow, after anything an attempt has just said. */
  const tick = () => {
    if (off || ctx.signal.aborted) return;
    for (let p = 0; p < n; p++) {
      if (isDone(stepAt(p))) continue;
      const a = attempts.get(p);
      if (a) {
        if (a.said === true) continue;
        if (a.said === undefined && !a.cautious) continue; // assumed to stand
        if (a.said === false && a.ready && (a.ready.complete || (a.cautious && a.ready.queries.length > 0))) {
          // Rule 3: start again after a step that changed.
          const next = p + 1;
          if (next < n && !attempts.has(next)) {
            const view = projected(next);
            if (view) attempts.set(next, launch(next, a.cautious, view));
          }
          if (a.cautious) return;
          continue;
        }
        return; // its verdict is not known yet
      }
      // Rule 2: everything before p stands (or is assumed to): start p.
      const view = projected(p);
      if (!view) return;
      attempts.set(p, launch(p, false, view));
    }
  };

  const launch = (pos: number, cautious: boolean, view: Run, live = false): Attempt => {
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const key = deferred<string | undefined>();
    const a: Attempt = { pos, ctrl, live, cautious, buffer: [], view, key: key.promise, done: Promise.resolve(undefined), ended: false };
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

  // Rule 1: the front, and every later step but the last, at once.
  const first = indices.findIndex((_, p) => !isDone(stepAt(p)));
  if (first >= 0 && !off) {
    attempts.set(first, launch(first, true, ctx.run(), true));
    for (let p = first + 1; p < n - 1; p++) if (!isDone(stepAt(p))) attempts.set(p, launch(p, false, ctx.run()));
  }

  let final: FinalOutput | undefined;
  for (let pos = 0; pos < n; pos++) {
    if (isDone(stepAt(pos))) continue;
    let a = attempts.get(pos);
    if (a && !a.live) {
      const [key, exact] = await Promise.all([a.key, exactPromptKey(ctx, chain, indices, pos)]);
      if (key === exact && attempts.get(pos) === a && a.failed === undefined) {
        a.live = true;
        for (const ev of a.buffer) ctx.emit(ev);
        a.buffer = [];
        ctx.emit({ type: 'speculation', index: indices[pos] as number, outcome: 'accepted' });
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
