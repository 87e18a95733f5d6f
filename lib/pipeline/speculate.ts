/** Speculative revision: faster than the causal limit, still causal.
 *
 * The step in front of the chain (the first not yet revised) is always revised exactly. As soon
 * as its reply says it stands ("kept", the first field the model writes), the later steps are
 * revised in parallel, each on the assumption that every step before it stands as drafted. Steps
 * are then committed in order: a speculative revision is kept only if the round-1 prompt it was
 * made from equals the prompt the step would get now, from the revised steps before it (so the
 * final answer and citations are those of the sequential schedule); otherwise it is discarded,
 * and the trace says so. A step whose reply says it changed aborts the speculations after it at
 * once. A server that answers one request at a time (parallel requests queue) or rate-limits them
 * turns speculation off for the rest of the worker's life. */
import { LlmError } from '../llm/errors';
import { applyEvent } from './run-state';
import type { Chain, FinalOutput } from './chain';
import { isDone, type Ctx } from './context';
import { exactPromptKey, plannedQuery, reviseStep } from './step';
import type { DiscardReason, Run, RunEvent, SpeculationOff, StepState } from './types';

/** A wait this much longer than another request's start counts as queueing. */
const QUEUE_MS = 500;

/** Endpoints seen queueing parallel requests or rate-limiting them, with the reason. */
const offByEndpoint = new Map<string, SpeculationOff>();

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
  buffer: RunEvent[];
  view: Run;
  key: Promise<string | undefined>;
  kept: Promise<boolean>;
  done: Promise<FinalOutput | undefined>;
  /** When its request went out (its prompt was built), its first output came, it ended. */
  sentAt?: number;
  firstTokenAt?: number;
  endedAt?: number;
  failed?: unknown;
}

export async function runSpeculative(ctx: Ctx, chain: Chain, indices: number[]): Promise<FinalOutput | undefined> {
  const attempts = new Map<number, Attempt>();
  const k = Math.max(1, ctx.settings.passagesPerStep);
  const stepAt = (pos: number) => ctx.run().steps.find((s) => s.index === indices[pos]) as StepState;
  let off = false;

  // Every step's planned evidence, fetched at once: speculation will want it all.
  indices.forEach((_, pos) => isDone(stepAt(pos)) || chain.cache.prefetch(plannedQuery(stepAt(pos), chain.question), k * 2));

  const discard = (a: Attempt, reason: DiscardReason) => {
    if (attempts.get(a.pos) !== a) return;
    attempts.delete(a.pos);
    a.ctrl.abort();
    ctx.emit({ type: 'speculation', index: indices[a.pos] as number, outcome: 'discarded', reason });
  };
  const discardAfter = (pos: number, reason: DiscardReason) => {
    for (const a of [...attempts.values()]) if (a.pos > pos && !a.live) discard(a, reason);
  };
  const stop = (reason: SpeculationOff) => {
    if (off) return;
    off = true;
    offByEndpoint.set(ctx.llm.endpoint ?? '', reason);
    ctx.emit({ type: 'speculation-off', reason });
    for (const a of [...attempts.values()]) if (!a.live) discard(a, reason === 'queueing' ? 'server-queues' : 'server-limits');
  };

  const launch = (pos: number, live: boolean): Attempt => {
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const key = deferred<string | undefined>();
    const kept = deferred<boolean>();
    const a: Attempt = { pos, ctrl, live, buffer: [], view: ctx.run(), key: key.promise, kept: kept.promise, done: Promise.resolve(undefined) };
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
        kept.resolve(said);
      },
    }).finally(() => {
      a.endedAt = performance.now();
      finished.push(a);
      key.resolve(undefined); // a step that found no evidence sends no prompt
      kept.resolve((a.live ? ctx.run() : a.view).steps.find((s) => s.index === indices[pos])?.status !== 'revised');
      ctx.signal.removeEventListener('abort', onAbort);
    });
    // A speculation's failure matters only if it is accepted (then it is the step's failure).
    a.done.catch((err: unknown) => {
      a.failed = err;
      if (!a.live && err instanceof LlmError && err.info.code === 'rate-limit') stop('rate-limit');
    });
    // A step that will not stand invalidates every speculation that assumed it would.
    void a.kept.then((said) => {
      if (!said) discardAfter(pos, 'earlier-changed');
    });
    return a;
  };

  const finished: Attempt[] = [];
  /** Parallel requests that queue: this request was sent while another was answering, and said
   * nothing until that one had finished, waiting far longer than the other took to start (and
   * long in absolute terms: jitter of a few milliseconds is not a queue). */
  const noteFirstToken = (a: Attempt) => {
    if (a.firstTokenAt !== undefined || a.sentAt === undefined) return;
    const t = (a.firstTokenAt = performance.now());
    const wait = t - a.sentAt;
    const others = [...attempts.values(), ...finished].filter((b) => b !== a && b.sentAt !== undefined && b.firstTokenAt !== undefined);
    // The quickest start seen is the server's own time to first token, without a queue.
    const ttft = Math.min(...others.map((b) => (b.firstTokenAt as number) - (b.sentAt as number)));
    const queued = others.some((b) => b.endedAt !== undefined && b.failed === undefined && (a.sentAt as number) < b.endedAt && b.endedAt < t) && wait > Math.max(2 * ttft, ttft + QUEUE_MS);
    if (queued) stop('queueing');
  };

  const launchAfter = (pos: number) => {
    if (off || ctx.signal.aborted) return;
    for (let p = pos + 1; p < indices.length; p++) if (!attempts.has(p) && !isDone(stepAt(p))) attempts.set(p, launch(p, false));
  };

  let final: FinalOutput | undefined;
  for (let pos = 0; pos < indices.length; pos++) {
    if (isDone(stepAt(pos))) continue;
    let a = attempts.get(pos);
    if (a) {
      const [key, exact] = await Promise.all([a.key, exactPromptKey(ctx, chain, indices, pos)]);
      if (key === exact && attempts.get(pos) === a) {
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
      a = launch(pos, true);
      attempts.set(pos, a);
    }
    // The front step: once it says it stands, the later steps can be revised in parallel.
    const front = a;
    void front.kept.then((said) => said && attempts.get(pos) === front && launchAfter(pos));
    const f = await front.done;
    attempts.delete(pos);
    if (stepAt(pos).status === 'revised') discardAfter(pos, 'earlier-changed');
    final = f ?? final;
  }
  return final;
}
