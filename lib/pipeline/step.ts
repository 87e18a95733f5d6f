/** One step of the causal chain: its retrieval rounds (IM-RAG's Progress Tracker, up to
 * `maxRounds`), the Refiner's choice of passages, the model's revision, and the checks on what
 * it cites. Everything the step's prompt depends on is computed by `stepArgs` from the run as the
 * step sees it, so the same prompt can be predicted (speculation) and re-derived (commit). */
import type { ChatMessage } from '../llm/types';
import { DeltaTracker } from '../llm/partial-json';
import { LlmError } from '../llm/errors';
import type { Passage } from '../core/passage';
import { backedVerdict } from '../core/verdicts';
import { aliasPassages, validateCitations, type AliasMap } from './citations';
import { isLastStep, type Chain, type FinalOutput, type StepCallArgs, type StepCallResult, type StepSettled } from './chain';
import { isDone, type Ctx } from './context';
import { fallbackQuery } from './prompts';
import { refine } from './refine';
import { MarkerStream } from './sources';
import type { RunEvent, StepState } from '../core/run';

/** Said of a verdict that needed a validated citation and had none (it became "unverifiable"). */
export const UNBACKED_NOTE = 'The model gave no evidence that could be checked for its verdict.';

/** How many passages of each earlier step the last step may cite in the answer. */
const EARLIER_PER_STEP = 2;

export interface StepHooks {
  /** The round-1 prompt, as a comparable key, before it is sent. */
  onPrompt?(key: string): void;
  /** Whether the step stands as drafted, as soon as the model has said so. */
  onKept?(kept: boolean): void;
  /** A step whose reply writes the later steps' queries (it changed, or its prompt asks for them
   * anyway): its text as revised and the queries streamed so far (complete once the model has
   * moved on). */
  onReady?(ready: { revised: string; queries: string[]; complete: boolean }): void;
}

export function promptKey(messages: ChatMessage[]): string {
  return JSON.stringify(messages);
}

function stepAt(ctx: Ctx, index: number | undefined): StepState {
  return ctx.run().steps.find((s) => s.index === index) as StepState;
}

/** The round-1 query of a step: the one planned for it (by the draft, or rewritten by an earlier
 * step that changed), else one made from its text. */
export function plannedQuery(step: StepState, question: string): string {
  return step.queries.find((q) => q.round === 1)?.query || fallbackQuery(step.draft, question);
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
  for (const i of indices.slice(0, pos)) {
    const s = stepAt(ctx, i);
    const last = [...s.queries].reverse().find((q) => q.passages.length);
    const given = isDone(s) ? (last?.passages ?? []) : (await roundOne(ctx, chain, s, plannedQuery(s, chain.question))).given;
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
 * (which wrote the next step's query only), every later query is written again. */
export function laterRule(chain: Chain, before: StepState[], isLast: boolean): { lean: boolean; rewriteLater: boolean } {
  const first = before.findIndex((s) => s.status === 'revised');
  return { lean: chain.pipelined && first < 0, rewriteLater: chain.pipelined && !isLast && first >= 0 && first === before.length - 1 };
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
    later: indices.slice(pos + 1, rule.lean ? pos + 2 : undefined).map((i) => stepAt(ctx, i)),
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
  const query = plannedQuery(step, chain.question);
  const { given } = await roundOne(ctx, chain, step, query);
  if (!given.length) return undefined;
  return promptKey(chain.caller.prompt(await stepArgs(ctx, chain, indices, pos, { query, round: 1, given })));
}

type StopReason = 'sufficient' | 'max-rounds' | 'repeated-query' | 'no-new-evidence' | 'no-evidence';

export async function reviseStep(ctx: Ctx, chain: Chain, indices: number[], pos: number, hooks: StepHooks = {}): Promise<FinalOutput | undefined> {
  const maxRounds = Math.max(1, ctx.settings.maxRounds);
  const k = Math.max(1, ctx.settings.passagesPerStep);
  const index = indices[pos] as number;
  const step = stepAt(ctx, index);
  // While the draft streams, `indices` grows; the later steps are read from it once it is whole.
  const isLast = isLastStep(chain, indices, pos);

  ctx.emit({ type: 'step-started', index });
  let query = step.queries.find((q) => q.round === 1)?.query || '';
  if (!query) {
    query = plannedQuery(step, chain.question);
    ctx.emit({ type: 'query', index, round: 1, query });
  }
  // The next step's evidence is probably its planned query's: fetch it while this step runs.
  const next = !isLast && indices[pos + 1] !== undefined ? stepAt(ctx, indices[pos + 1]) : undefined;
  if (next) chain.cache.prefetch(plannedQuery(next, chain.question), k * 2);

  /** Emits the step's step-done from a settled reply (again only if a final reply differs from
   * the one committed early, e.g. after a repair round). */
  let early: Committed | undefined;
  let rewrites = false;
  const commit = (out: StepSettled, aliases: AliasMap, why: StopReason): Committed => {
    const c = settle(chain, step, out, aliases, why, !isLast, rewrites);
    if (early && JSON.stringify(early.event) === JSON.stringify(c.event)) return early;
    for (const d of c.dropped) ctx.emit({ type: 'citation-dropped', index, passageId: d.passageId, reason: d.reason });
    ctx.emit(c.event);
    return c;
  };
  const all: Passage[] = [];
  const asked = new Set<string>();
  let best: { out: StepCallResult; aliases: AliasMap; finalRound: boolean; earlier: AliasMap } | undefined;
  let stop: StopReason = 'max-rounds';
  for (let round = 1; round <= maxRounds; round++) {
    if (round > 1) ctx.emit({ type: 'query', index, round, query });
    asked.add(normQuery(query));
    const found = round === 1 ? (await roundOne(ctx, chain, step, query)).found : await chain.cache.get(query, round, all, k * 2);
    const fresh = found.filter((p) => !all.some((q) => q.id === p.id));
    if (round > 1 && !fresh.length) {
      stop = 'no-new-evidence';
      ctx.emit({ type: 'passages', index, round, passages: [] });
      break;
    }
    all.push(...fresh);
    const given = refine(all, { query, draft: step.draft, top: found }, k);
    ctx.emit({ type: 'passages', index, round, passages: given });
    if (!given.length) {
      stop = 'no-evidence';
      break;
    }
    const args = await stepArgs(ctx, chain, indices, pos, { query, round, given });
    rewrites = args.rewriteLater;
    const messages = chain.caller.prompt(args);
    if (round === 1) hooks.onPrompt?.(promptKey(messages));
    const revTrack = new DeltaTracker();
    const finTrack = new DeltaTracker();
    const markers = chain.streamFinal && isLast ? new MarkerStream(new Map([...args.passages, ...args.earlier])) : undefined;
    if (round > 1) ctx.emit({ type: 'step-started', index }); // clears the previous round's streamed text
    if (markers && ctx.run().answer !== undefined) ctx.emit({ type: 'answer-reset' });
    let keptSaid = false;
    let verdictShown = false;
    let prefetched = 0;
    early = undefined;
    let out: StepCallResult;
    try {
      out = await chain.caller.call(args, messages, (p) => {
        if (p.kept !== undefined && !keptSaid) {
          keptSaid = true;
          hooks.onKept?.(p.kept);
        }
        // A verdict the evidence settles, on validated citations, is shown at once.
        if (p.verdict && !verdictShown && !early && p.verdict.verdict !== 'unverifiable') {
          const citations = validateCitations(p.verdict.citations, args.passages).valid.map((v) => v.passage.id);
          if (backedVerdict(p.verdict.verdict, citations.length) === p.verdict.verdict) {
            verdictShown = true;
            ctx.emit({ type: 'step-verdict', index, verdict: p.verdict.verdict, citations });
          }
        }
        const d = revTrack.next(p.revised);
        if (d) ctx.emit({ type: 'revision-delta', index, text: d });
        // A query is complete once the next one has started (or the list has closed).
        const qs = p.nextQueries ?? [];
        const whole = p.queriesDone ? qs : qs.slice(0, -1);
        for (; prefetched < whole.length; prefetched++) chain.cache.prefetch(whole[prefetched] ?? '', k * 2);
        // The revised text is complete once the queries have started.
        if (round === 1 && (p.kept === false || args.rewriteLater) && p.nextQueries !== undefined && p.settled && (p.settled.revised || p.kept)) hooks.onReady?.({ revised: p.settled.revised || step.draft, queries: whole, complete: !!p.queriesDone });
        // Committed as soon as everything it rests on has streamed, before the later steps'
        // queries: the step is shown done while they are written.
        if (!early && p.settled && (p.settled.sufficient || args.finalRound)) {
          ctx.emit({ type: 'passages', index, round, passages: given, sufficient: p.settled.sufficient });
          early = commit(p.settled, args.passages, p.settled.sufficient ? 'sufficient' : 'max-rounds');
        }
        if (markers && (args.finalRound || p.sufficient === true)) {
          const f = markers.push(finTrack.next(p.final));
          if (f) ctx.emit({ type: 'answer-delta', text: f });
        }
      }, ctx.signal);
    } catch (err) {
      // The stage that could not be read is named, with the step, in the run's error.
      if (err instanceof LlmError && err.info.code === 'bad-output') throw new LlmError({ ...err.info, stage: `${err.info.stage ?? (chain.verify ? 'check' : 'revise')}, step ${pos + 1}` });
      throw err;
    }
    if (!keptSaid) hooks.onKept?.(out.kept);
    if (round === 1 && ((!out.kept && out.revised) || args.rewriteLater)) hooks.onReady?.({ revised: (!out.kept && out.revised) || step.draft, queries: out.nextQueries, complete: true });
    if (markers) {
      const f = markers.flush();
      if (f) ctx.emit({ type: 'answer-delta', text: f });
    }
    if (!early) ctx.emit({ type: 'passages', index, round, passages: given, sufficient: out.sufficient });
    best = { out, aliases: args.passages, finalRound: args.finalRound, earlier: args.earlier };
    if (out.sufficient) {
      stop = 'sufficient';
      break;
    }
    if (args.finalRound) break;
    const nq = out.retryQuery.trim();
    if (!nq || asked.has(normQuery(nq))) {
      stop = 'repeated-query';
      break;
    }
    query = nq;
  }

  if (!best) {
    ctx.emit({ type: 'step-done', index, revised: step.draft, status: 'unchanged', citations: [], note: chain.verify ? 'No evidence was found for this claim.' : 'No evidence was found for this step.', ...(chain.verify ? { verdict: 'unverifiable' as const } : {}) });
    return undefined;
  }
  const done = commit(best.out, best.aliases, stop);
  // A changed step rewrites the later steps' queries (causal queries); one that stands leaves the
  // planned ones, which were written from the same context. The step stays "pending" until then,
  // so a run resumed in between revises it again rather than use stale queries.
  if (done.pending) {
    const laterIdx = indices.slice(pos + 1);
    ctx.emit({ type: 'next-queries', index, queries: best.out.nextQueries.flatMap((q, i) => (laterIdx[i] !== undefined && q.trim() ? [{ index: laterIdx[i] as number, query: q.trim() }] : [])) });
  }
  // An answer written while the model still wanted more evidence is not final.
  if (isLast && best.out.final && (best.out.sufficient || best.finalRound || stop !== 'max-rounds')) return { raw: best.out.final, aliases: new Map([...best.aliases, ...best.earlier]), index };
  return undefined;
}

interface Committed {
  event: Extract<RunEvent, { type: 'step-done' }>;
  dropped: { passageId: string; reason: string }[];
  /** It changed and has later steps: their queries follow. */
  pending: boolean;
}

/** The step-done a settled reply gives: validated citations, a verdict only with evidence. The
 * later steps' queries are pending if it changed, or if its prompt asked for them anyway. */
function settle(chain: Chain, step: StepState, out: StepSettled, aliases: AliasMap, stop: StopReason, hasLater: boolean, rewrites: boolean): Committed {
  const { valid, dropped } = validateCitations(out.citations, aliases);
  const citations = valid.map((v) => v.passage.id);
  const quotes: Record<string, string> = {};
  for (const v of valid) if (v.quote) quotes[v.passage.id] = v.quote;
  // A verdict that changes or confirms the text must rest on validated evidence.
  const verdict = out.verdict ? backedVerdict(out.verdict, citations.length) : undefined;
  const downgraded = verdict !== out.verdict;
  const revised = downgraded || out.kept || !out.revised ? step.draft : out.revised;
  const changed = normText(revised) !== normText(step.draft);
  const note = chain.verify ? (downgraded ? UNBACKED_NOTE : out.note) : stop === 'sufficient' || stop === 'max-rounds' ? undefined : stopNote(stop);
  const pending = (changed || rewrites) && hasLater;
  return {
    dropped,
    pending,
    event: {
      type: 'step-done',
      index: step.index,
      revised,
      status: changed ? 'revised' : 'unchanged',
      citations,
      ...(Object.keys(quotes).length ? { quotes } : {}),
      ...(verdict ? { verdict } : {}),
      ...(note ? { note } : {}),
      ...(pending ? { queriesPending: true as const } : {}),
    },
  };
}

function stopNote(s: StopReason): string {
  return s === 'repeated-query' ? 'Stopped searching: the next query repeated an earlier one.' : s === 'no-new-evidence' ? 'Stopped searching: a further round found nothing new.' : '';
}

function normQuery(q: string): string {
  return q.toLowerCase().replace(/[\p{P}\p{S}]/gu, ' ').replace(/\s+/g, ' ').trim();
}

export function normText(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}
