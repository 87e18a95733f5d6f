/** One step of the causal chain: its retrieval rounds (IM-RAG's Progress Tracker, up to
 * `maxRounds`), the Refiner's choice of passages, the model's revision, and the checks on what
 * it cites. Everything the step's prompt depends on is computed by `stepArgs` from the run as the
 * step sees it, so the same prompt can be predicted (speculation) and re-derived (commit). */
import type { ChatMessage } from '../llm/types';
import { DeltaTracker } from '../llm/partial-json';
import { LlmError } from '../llm/errors';
import type { Passage } from '../retrieval/types';
import { backedVerdict } from '../verdicts';
import { aliasPassages, validateCitations, type AliasMap } from './citations';
import type { Chain, FinalOutput, StepCallArgs, StepCallResult } from './chain';
import { isDone, type Ctx } from './context';
import { fallbackQuery } from './prompts';
import { refine } from './refine';
import { MarkerStream } from './sources';
import type { StepState } from './types';

/** Said of a verdict that needed a validated citation and had none (it became "unverifiable"). */
export const UNBACKED_NOTE = 'The model gave no evidence that could be checked for its verdict.';

/** How many passages of each earlier step the last step may cite in the answer. */
const EARLIER_PER_STEP = 2;

export interface StepHooks {
  /** The round-1 prompt, as a comparable key, before it is sent. */
  onPrompt?(key: string): void;
  /** Whether the step stands as drafted, as soon as the model has said so. */
  onKept?(kept: boolean): void;
  /** A step that changed: its revised text and the queries for the later steps streamed so far
   * (complete once the model has moved on to its citations). */
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
  return { found, given: refine(found, `${query} ${step.draft}`, k) };
}

/** Evidence found for the steps before the last, citable in the answer: the top passages of each
 * earlier step's last round (predicted as round 1 for a step not done yet). */
async function earlierEvidence(ctx: Ctx, chain: Chain, indices: number[], pos: number, current: Passage[]): Promise<AliasMap> {
  const have = new Set(current.map((p) => p.id));
  const m: AliasMap = new Map();
  for (const i of indices.slice(0, pos)) {
    const s = stepAt(ctx, i);
    const last = [...s.queries].reverse().find((q) => q.passages.length);
    const given = isDone(s) ? (last?.passages ?? []) : (await roundOne(ctx, chain, s, plannedQuery(s, chain.question))).given;
    for (const p of given.slice(0, EARLIER_PER_STEP)) {
      if (have.has(p.id)) continue;
      have.add(p.id);
      m.set(`P${current.length + m.size + 1}`, p);
    }
  }
  return m;
}

/** Everything the step's call depends on, from the run as this step sees it. */
export async function stepArgs(ctx: Ctx, chain: Chain, indices: number[], pos: number, o: { query: string; round: number; given: Passage[] }): Promise<StepCallArgs> {
  const index = indices[pos] as number;
  const isLast = pos === indices.length - 1;
  const maxRounds = Math.max(1, ctx.settings.maxRounds);
  return {
    index,
    position: pos + 1,
    total: indices.length,
    step: stepAt(ctx, index),
    later: indices.slice(pos + 1).map((i) => stepAt(ctx, i)),
    before: indices.slice(0, pos).map((i) => stepAt(ctx, i)),
    query: o.query,
    round: o.round,
    finalRound: o.round === maxRounds,
    passages: aliasPassages(o.given),
    earlier: isLast ? await earlierEvidence(ctx, chain, indices, pos, o.given) : new Map(),
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
  const isLast = pos === indices.length - 1;
  const laterIdx = indices.slice(pos + 1);

  ctx.emit({ type: 'step-started', index });
  let query = step.queries.find((q) => q.round === 1)?.query || '';
  if (!query) {
    query = plannedQuery(step, chain.question);
    ctx.emit({ type: 'query', index, round: 1, query });
  }
  // The next step's evidence is probably its planned query's: fetch it while this step runs.
  const next = laterIdx[0] !== undefined ? stepAt(ctx, laterIdx[0]) : undefined;
  if (next) chain.cache.prefetch(plannedQuery(next, chain.question), k * 2);

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
    const given = refine(all, `${query} ${step.draft}`, k);
    ctx.emit({ type: 'passages', index, round, passages: given });
    if (!given.length) {
      stop = 'no-evidence';
      break;
    }
    const args = await stepArgs(ctx, chain, indices, pos, { query, round, given });
    const messages = chain.caller.prompt(args);
    if (round === 1) hooks.onPrompt?.(promptKey(messages));
    const revTrack = new DeltaTracker();
    const finTrack = new DeltaTracker();
    const markers = chain.streamFinal && isLast ? new MarkerStream(new Map([...args.passages, ...args.earlier])) : undefined;
    if (round > 1) ctx.emit({ type: 'step-started', index }); // clears the previous round's streamed text
    if (markers && ctx.run().answer !== undefined) ctx.emit({ type: 'answer-reset' });
    let keptSaid = false;
    let prefetched = 0;
    let out: StepCallResult;
    try {
      out = await chain.caller.call(args, messages, (p) => {
        if (p.kept !== undefined && !keptSaid) {
          keptSaid = true;
          hooks.onKept?.(p.kept);
        }
        const d = revTrack.next(p.revised);
        if (d) ctx.emit({ type: 'revision-delta', index, text: d });
        // A query is complete once the next one has started (or the list has closed).
        const qs = p.nextQueries ?? [];
        const whole = p.queriesDone ? qs : qs.slice(0, -1);
        for (; prefetched < whole.length; prefetched++) chain.cache.prefetch(whole[prefetched] ?? '', k * 2);
        // The revised text is complete once the queries have started.
        if (round === 1 && p.kept === false && p.nextQueries !== undefined && p.revised) hooks.onReady?.({ revised: p.revised, queries: whole, complete: !!p.queriesDone });
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
    if (markers) {
      const f = markers.flush();
      if (f) ctx.emit({ type: 'answer-delta', text: f });
    }
    ctx.emit({ type: 'passages', index, round, passages: given, sufficient: out.sufficient });
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
    ctx.emit({ type: 'step-done', index, revised: step.draft, status: 'unchanged', citations: [], note: 'No evidence was found for this step.', ...(chain.verify ? { verdict: 'unverifiable' as const } : {}) });
    return undefined;
  }
  const { valid, dropped } = validateCitations(best.out.citations, best.aliases);
  for (const d of dropped) ctx.emit({ type: 'citation-dropped', index, passageId: d.passageId, reason: d.reason });
  const citations = valid.map((v) => v.passage.id);
  const quotes: Record<string, string> = {};
  for (const v of valid) if (v.quote) quotes[v.passage.id] = v.quote;
  // A verdict that changes or confirms the text must rest on validated evidence.
  const verdict = best.out.verdict ? backedVerdict(best.out.verdict, citations.length) : undefined;
  const downgraded = verdict !== best.out.verdict;
  const revised = downgraded || best.out.kept || !best.out.revised ? step.draft : best.out.revised;
  const changed = normText(revised) !== normText(step.draft);
  const note = chain.verify ? (downgraded ? UNBACKED_NOTE : best.out.note) : stop === 'sufficient' || stop === 'max-rounds' ? undefined : stopNote(stop);
  // A step that changed rewrites the later steps' queries (causal queries); one that stands
  // leaves the planned ones, which were written from the same context. Before step-done, so the
  // checkpoint taken at step-done holds them.
  if (changed) best.out.nextQueries.forEach((q, i) => laterIdx[i] !== undefined && q.trim() && ctx.emit({ type: 'query', index: laterIdx[i] as number, round: 1, query: q.trim() }));
  ctx.emit({
    type: 'step-done',
    index,
    revised,
    status: changed ? 'revised' : 'unchanged',
    citations,
    ...(Object.keys(quotes).length ? { quotes } : {}),
    ...(verdict ? { verdict } : {}),
    ...(note ? { note } : {}),
  });
  // An answer written while the model still wanted more evidence is not final.
  if (isLast && best.out.final && (best.out.sufficient || best.finalRound || stop !== 'max-rounds')) return { raw: best.out.final, aliases: new Map([...best.aliases, ...best.earlier]), index };
  return undefined;
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
