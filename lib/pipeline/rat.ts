/** RAT, Retrieval Augmented Thoughts (seeds/rat-paper.txt, Algorithm 1), with IM-RAG's Refiner
 * and Progress Tracker, arranged for few sequential calls:
 *
 *   draft call          → steps T1..Tn and the query Q1 for T1
 *   revise call, step i → T*i (only this step), its citations, "sufficient?", and Q(i+1) built
 *                         from the question, T*1..i and T(i+1): the causal query for the next step
 *   revise call, step n → also the final answer from T*1..n
 *
 * So n steps with one round each cost n + 1 calls after the gate (n + 2 in all, all of them on
 * the critical path), and each call writes one step, so output grows linearly with n. Retrieval
 * for step i+1 can only start once T*i exists (causality), so it cannot overlap the revise call;
 * the library's own preparation (reading open tabs) overlaps the gate and the draft. */
import { LlmError } from '../llm/errors';
import { DeltaTracker } from '../llm/partial-json';
import type { Passage } from '../retrieval/types';
import { aliasPassages, renumberMarkers, SourceList, stripMarkers, validateCitations, type AliasMap, type CitedSpan } from './citations';
import { isDone, passagesById, raceAbort, stepsOfPart, type Ctx } from './context';
import { composeMessages, draftMessages, fallbackQuery, reviseMessages } from './prompts';
import { refine, sameDocument } from './refine';
import { composeSchema, draftSchema, parseAnswer, parseDraft, parseRevise, reviseSchema, SCHEMA } from './schemas';
import type { PageContext, Source, StepState, Verdict } from './types';

// ---- the step caller: what differs between answering (RAT) and verifying ----

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
  /** Called before the last step's step-done with its final output (so the checkpoint written
   * after that step-done already holds the answer). */
  finish?: (final: FinalOutput) => void;
}

export interface FinalOutput {
  raw: string;
  aliases: AliasMap;
  /** The last step's validated citations, not yet in the run state. */
  last: { index: number; citations: string[]; quotes: Record<string, string>; revised: string; verdict?: Verdict; note?: string };
}

function evidenceMarks(ids: string[], aliases: AliasMap): string {
  const byId = new Map([...aliases.entries()].map(([alias, p]) => [p.id, alias]));
  const marks = ids.map((id) => byId.get(id)).filter(Boolean);
  return marks.length ? ` [${marks.join(', ')}]` : '';
}

export function isBadOutput(err: unknown): boolean {
  return err instanceof LlmError && err.info.code === 'bad-output';
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function ratCaller(ctx: Ctx, question: string, page: PageContext | undefined): StepCaller {
  return async (a, partial) => {
    const out = await ctx.llm.json({
      stage: 'revise',
      schemaName: SCHEMA.revise,
      schema: reviseSchema(a.withFinal),
      parse: parseRevise,
      messages: reviseMessages({
        question,
        // For the answer, earlier steps carry the ids of their evidence so it can be cited again.
        before: a.before.map((s) => (s.revised ?? s.draft) + (a.withFinal ? evidenceMarks(s.citations, new Map([...a.passages, ...a.earlier])) : '')),
        position: a.position,
        total: a.total,
        draft: a.step.draft,
        nextDraft: a.next?.draft,
        query: a.query,
        round: a.round,
        finalRound: a.finalRound,
        passages: a.passages,
        earlier: a.withFinal ? a.earlier : undefined,
        withAnswer: a.withFinal,
        page,
      }),
      temperature: 0,
      maxTokens: 700 + (a.withFinal ? 900 : 0),
      signal: ctx.signal,
      onUsage: ctx.onUsage,
      onPartial: (p) => {
        const o = (p ?? {}) as Record<string, unknown>;
        partial({ revised: str(o.revised), final: str(o.answer), sufficient: typeof o.sufficient === 'boolean' ? o.sufficient : undefined });
      },
    });
    return { revised: stripMarkers(out.revised), citations: out.citations, sufficient: out.sufficient, nextQuery: out.nextQuery, final: out.answer };
  };
}

// ---- draft ----

/** Draft call: steps as structured output (no split call), streamed as readable text, plus Q1. */
export async function draft(ctx: Ctx, question: string, part: number | undefined, maxSteps: number, page?: PageContext, context?: string): Promise<void> {
  const shown = new DeltaTracker();
  const render = (steps: unknown): string => {
    if (!Array.isArray(steps)) return '';
    return steps.filter((s): s is string => typeof s === 'string').map((s, i) => `${i ? '\n' : ''}${i + 1}. ${s}`).join('');
  };
  const out = await ctx.llm
    .json({
      stage: 'draft',
      schemaName: SCHEMA.draft,
      schema: draftSchema,
      parse: parseDraft,
      messages: draftMessages(question, page, maxSteps, context),
      temperature: 0,
      maxTokens: 200 + 120 * maxSteps,
      signal: ctx.signal,
      onUsage: ctx.onUsage,
      // Sub-questions draft in parallel: their streams would interleave, so only the single
      // question's draft streams; parts show up whole with their draft event.
      onPartial:
        part === undefined
          ? (p) => {
              const d = shown.next(render((p as Record<string, unknown> | undefined)?.steps));
              if (d) ctx.emit({ type: 'draft-delta', text: d });
            }
          : undefined,
    })
    .catch((err: unknown) => {
      // An unreadable draft: the question itself becomes the one step to check.
      if (!isBadOutput(err)) throw err;
      return { steps: [question], query: '' };
    });
  const steps = out.steps.slice(0, maxSteps);
  const run = ctx.run();
  const base = run.steps.reduce((m, s) => Math.max(m, s.index + 1), 0);
  ctx.emit({ type: 'draft', steps: steps.map((text, i) => ({ text, part, index: base + i })), ...(part !== undefined || run.steps.length ? { append: true } : {}) });
  ctx.emit({ type: 'query', index: base, round: 1, query: out.query || fallbackQuery(steps[0], question) });
}

// ---- the causal revision loop ----

/** Revise the chain's steps in order, skipping those already done (resume). Returns the final
 * output when the last step's call produced it here. */
export async function runChain(ctx: Ctx, chain: Chain): Promise<FinalOutput | undefined> {
  const indices = stepsOfPart(ctx.run(), chain.part).map((s) => s.index);
  let final: FinalOutput | undefined;
  for (let pos = 0; pos < indices.length; pos++) {
    const step = ctx.run().steps.find((s) => s.index === indices[pos]);
    if (!step || isDone(step)) continue;
    const f = await reviseStep(ctx, chain, indices, pos);
    if (f) final = f;
  }
  return final;
}

type StopReason = 'sufficient' | 'max-rounds' | 'repeated-query' | 'no-new-evidence' | 'no-evidence' | 'malformed';

async function reviseStep(ctx: Ctx, chain: Chain, indices: number[], pos: number): Promise<FinalOutput | undefined> {
  const { settings } = ctx;
  const get = (i: number) => ctx.run().steps.find((s) => s.index === i) as StepState;
  const index = indices[pos];
  const step = get(index);
  const next = pos + 1 < indices.length ? get(indices[pos + 1]) : undefined;
  const before = indices.slice(0, pos).map(get);
  const isLast = pos === indices.length - 1;
  const maxRounds = Math.max(1, settings.maxRounds);
  const k = Math.max(1, settings.passagesPerStep);

  ctx.emit({ type: 'step-started', index });
  let query = step.queries.find((q) => q.round === 1)?.query || '';
  if (!query) {
    // The previous call did not give one (malformed, no evidence, or an old checkpoint).
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
      if (isBadOutput(err)) {
        stop = 'malformed';
        break;
      }
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
    const status = stop === 'malformed' ? 'malformed' : 'unchanged';
    const note = stop === 'malformed' ? "The model's reply could not be read; the step is left as drafted." : 'No evidence was found for this step.';
    ctx.emit({ type: 'step-done', index, revised: step.draft, status, citations: [], note, ...(chain.verify ? { verdict: 'unverifiable' as const } : {}) });
    return undefined;
  }
  const { valid, dropped } = validateCitations(best.out.citations, best.aliases);
  for (const d of dropped) ctx.emit({ type: 'citation-dropped', index, passageId: d.passageId, reason: d.reason });
  const citations = valid.map((v) => v.passage.id);
  const quotes: Record<string, string> = {};
  for (const v of valid) if (v.quote) quotes[v.passage.id] = v.quote;
  const revised = best.out.revised || step.draft;
  const changed = normText(revised) !== normText(step.draft);
  const note = chain.verify ? best.out.note : stop === 'sufficient' || stop === 'max-rounds' ? undefined : stopNote(stop);
  let final: FinalOutput | undefined;
  // An answer written while the model still wanted more evidence is not final.
  if (isLast && best.out.final && (best.out.sufficient || best.finalRound || stop !== 'max-rounds')) {
    final = { raw: best.out.final, aliases: new Map([...best.aliases, ...best.earlier]), last: { index, citations, quotes, revised, verdict: best.out.verdict, note } };
    chain.finish?.(final);
  }
  ctx.emit({
    type: 'step-done',
    index,
    revised,
    status: changed ? 'revised' : 'unchanged',
    citations,
    ...(Object.keys(quotes).length ? { quotes } : {}),
    ...(best.out.verdict ? { verdict: best.out.verdict } : {}),
    ...(note ? { note } : {}),
  });
  return final;
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
    return chain.origin ? res.passages.filter((p) => !isOrigin(p, chain.origin as PageContext)) : res.passages;
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.emit({ type: 'library', sources: [], errors: [{ provider: 'library', message: err instanceof Error ? err.message : String(err) }] });
    return [];
  }
}

export function isOrigin(p: Passage, page: PageContext): boolean {
  return sameDocument(p.url, page.url) || (page.tabId !== undefined && p.tabId === page.tabId);
}

// ---- answers and sources ----

/** Streams model text that holds [P2]-style markers, replacing them with source numbers as they
 * complete (a marker cut between chunks is held back until it closes). Numbers follow first use,
 * as the final pass (buildSources) will number them. */
export class MarkerStream {
  private buf = '';
  private list = new SourceList();
  constructor(private aliases: AliasMap) {}
  push(delta: string): string {
    this.buf += delta;
    const open = this.buf.lastIndexOf('[');
    let cut = this.buf.length;
    if (open >= 0 && !this.buf.includes(']', open) && this.buf.length - open < 24) cut = open;
    const out = this.buf.slice(0, cut);
    this.buf = this.buf.slice(cut);
    return this.map(out);
  }
  flush(): string {
    const out = this.buf;
    this.buf = '';
    return this.map(out);
  }
  private map(s: string): string {
    return s ? renumberMarkers(s, this.aliases, (p) => this.list.number(p), () => {}) : '';
  }
}

/** The final answer's Markdown with [n] markers and its numbered sources: first the passages the
 * answer cites, in order of first use, then the other passages the steps cite. */
export function buildSources(
  ctx: Ctx,
  raw: string,
  aliases: AliasMap,
  extra?: FinalOutput['last'],
  onDrop?: (alias: string) => void,
  /** Number the steps' citations before the text's markers (verify mode: sources follow the
   * order of the claims, which is how the panel lists them). */
  stepsFirst = false,
): { markdown: string; sources: Source[]; list: SourceList } {
  const run = ctx.run();
  const byId = passagesById(run);
  for (const p of aliases.values()) if (!byId.has(p.id)) byId.set(p.id, p);
  const steps = run.steps.map((s) => (extra && s.index === extra.index ? { ...s, citations: extra.citations, quotes: extra.quotes } : s));
  const quoteOf = (id: string) => {
    for (const s of steps) if (s.quotes?.[id]) return s.quotes[id];
    return '';
  };
  const list = new SourceList();
  const numberSteps = () => {
    for (const s of steps)
      for (const id of s.citations) {
        const p = byId.get(id);
        if (p) list.number(p, quoteOf(id));
      }
  };
  if (stepsFirst) numberSteps();
  const markdown = renumberMarkers(raw, aliases, (p) => list.number(p, quoteOf(p.id)), (a) => onDrop?.(a));
  if (!stepsFirst) numberSteps();
  return { markdown: markdown.trim(), sources: list.list, list };
}

/** Emit the final answer (ask mode) from the last step's output. */
export function emitAnswer(ctx: Ctx, final: FinalOutput): void {
  const { markdown, sources } = buildSources(ctx, final.raw, final.aliases, final.last, (alias) =>
    ctx.emit({ type: 'citation-dropped', index: final.last.index, passageId: alias, reason: 'unknown-id' }),
  );
  ctx.emit({ type: 'answer', markdown, sources });
}

/** Evidence cited by the given steps, aliased P1.. for a compose call. */
export function citedEvidence(ctx: Ctx, steps: StepState[], extraIds: string[] = []): AliasMap {
  const byId = passagesById(ctx.run());
  const ids = [...new Set([...steps.flatMap((s) => s.citations), ...extraIds])];
  return aliasPassages(ids.map((id) => byId.get(id)).filter((p): p is Passage => !!p));
}

/** A compose call (answers of sub-questions, or the fallback when the last step gave no answer).
 * Streams answer-delta; returns the raw text with alias markers and the aliases it used. */
export async function compose(
  ctx: Ctx,
  question: string,
  findings: { heading: string; body: string; citations?: string[] }[],
  evidence: AliasMap,
  opts: { page?: PageContext; verifySelection?: string; stream: boolean },
): Promise<{ raw: string; aliases: AliasMap }> {
  const idToAlias = new Map([...evidence.entries()].map(([a, p]) => [p.id, a]));
  const parts = findings.map((f) => ({
    heading: f.heading,
    body: f.body + (f.citations?.length ? ` (evidence: ${f.citations.map((id) => idToAlias.get(id)).filter(Boolean).join(', ')})` : ''),
  }));
  const track = new DeltaTracker();
  const markers = opts.stream ? new MarkerStream(evidence) : undefined;
  const out = await ctx.llm
    .json({
      stage: 'compose',
      schemaName: SCHEMA.compose,
      schema: composeSchema,
      parse: parseAnswer,
      messages: composeMessages(question, parts, evidence, opts.page, opts.verifySelection),
      temperature: 0,
      maxTokens: 1200,
      signal: ctx.signal,
      onUsage: ctx.onUsage,
      onPartial: (p) => {
        if (!markers) return;
        const d = markers.push(track.next(str((p as Record<string, unknown> | undefined)?.answer)));
        if (d) ctx.emit({ type: 'answer-delta', text: d });
      },
    })
    .catch((err: unknown) => {
      // Unreadable: the findings themselves, in order, are the answer.
      if (!isBadOutput(err)) throw err;
      return { answer: parts.map((p) => p.body).join('\n\n') };
    });
  if (markers) {
    const d = markers.flush();
    if (d) ctx.emit({ type: 'answer-delta', text: d });
  }
  return { raw: out.answer, aliases: evidence };
}

/** Ask mode, one question through RAT: draft (unless resumed past it), the causal loop, and the
 * answer. With `part`, the answer is the sub-question's and is returned, not emitted. */
export async function answerWithRat(
  ctx: Ctx,
  question: string,
  opts: { part?: number; page?: PageContext; context?: string; maxSteps: number },
): Promise<{ text: string; citations: string[] } | undefined> {
  if (!stepsOfPart(ctx.run(), opts.part).length) await draft(ctx, question, opts.part, opts.maxSteps, opts.page, opts.context);
  const single = opts.part === undefined;
  let finished: FinalOutput | undefined;
  const chain: Chain = {
    question,
    part: opts.part,
    caller: ratCaller(ctx, question, opts.page),
    streamFinal: single,
    verify: false,
    finish: (f) => {
      finished = f;
      if (single) emitAnswer(ctx, f);
    },
  };
  // A resumed run whose answer was written before its last step-done is already complete.
  const steps = stepsOfPart(ctx.run(), opts.part);
  if (single && steps.every(isDone) && ctx.run().answer) return undefined;
  if (single && ctx.run().answer) ctx.emit({ type: 'answer', markdown: '', sources: [] }); // drop a half-streamed answer
  await runChain(ctx, chain);
  const f = finished as FinalOutput | undefined;
  if (f) {
    if (single) return undefined;
    return { text: stripMarkers(f.raw), citations: citedIds(f.raw, f.aliases) };
  }
  // No final answer from the last step (malformed, no evidence, or resumed after it): compose.
  const done = stepsOfPart(ctx.run(), opts.part);
  const evidence = citedEvidence(ctx, done);
  const c = await compose(
    ctx,
    question,
    done.map((s, i) => ({ heading: `Step ${i + 1}`, body: s.revised ?? s.draft, citations: s.citations })),
    evidence,
    { page: opts.page, stream: single },
  );
  if (single) {
    const { markdown, sources } = buildSources(ctx, c.raw, c.aliases, undefined, (alias) => ctx.emit({ type: 'citation-dropped', index: -1, passageId: alias, reason: 'unknown-id' }));
    ctx.emit({ type: 'answer', markdown, sources });
    return undefined;
  }
  return { text: stripMarkers(c.raw), citations: citedIds(c.raw, c.aliases) };
}

/** Passage ids behind the valid alias markers of a text. */
function citedIds(raw: string, aliases: AliasMap): string[] {
  const ids = new Set<string>();
  renumberMarkers(raw, aliases, (p) => (ids.add(p.id), 0), () => {});
  return [...ids];
}
