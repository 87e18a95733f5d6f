/** When speculative revision is off: by the user's choice, for a model that answers one request
 * at a time, and (for the rest of the worker's life) for an endpoint seen queueing parallel
 * requests or rate-limiting them. */
import type { Ctx } from './context';
import type { LlmClient } from '../llm/types';
import type { CallTiming } from './draft-feed';
import type { SpeculationOff } from '../core/run';

/** A wait this much longer than another request's start counts as queueing. */
export const QUEUE_MS = 500;

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
  turnOffFor(ctx.llm, 'rate-limit');
  if (ctx.run().speculationOff !== 'rate-limit') ctx.emit({ type: 'speculation-off', reason: 'rate-limit' });
}

/** Speculation is off for this endpoint from now on (in this worker), and the endpoint is
 * remembered as one that does not answer side by side. */
export function turnOffFor(llm: LlmClient, reason: SpeculationOff): void {
  offByEndpoint.set(llm.endpoint ?? '', reason);
  llm.learnParallel?.(false);
}

/** Two replies were seen streaming at once from this endpoint. */
export function noteServesParallel(llm: LlmClient): void {
  if (!offByEndpoint.has(llm.endpoint ?? '')) llm.learnParallel?.(true);
}

/** Whether this run's endpoint is known to answer requests side by side (an earlier run saw it,
 * nothing since has seen it queue or refuse, and speculation is on): a request beside another
 * need not wait for the first to be answered. */
export function servesParallel(ctx: Ctx): boolean {
  return ctx.llm.servesParallel?.() === true && !speculationOff(ctx);
}

/** One more request seen queueing at this endpoint: true once that is enough to turn
 * speculation off. */
export function noteQueued(endpoint: string): boolean {
  const seen = (queuedByEndpoint.get(endpoint) ?? 0) + 1;
  queuedByEndpoint.set(endpoint, seen);
  return seen >= QUEUED_TO_STOP;
}

/** Forget what was learnt about endpoints (tests). */
export function resetSpeculationPolicy(): void {
  offByEndpoint.clear();
  queuedByEndpoint.clear();
}

/** What a revision's first word says of the endpoint: 'parallel' if another reply was still
 * streaming (revisions started while the draft streams mostly start so), 'queueing' if it waited
 * in the server's queue (queuedBehind), twice at this endpoint; nothing once parallel replies have
 * been seen in the run, or if the client was itself too late to tell (lagged `lagMs`). */
export function firstWordSays(a: Required<Pick<CallTiming, 'sentAt' | 'firstTokenAt'>> & Pick<CallTiming, 'promptChars'>, all: CallTiming[], parallelSeen: boolean, lagMs: number, llm: LlmClient): 'parallel' | 'queueing' | undefined {
  const others = all.filter((b) => b.sentAt !== undefined && b.firstTokenAt !== undefined && b.failed === undefined);
  if (others.some((b) => b.endedAt === undefined)) {
    noteServesParallel(llm);
    return 'parallel';
  }
  if (parallelSeen || lagMs > QUEUE_MS / 2) return undefined;
  return queuedBehind(a, others) && noteQueued(llm.endpoint ?? '') ? 'queueing' : undefined;
}

/** Whether request `a` (sent at `sentAt`, first word at `firstTokenAt`) waited in a queue behind
 * one of `others` (requests that have spoken, none failed): it was sent while that one was
 * answering, said nothing until it had finished, waiting far longer than the quickest start seen
 * (and long in absolute terms: jitter of a few milliseconds is not a queue), then spoke soon after
 * its end. Behind a queue, the first word comes about as soon after the other's end as a request
 * that waited for nothing would say it; a starved client (a busy machine) hears everything late.
 * A start is judged against what the prompt's length allows: a prompt n times longer than
 * another's may take n times as long to be read (a server that reads prompts slowly is not one
 * that queues), so a long prompt's start is compared with the other's scaled up. */
export function queuedBehind(a: Required<Pick<CallTiming, 'sentAt' | 'firstTokenAt'>> & Pick<CallTiming, 'promptChars'>, others: CallTiming[]): boolean {
  const { sentAt, firstTokenAt } = a;
  const wait = firstTokenAt - sentAt;
  const scale = (b: CallTiming) => (a.promptChars && b.promptChars ? Math.max(1, a.promptChars / b.promptChars) : 1);
  const ttft = Math.min(...others.map((b) => ((b.firstTokenAt as number) - (b.sentAt as number)) * scale(b)));
  const behind = others.some((b) => b.endedAt !== undefined && b.failed === undefined && sentAt < b.endedAt && b.endedAt < firstTokenAt && firstTokenAt - b.endedAt <= ttft + QUEUE_MS);
  return behind && wait > Math.max(2 * ttft, ttft + QUEUE_MS);
}
