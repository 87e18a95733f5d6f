/** The causal revision loop shared by answering (RAT) and verifying: step i is revised with the
 * steps before it as they stand after their own revision (seeds/rat-paper.txt, Algorithm 1), and
 * its query is causal too: planned by the draft from the same context, or rewritten by the
 * latest earlier step that changed. Two schedules give the same result:
 *
 * - sequential: one step after another (the next step's evidence is prefetched meanwhile);
 * - speculative (./speculate.ts): once the step in front says it stands, the later steps are
 *   revised in parallel on the assumption that they stand too, and each speculative revision is
 *   kept only if the prompt it was made from is exactly the one the sequential schedule would
 *   send, so every kept revision saw the revised versions of all earlier steps.
 *
 * In a pipelined chain (a single question with speculation on), steps are revised while the
 * draft still streams. A step whose earlier steps all stand gets a lean prompt: of what the draft
 * wrote after it, only the next step's text (no later drafts, no step count), so the same prompt
 * can be sent as soon as the next step's text has streamed, and checked once the draft has ended.
 * If such a step changes, it writes the next step's query; the step after it sees every later
 * draft and writes their queries whether or not it changes itself (still one query per later step
 * written from the steps as they stand, and no call more than the chain that is not pipelined).
 * Every other step sees the later drafts, and writes their queries if it changes.
 *
 * Model-written queries are for a chain whose draft writes them (./draft-queries.ts: a query that
 * may search the web, or a source in another language). Otherwise every step's query is made
 * from its own words (prompts.ts fallbackQuery) and only ranks text on this computer: a step that
 * changes writes no queries, its prompt shows no later steps and no count (it can be built while
 * the draft streams, whatever changed before it), and the later steps keep their queries and
 * evidence; they are revised again from the changed step only.
 *
 * What differs between the two modes is the step caller (the prompt and reply of one step). */
import { LlmError } from '../llm/errors';
import type { ChatMessage } from '../llm/types';
import type { CitedSpan, AliasMap } from './citations';
import { DONE_STATUSES, isDone, stepsOfPart, type Ctx } from './context';
import type { DraftFeed } from './draft-feed';
import { RetrievalCache } from './retrieval-cache';
import { runSpeculative } from './speculate';
import { speculationOff } from './speculation-policy';
import { reviseStep } from './step';
import { fallbackQuery } from './step-query';
import type { PageContext, StepState, Verdict } from '../core/run';

export interface StepCallArgs {
  index: number;
  position: number;
  total: number;
  step: StepState;
  /** The steps after this one (their drafts matter: their queries may be rewritten); the next one
   * alone in a lean prompt. */
  later: StepState[];
  /** A lean prompt (see above): `later` is the next step alone, and `total` is not shown. */
  lean: boolean;
  /** The step before changed with a lean prompt: this one writes every later step's query. */
  rewriteLater: boolean;
  /** The step writes the later steps' queries if it changes (the chain's `modelQueries`). */
  modelQueries: boolean;
  /** The steps before this one, as they stand. */
  before: StepState[];
  query: string;
  round: number;
  finalRound: boolean;
  passages: AliasMap;
  /** Last step: evidence found for the earlier steps, citable in the final output. */
  earlier: AliasMap;
  /** Per alias in `earlier`, the text of the step it was found for, as that step stands. */
  earlierFocus: Map<string, string>;
  withFinal: boolean;
}

export interface StepCallPartial {
  kept?: boolean;
  revised?: string;
  nextQueries?: string[];
  /** The model has written all of nextQueries. */
  queriesDone?: boolean;
  /** The revised text, once complete (a revision writes the later queries right after it). */
  revisedText?: string;
  final?: string;
  sufficient?: boolean;
  /** Everything the step is committed on, once the model has written it all (before the final
   * output; a check, also before the later claims' queries). */
  settled?: StepSettled;
  /** The verdict and the citations it rests on, once both have streamed (before the correction). */
  verdict?: { verdict: Verdict; citations: CitedSpan[] };
}

/** A step's reply without the later steps' queries and the final output. */
export type StepSettled = Omit<StepCallResult, 'nextQueries' | 'final'>;

export interface StepCallResult {
  /** The step stands as drafted. */
  kept: boolean;
  revised: string;
  /** Only when the step changed: fresh queries for the later steps, in order. */
  nextQueries: string[];
  citations: CitedSpan[];
  sufficient: boolean;
  /** Another round for this step (when not sufficient). */
  retryQuery: string;
  /** The last step's extra output: the answer (ask) or the corrected passage (verify). */
  final: string;
  verdict?: Verdict;
  note?: string;
}

export interface StepCaller {
  prompt(a: StepCallArgs): ChatMessage[];
  /** The last step's final output written beside its revision, from the steps as they stand and
   * the same evidence (./answer-beside.ts); a caller without it writes it in the revision only. */
  finalMessages?(a: StepCallArgs): ChatMessage[];
  call(a: StepCallArgs, messages: ChatMessage[], partial: (p: StepCallPartial) => void, signal: AbortSignal): Promise<StepCallResult>;
}

export interface Chain {
  question: string;
  part?: number;
  caller: StepCaller;
  /** Stream the last step's final output as answer-delta. */
  streamFinal: boolean;
  verify: boolean;
  cache: RetrievalCache;
  /** Lean prompts for steps whose earlier steps stand (see above). */
  pipelined: boolean;
  /** The draft, while it streams into this chain. */
  feed?: DraftFeed;
  /** Step queries are the model's: the draft writes them and a step that changes rewrites the
   * later ones (see above); else each is made from the step's own words. */
  modelQueries: boolean;
}

/** The draft still streams: the steps known so far are none of them the last. */
export function drafting(chain: Chain): boolean {
  return !!chain.feed && !chain.feed.done;
}

export function isLastStep(chain: Chain, indices: number[], pos: number): boolean {
  return !drafting(chain) && pos === indices.length - 1;
}

/** The last step's final output (answer or corrected passage), emitted by the caller after that
 * step's step-done. */
export interface FinalOutput {
  raw: string;
  aliases: AliasMap;
  index: number;
}

export function isBadOutput(err: unknown): boolean {
  return err instanceof LlmError && err.info.code === 'bad-output';
}

export function newChain(ctx: Ctx, c: Omit<Chain, 'cache' | 'pipelined' | 'feed' | 'modelQueries'> & { origin?: PageContext; pipelined?: boolean; modelQueries?: boolean }): Chain {
  const { origin, pipelined, modelQueries, ...rest } = c;
  return { ...rest, pipelined: !!pipelined, modelQueries: modelQueries ?? true, cache: new RetrievalCache(ctx, origin) };
}

/** Revise the chain's steps in order, skipping those already done (resume). Returns the final
 * output when the last step's call produced it in this run. Called before the draft has ended
 * when the chain has a feed: then steps are revised as they stream. */
export async function runChain(ctx: Ctx, chain: Chain): Promise<FinalOutput | undefined> {
  if (drafting(chain)) return runSpeculative(ctx, chain, []);
  resumeQueries(ctx, chain);
  const indices = stepsOfPart(ctx.run(), chain.part).map((s) => s.index);
  const open = indices.filter((i) => !isDone(ctx.run().steps.find((s) => s.index === i) as StepState)).length;
  if (open >= 2 && !speculationOff(ctx)) return runSpeculative(ctx, chain, indices);
  let final: FinalOutput | undefined;
  for (let pos = 0; pos < indices.length; pos++) {
    const step = ctx.run().steps.find((s) => s.index === indices[pos]);
    if (!step || isDone(step)) continue;
    final = (await reviseStep(ctx, chain, indices, pos)) ?? final;
  }
  return final;
}

/** Resumed after a step was committed but before it had written the later steps' queries (a
 * check writes them last; a revision saved by an earlier version did too): its revision stands
 * (asking the model for it again would cost a call), and each later step's query is made in code
 * from its draft and the revised step, so it still follows the change. */
function resumeQueries(ctx: Ctx, chain: Chain): void {
  const steps = stepsOfPart(ctx.run(), chain.part);
  steps.forEach((s, pos) => {
    if (!s.queriesPending || !DONE_STATUSES.includes(s.status)) return;
    const later = steps.slice(pos + 1).filter((l) => !isDone(l));
    ctx.emit({ type: 'next-queries', index: s.index, queries: later.map((l) => ({ index: l.index, query: fallbackQuery(l.draft, s.revised ?? s.draft) })) });
  });
}
