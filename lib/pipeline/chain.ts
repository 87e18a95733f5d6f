/** The causal revision loop shared by answering (RAT) and verifying: steps are revised one at a
 * time, in order; step i's query comes from the call that revised step i−1, so it is built from
 * the revised steps before it (seeds/rat-paper.txt, Algorithm 1). Per step, IM-RAG's Progress
 * Tracker allows up to `maxRounds` retrieval rounds until the model judges the evidence
 * sufficient, and the Refiner keeps the best `passagesPerStep` passages. What differs between
 * the two modes is the step caller (the prompt and reply of one step). */
import { LlmError } from '../llm/errors';
import { DeltaTracker } from '../llm/partial-json';
import type { Passage } from '../retrieval/types';
import { backedVerdict } from '../verdicts';
import { aliasPassages, validateCitations, type AliasMap, type CitedSpan } from './citations';
import { isDone, passagesById, raceAbort, stepsOfPart, type Ctx } from './context';
import { fallbackQuery } from './prompts';
import { refine, sameDocument } from './refine';
import { MarkerStream } from './sources';
import type { PageContext, StepState, Verdict } from './types';

export interface StepCallArgs {
  index: number;
  position: number;
  total: number;
  step: StepState;
  next?: StepState;
  before: StepState[];
  query: string;
  round: number;
  finalRound: boolean;
  passages: AliasMap;
  earlier: AliasMap;
  withFinal: boolean;
}

export interface StepCallPartial {
  revised?: string;
  final?: string;
  sufficient?: boolean;
}

export interface StepCallResult {
  revised: string;
  citations: CitedSpan[];
  sufficient: boolean;
  nextQuery: string;
  /** The last step's extra output: the answer (ask) or the corrected passage (verify). */
  final: string;
  verdict?: Verdict;
  note?: string;
}

export type StepCaller = (a: StepCallArgs, partial: (p: StepCallPartial) => void) => Promise<StepCallResult>;

export interface Chain {
  question: string;
  part?: number;
  caller: StepCaller;
  /** Stream the last step's final output as answer-delta. */
  streamFinal: boolean;
  verify: boolean;
  /** Verify mode: the page under verification, never evidence for itself. */
  origin?: PageContext;
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

/** Revise the chain's steps in order, skipping those already done (resume). Returns the final
 * output when the last step's call produced it in this run. */
export async function runChain(ctx: Ctx, chain: Chain): Promise<FinalOutput | undefined> {
  const indices = stepsOfPart(ctx.run(), chain.part).map((s) => s.index);
  let final: FinalOutput | undefined;
  for (let pos = 0; pos < indices.length; pos++) {
    const step = ctx.run().steps.find((s) => s.index === indices[pos]);
    if (!step || isDone(step)) continue;
    final = (await reviseStep(ctx, chain, indices, pos)) ?? final;
  }
  return final;
}

type StopReason = 'sufficient' | 'max-rounds' | 'repeated-query' | 'no-new-evidence' | 'no-evidence';

async function reviseStep(ctx: Ctx, chain: Chain, indices: number[], pos: number): Promise<FinalOutput | undefined> {
  const { settings } = ctx;
  const get = (i: number | undefined) => ctx.run().steps.find((s) => s.index === i) as StepState;
  const index = indices[pos] as number;
  const step = get(index);
  const next = pos + 1 < indices.length ? get(indices[pos + 1]) : undefined;
  const before = indices.slice(0, pos).map(get);
  const isLast = pos === indices.length - 1;
  const maxRounds = Math.max(1, settings.maxRounds);
  const k = Math.max(1, settings.passagesPerStep);

  ctx.emit({ type: 'step-started', index });
  let query = step.queries.find((q) => q.round === 1)?.query || '';
  if (!query) {
    // The previous call did not give one (no evidence there, or an old checkpoint).
    query = fallbackQuery(step.draft, chain.question);
    ctx.emit({ type: 'query', index, round: 1, query });
  }

  const all: Passage[] = [];
  const asked = new Set<string>();
  let best: { out: StepCallResult; aliases: AliasMap; finalRound: boolean; earlier: AliasMap } | undefined;
  let stop: StopReason = 'max-rounds';
  for (let round = 1; round <= maxRounds; round++) {
    if (round > 1) ctx.emit({ type: 'query', index, round, query });
    asked.add(normQuery(query));
    const found = await retrieve(ctx, chain, query, round, all, k);
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
    const finalRound = round === maxRounds;
    const aliases = aliasPassages(given);
    const earlier = isLast ? earlierEvidence(ctx, before, given) : new Map<string, Passage>();
    const revTrack = new DeltaTracker();
    const finTrack = new DeltaTracker();
    const markers = chain.streamFinal && isLast ? new MarkerStream(new Map([...aliases, ...earlier])) : undefined;
    if (round > 1) ctx.emit({ type: 'step-started', index }); // clears the previous round's streamed text
    if (markers && ctx.run().answer !== undefined) ctx.emit({ type: 'answer-reset' });
    let out: StepCallResult;
    try {
      out = await chain.caller({ index, position: pos + 1, total: indices.length, step, next, before, query, round, finalRound, passages: aliases, earlier, withFinal: isLast }, (p) => {
        const d = revTrack.next(p.revised);
        if (d) ctx.emit({ type: 'revision-delta', index, text: d });
        if (markers && (finalRound || p.sufficient === true)) {
          const f = markers.push(finTrack.next(p.final));
          if (f) ctx.emit({ type: 'answer-delta', text: f });
        }
      });
    } catch (err) {
      // The stage that could not be read is named, with the step, in the run's error.
      if (err instanceof LlmError && isBadOutput(err)) throw new LlmError({ ...err.info, stage: `${err.info.stage ?? (chain.verify ? 'check' : 'revise')}, step ${pos + 1}` });
      throw err;
    }
    if (markers) {
      const f = markers.flush();
      if (f) ctx.emit({ type: 'answer-delta', text: f });
    }
    ctx.emit({ type: 'passages', index, round, passages: given, sufficient: out.sufficient });
    best = { out, aliases, finalRound, earlier };
    if (out.sufficient) {
      stop = 'sufficient';
      break;
    }
    if (finalRound) break;
    const nq = out.nextQuery.trim();
    if (!nq || asked.has(normQuery(nq))) {
      stop = 'repeated-query';
      break;
    }
    query = nq;
  }

  // The query for the next step: from the last call when it was meant for the next step.
  if (next) {
    const fromModel = best && (best.out.sufficient || best.finalRound) ? best.out.nextQuery.trim() : '';
    ctx.emit({ type: 'query', index: next.index, round: 1, query: fromModel || fallbackQuery(next.draft, chain.question) });
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
  const revised = downgraded ? step.draft : best.out.revised || step.draft;
  const changed = normText(revised) !== normText(step.draft);
  const note = chain.verify ? (downgraded ? 'The model gave no evidence that could be checked for its verdict.' : best.out.note) : stop === 'sufficient' || stop === 'max-rounds' ? undefined : stopNote(stop);
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
function normText(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}

/** Passages cited by earlier steps of the chain, aliased after the current ones, so the final
 * answer can cite them without the model seeing their full text again. */
function earlierEvidence(ctx: Ctx, before: StepState[], current: Passage[]): AliasMap {
  const byId = passagesById(ctx.run());
  const m: AliasMap = new Map();
  const have = new Set(current.map((p) => p.id));
  let n = current.length;
  for (const s of before)
    for (const id of s.citations) {
      const p = byId.get(id);
      if (!p || have.has(id)) continue;
      have.add(id);
      m.set(`P${++n}`, p);
    }
  return m;
}

async function retrieve(ctx: Ctx, chain: Chain, query: string, round: number, seed: Passage[], k: number): Promise<Passage[]> {
  try {
    const res = await raceAbort(ctx.library.retrieve({ query, k: k * 2, round, seed, signal: ctx.signal }), ctx.signal);
    if (res.sources.length || res.errors.length) ctx.emit({ type: 'library', sources: res.sources, errors: res.errors });
    // The library should already leave the origin out; we do not rely on it.
    const origin = chain.origin;
    return origin ? res.passages.filter((p) => !isOrigin(p, origin)) : res.passages;
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    // A failing library is reported in the trace; the step goes on without evidence.
    ctx.emit({ type: 'library', sources: [], errors: [{ provider: 'library', message: err instanceof Error ? err.message : String(err) }] });
    return [];
  }
}

export function isOrigin(p: Passage, page: PageContext): boolean {
  return sameDocument(p.url, page.url) || (page.tabId !== undefined && p.tabId === page.tabId);
}
