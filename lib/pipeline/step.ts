/** One step of the causal chain: its retrieval rounds (IM-RAG's Progress Tracker, up to
 * `maxRounds`), the Refiner's choice of passages, the model's revision, and the checks on what
 * it cites. Everything the step's prompt depends on is computed by `stepArgs` from the run as the
 * step sees it, so the same prompt can be predicted (speculation) and re-derived (commit). */
import type { ChatMessage } from '../llm/types';
import { LlmError } from '../llm/errors';
import type { Passage } from '../core/passage';
import { aliasPassages, type AliasMap } from './citations';
import { isLastStep, type Chain, type FinalOutput, type StepCallArgs, type StepCallResult, type StepSettled } from './chain';
import { isDone, type Ctx } from './context';
import { causalQuery, fallbackQuery } from './step-query';
import { refine } from './refine';
import { AnswerBeside, AnswerShow } from './answer-beside';
import { speculationOff } from './speculation-policy';
import { ReplyStream, type RevisingStep, type StepHooks } from './step-reply';
import { settle, type Committed, type StopReason } from './step-settle';
import type { StepState } from '../core/run';
import { followAbort } from '../core/abort';

/** How many passages of each earlier step the last step may cite in the answer. */
const EARLIER_PER_STEP = 2;

export function promptKey(messages: ChatMessage[]): string {
  return JSON.stringify(messages);
}

function stepAt(ctx: Ctx, index: number | undefined): StepState {
  return ctx.run().steps.find((s) => s.index === index) as StepState;
}

/** The round-1 query of a step, from the steps before it as they stand: the one planned for it
 * (by the draft, or rewritten by an earlier step that changed), else one made from its text;
 * without model-written queries (chain.ts), with what the revisions before it brought in. */
export function plannedQuery(chain: Chain, step: StepState, before: readonly StepState[]): string {
  const planned = step.queries.find((q) => q.round === 1)?.query || fallbackQuery(step.draft, chain.question);
  return chain.modelQueries ? planned : causalQuery(planned, before.map((s) => ({ draft: s.draft, revised: s.status === 'revised' ? s.revised : undefined })));
}

/** Round 1's passages for a step and query: what the library finds, refined to the top k. */
async function roundOne(ctx: Ctx, chain: Chain, step: StepState, query: string): Promise<{ found: Passage[]; given: Passage[] }> {
  const k = Math.max(1, ctx.settings.passagesPerStep);
  const found = await chain.cache.get(query, 1, [], k * 2);
  return { found, given: refine(found, { query, draft: step.draft, top: found }, k) };
}

/** Evidence found for the steps before the last, citable in the answer: the top passages of each
 * earlier step's last round (predicted as round 1 for a step not done yet), and for each the step
 * it was found for as that step stands (the same before and after a kept step is committed, so a
 * speculative prompt for the last step stays exact). */
async function earlierEvidence(ctx: Ctx, chain: Chain, indices: number[], pos: number, current: Passage[]): Promise<{ earlier: AliasMap; earlierFocus: Map<string, string> }> {
  const have = new Set(current.map((p) => p.id));
  const earlier: AliasMap = new Map();
  const earlierFocus = new Map<string, string>();
  for (const [at, i] of indices.slice(0, pos).entries()) {
    const s = stepAt(ctx, i);
    const last = [...s.queries].reverse().find((q) => q.passages.length);
    const given = isDone(s) ? (last?.passages ?? []) : (await roundOne(ctx, chain, s, plannedQuery(chain, s, indices.slice(0, at).map((b) => stepAt(ctx, b))))).given;
    for (const p of given.slice(0, EARLIER_PER_STEP)) {
      if (have.has(p.id)) continue;
      have.add(p.id);
      const alias = `P${current.length + earlier.size + 1}`;
      earlier.set(alias, p);
      earlierFocus.set(alias, s.revised ?? s.draft);
    }
  }
  return { earlier, earlierFocus };
}

/** How the step's prompt treats the steps after it (chain.ts), from the steps before it as they
 * stand: lean while all stand in a pipelined chain; right after the first of them that changed
 * (which wrote the next step's query only), every later query is written again. Without
 * model-written queries, a pipelined chain's prompts are all lean (they show no later step). */
export function laterRule(chain: Chain, before: StepState[], isLast: boolean): { lean: boolean; rewriteLater: boolean; modelQueries: boolean } {
  const { modelQueries } = chain;
  const first = before.findIndex((s) => s.status === 'revised');
  return { lean: chain.pipelined && (first < 0 || !modelQueries), rewriteLater: modelQueries && chain.pipelined && !isLast && first >= 0 && first === before.length - 1, modelQueries };
}

/** Everything the step's call depends on, from the run as this step sees it. While the draft
 * streams, `indices` holds the steps written so far, none of them the last, and only a lean
 * prompt can be built (it shows the next step alone). */
export async function stepArgs(ctx: Ctx, chain: Chain, indices: number[], pos: number, o: { query: string; round: number; given: Passage[] }): Promise<StepCallArgs> {
  const index = indices[pos] as number;
  const isLast = isLastStep(chain, indices, pos);
  const maxRounds = Math.max(1, ctx.settings.maxRounds);
  const before = indices.slice(0, pos).map((i) => stepAt(ctx, i));
  const rule = laterRule(chain, before, isLast);
  return {
    index,
    position: pos + 1,
    total: indices.length,
    step: stepAt(ctx, index),
    // A step shows the later drafts only to write their queries.
    later: rule.modelQueries ? indices.slice(pos + 1, rule.lean ? pos + 2 : undefined).map((i) => stepAt(ctx, i)) : [],
    ...rule,
    before,
    query: o.query,
    round: o.round,
    finalRound: o.round === maxRounds,
    passages: aliasPassages(o.given),
    ...(isLast ? await earlierEvidence(ctx, chain, indices, pos, o.given) : { earlier: new Map(), earlierFocus: new Map() }),
    withFinal: isLast,
  };
}

/** The round-1 prompt key the step would have now (for checking a speculative revision). */
export async function exactPromptKey(ctx: Ctx, chain: Chain, indices: number[], pos: number): Promise<string | undefined> {
  const step = stepAt(ctx, indices[pos]);
  const query = plannedQuery(chain, step, indices.slice(0, pos).map((i) => stepAt(ctx, i)));
  const { given } = await roundOne(ctx, chain, step, query);
  if (!given.length) return undefined;
  return promptKey(chain.caller.prompt(await stepArgs(ctx, chain, indices, pos, { query, round: 1, given })));
}

/** The reply of the round that gave the step's best answer so far. */
interface Best {
  out: StepCallResult;
  aliases: AliasMap;
  finalRound: boolean;
  earlier: AliasMap;
}

/** How a round ended: with the step's answer in it (if the model was asked), and either the next
 * round's query or why the rounds stop. */
type RoundOutcome = { best?: Best } & ({ next: string } | { stop: StopReason });

/** One step's revision, round by round (reviseStep). */
class StepRevision implements RevisingStep {
  readonly index: number;
  readonly maxRounds: number;
  early: Committed | undefined;
  private readonly k: number;
  private readonly step: StepState;
  /** While the draft streams, `indices` grows; the later steps are read from it once it is whole. */
  private readonly isLast: boolean;
  /** This round's prompt asks for the later steps' queries whether or not the step changes. */
  private rewrites = false;
  /** The passages found over the step's rounds. */
  private readonly all: Passage[] = [];
  private readonly asked = new Set<string>();

  constructor(
    readonly ctx: Ctx,
    private readonly chain: Chain,
    private readonly indices: number[],
    private readonly pos: number,
    readonly hooks: StepHooks,
  ) {
    this.maxRounds = Math.max(1, ctx.settings.maxRounds);
    this.k = Math.max(1, ctx.settings.passagesPerStep);
    this.index = indices[pos] as number;
    this.step = stepAt(ctx, this.index);
    this.isLast = isLastStep(chain, indices, pos);
  }

  get draft(): string {
    return this.step.draft;
  }

  prefetch(query: string): void {
    this.chain.cache.prefetch(query, this.k * 2);
  }

  /** Says the step has started and gives its round-1 query (made now if none was planned); the
   * next step's evidence is probably its planned query's: it is fetched while this step runs. */
  start(): string {
    const { ctx, chain, index, indices, pos } = this;
    ctx.emit({ type: 'step-started', index });
    const query = plannedQuery(chain, this.step, indices.slice(0, pos).map((i) => stepAt(ctx, i)));
    // Said unless it is the one planned (a query made now, or after a revision before it).
    if (query !== this.step.queries.find((q) => q.round === 1)?.query) ctx.emit({ type: 'query', index, round: 1, query });
    const next = !this.isLast && indices[pos + 1] !== undefined ? stepAt(ctx, indices[pos + 1]) : undefined;
    // Only a query the draft has written: while it streams, a query made from the next step's
    // words would be a search nobody uses (the draft's own query comes moments later).
    const nextQuery = next?.queries.find((q) => q.round === 1)?.query;
    if (nextQuery) this.prefetch(nextQuery);
    return query;
  }

  /** Emits the step's step-done from a settled reply (again only if a final reply differs from
   * the one committed early, e.g. after a repair round). */
  commit(out: StepSettled, aliases: AliasMap, why: StopReason): Committed {
    const c = settle(this.chain, this.step, out, aliases, why, !this.isLast, this.rewrites);
    if (this.early && JSON.stringify(this.early.event) === JSON.stringify(c.event)) return this.early;
    for (const d of c.dropped) this.ctx.emit({ type: 'citation-dropped', index: this.index, passageId: d.passageId, reason: d.reason });
    this.ctx.emit(c.event);
    return c;
  }

  /** One round: its evidence, the model's reply on it, and what comes next. */
  async round(round: number, query: string): Promise<RoundOutcome> {
    const { ctx, index } = this;
    if (round > 1) ctx.emit({ type: 'query', index, round, query });
    this.asked.add(normQuery(query));
    const given = await this.evidence(round, query);
    if (typeof given === 'string') return { stop: given };
    const args = await stepArgs(ctx, this.chain, this.indices, this.pos, { query, round, given });
    this.rewrites = args.rewriteLater;
    const out = await this.reply(args, round, given);
    const best = { out, aliases: args.passages, finalRound: args.finalRound, earlier: args.earlier };
    if (out.sufficient) return { best, stop: 'sufficient' };
    if (args.finalRound) return { best, stop: 'max-rounds' };
    const nq = out.retryQuery.trim();
    if (!nq || this.asked.has(normQuery(nq))) return { best, stop: 'repeated-query' };
    return { best, next: nq };
  }

  /** The round's passages (all found so far, refined for its query), or why there are none to
   * give: a later round that found nothing new, or nothing at all. */
  private async evidence(round: number, query: string): Promise<Passage[] | StopReason> {
    const { ctx, chain, index, step, all, k } = this;
    const found = round === 1 ? (await roundOne(ctx, chain, step, query)).found : await chain.cache.get(query, round, all, k * 2);
    const fresh = found.filter((p) => !all.some((q) => q.id === p.id));
    if (round > 1 && !fresh.length) {
      ctx.emit({ type: 'passages', index, round, passages: [] });
      return 'no-new-evidence';
    }
    all.push(...fresh);
    const given = refine(all, { query, draft: step.draft, top: found }, k);
    ctx.emit({ type: 'passages', index, round, passages: given });
    return given.length ? given : 'no-evidence';
  }

  /** The model's reply to the round's prompt, streamed (./step-reply.ts). */
  private async reply(args: StepCallArgs, round: number, given: Passage[]): Promise<StepCallResult> {
    const { ctx, chain, index } = this;
    const messages = chain.caller.prompt(args);
    if (round === 1) this.hooks.onPrompt?.(promptKey(messages));
    const besideMessages = round === 1 && this.answersBeside() ? chain.caller.finalMessages?.(args) : undefined;
    const answer = chain.streamFinal && this.isLast ? new AnswerShow(ctx, new Map([...args.passages, ...args.earlier]), besideMessages ? undefined : 'revision') : undefined;
    if (round > 1) ctx.emit({ type: 'step-started', index }); // clears the previous round's streamed text
    if (answer && ctx.run().answer !== undefined) ctx.emit({ type: 'answer-reset' });
    this.early = undefined;
    const stream = new ReplyStream(this, { args, round, given, answer });
    try {
      return besideMessages && answer ? await this.withAnswerBeside(args, messages, stream, besideMessages, answer) : await this.replied(args, messages, stream, ctx.signal);
    } catch (err) {
      throw withStepStage(err, chain, this.pos);
    }
  }

  /** The last step's first round writes its answer beside the revision when requests may run in
   * parallel (./answer-beside.ts). */
  private answersBeside(): boolean {
    return this.isLast && this.chain.streamFinal && this.chain.pipelined && !!this.chain.caller.finalMessages && !speculationOff(this.ctx);
  }

  private async replied(args: StepCallArgs, messages: ChatMessage[], stream: ReplyStream, signal: AbortSignal): Promise<StepCallResult> {
    const out = await this.chain.caller.call(args, messages, (p) => stream.onPartial(p), signal);
    stream.end(out);
    return out;
  }

  /** The revision, and the answer written beside it; the revision is cut short once that answer
   * has won (it has then said all the step rests on). */
  private async withAnswerBeside(args: StepCallArgs, messages: ChatMessage[], stream: ReplyStream, besideMessages: ChatMessage[], answer: AnswerShow): Promise<StepCallResult> {
    const { ctx } = this;
    const ctrl = new AbortController();
    // The step may have been cancelled (a speculation discarded) while its evidence was fetched.
    const unfollow = followAbort(ctx.signal, () => ctrl.abort());
    const revising = this.replied(args, messages, stream, ctrl.signal);
    // Sent after the revision, so the server sees the step's request first.
    const beside = stream.attach(new AnswerBeside(ctx, besideMessages, answer));
    // Settles when the revision does, either way: a failure is the step's, thrown where it is
    // awaited below (or moot once the answer beside has won and the revision was stopped).
    const revised = revising.then(
      () => undefined,
      () => undefined,
    );
    try {
      const won = await Promise.race([revised, beside.answer]);
      const settled = stream.settled;
      if (won === undefined || !settled || stream.ended || ctx.signal.aborted) return await revising;
      ctrl.abort();
      const out: StepCallResult = { ...settled, nextQueries: [], final: won };
      stream.end(out, 'beside');
      return out;
    } finally {
      // Whatever ended the race without the answer beside (the revision first, or failing) ends it.
      if (!beside.won) beside.drop();
      unfollow();
      // No call of the step outlives it.
      await Promise.all([beside.ended, revised]);
    }
  }

  /** Commits the step from its best reply (unchanged, with a note, if no round found evidence),
   * and gives the last step's final output. */
  finish(best: Best | undefined, stop: StopReason): FinalOutput | undefined {
    const { ctx, chain, index } = this;
    if (!best) {
      ctx.emit({ type: 'step-done', index, revised: this.step.draft, status: 'unchanged', citations: [], note: chain.verify ? 'No evidence was found for this claim.' : 'No evidence was found for this step.', ...(chain.verify ? { verdict: 'unverifiable' as const } : {}) });
      return undefined;
    }
    const done = this.commit(best.out, best.aliases, stop);
    // A changed step rewrites the later steps' queries (causal queries); one that stands leaves the
    // planned ones, which were written from the same context. The step stays "pending" until then,
    // so a run resumed in between revises it again rather than use stale queries.
    if (done.pending) {
      const laterIdx = this.indices.slice(this.pos + 1);
      ctx.emit({
        type: 'next-queries',
        index,
        queries: best.out.nextQueries.flatMap((q, i) => {
          const later = laterIdx[i];
          return later !== undefined && q.trim() ? [{ index: later, query: q.trim() }] : [];
        }),
      });
    }
    // An answer written while the model still wanted more evidence is not final.
    if (this.isLast && best.out.final && (best.out.sufficient || best.finalRound || stop !== 'max-rounds')) return { raw: best.out.final, aliases: new Map([...best.aliases, ...best.earlier]), index };
    return undefined;
  }
}

/** The stage that could not be read is named, with the step, in the run's error. */
function withStepStage(err: unknown, chain: Chain, pos: number): unknown {
  if (err instanceof LlmError && err.info.code === 'bad-output') return new LlmError({ ...err.info, stage: `${err.info.stage ?? (chain.verify ? 'check' : 'revise')}, step ${pos + 1}` });
  return err;
}

/** Revises the step at `pos` of `indices`: up to `maxRounds` rounds of retrieval and revision,
 * then its step-done (and, if it changed, the later steps' queries). Returns the final output
 * when it is the last step and its reply wrote one that stands. */
export async function reviseStep(ctx: Ctx, chain: Chain, indices: number[], pos: number, hooks: StepHooks = {}): Promise<FinalOutput | undefined> {
  const revision = new StepRevision(ctx, chain, indices, pos, hooks);
  let query = revision.start();
  let best: Best | undefined;
  let stop: StopReason = 'max-rounds';
  for (let round = 1; round <= revision.maxRounds; round++) {
    const o = await revision.round(round, query);
    best = o.best ?? best;
    if ('stop' in o) {
      stop = o.stop;
      break;
    }
    query = o.next;
  }
  return revision.finish(best, stop);
}

function normQuery(q: string): string {
  return q.toLowerCase().replace(/[\p{P}\p{S}]/gu, ' ').replace(/\s+/g, ' ').trim();
}
