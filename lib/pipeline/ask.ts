/** Ask mode: the Think-then-Act gate, then either a direct answer (the model is confident) or RAT
 * (seeds/rat-paper.txt), arranged for few sequential calls:
 *
 *   draft call          → steps T1..Tn and the query Q1 for T1
 *   revise call, step i → T*i (only this step), its citations, "sufficient?", and Q(i+1) built
 *                         from the question, T*1..i and T(i+1): the causal query for the next step
 *   revise call, step n → also the final answer from T*1..n
 *
 * So n steps with one round each cost n + 1 calls after the gate (n + 2 in all), and each call
 * writes one step, so output grows linearly with n. With "Faster answers" the answer is also
 * written beside the last step's revision (one call more, off the critical path's tail; kept only
 * if that step stands, ./answer-beside.ts). An ambiguous question is split by the gate;
 * independent sub-questions run in parallel and one compose call joins their answers. */
import { DeltaTracker } from '../llm/partial-json';
import { aliasPassages, stripMarkers } from './citations';
import { newChain, runChain, type Chain, type FinalOutput, type StepCaller, type StepSettled } from './chain';
import { compose } from './compose';
import { passagesById, stepsOfPart, type Ctx } from './context';
import { DraftFeed } from './draft-feed';
import { directAnswer, earlyAnswerFor, type AnswerCall } from './direct-answer';
import { DraftCall, startEarlyDraft, type DraftRequest, type EarlyDraft } from './draft-call';
import { serverLimitsParallel, servesParallel, speculationOff } from './speculation-policy';
import { LlmError } from '../llm/errors';
import { runGate } from './ask-gate';
import { primaryPageLibrary } from './page-source';
import { draftMessages, finalAnswerMessages, reviseMessages } from './prompts';
import { fallbackQuery } from './step-query';
import { buildSources, citedEvidence, citedIds } from './sources';
import { type DraftOut, reviseFinalStage, reviseNoQueriesStage, reviseSettledOf, reviseStage, stage, type StageSpec } from './stages';
import type { CatalogueEntry } from '../core/passage';
import { libraryCatalogue } from './catalogue';
import { draftWritesQueries } from './draft-queries';
import { UNKNOWN_ORIGINS } from '../core/flow';
import type { GateDecision, PageContext, PartAnswer } from '../core/run';
import { searchPlanned } from './web-plan';

/** A question about the page the user is on: retrieval returns the page's passages first, and the
 * trace lists the page as read. */
function onThePage(ctx: Ctx, page: PageContext): Ctx {
  const primary = primaryPageLibrary(ctx.library, page, ctx.settings.passageChars);
  if (!ctx.run().library.some((s) => s.reason === primary.status.reason)) ctx.emit({ type: 'library', sources: [primary.status] });
  return { ...ctx, library: primary.library };
}

export async function ask(ctx: Ctx): Promise<void> {
  const { input, answerFinal } = ctx.run();
  if (answerFinal) return; // resumed after the answer was written
  let gate = ctx.run().gate;
  // The draft, sent beside the gate and kept if the gate's decision calls for exactly it, or
  // else sent as soon as the decision is written (draft-call.ts); or the direct answer, sent as
  // soon as the decision says the model answers unaided.
  const early: { draft?: EarlyDraft; ctx?: Ctx; answer?: AnswerCall } = {};
  if (!gate) {
    let begun = () => {};
    const gateBegun = new Promise<void>((resolve) => (begun = resolve));
    const beside = draftBesideGate(ctx, gateBegun);
    try {
      gate = await runGate(
        ctx,
        (d) => {
          const e = earlyDraftFor(ctx, d, beside);
          if (e?.draft !== beside) beside?.cancel();
          Object.assign(early, e, { answer: earlyAnswerFor(ctx, d) });
        },
        begun,
      ).finally(begun);
    } catch (err) {
      beside?.cancel();
      early.draft?.cancel();
      early.answer?.cancel();
      throw err;
    }
  }
  // A resumed run searches its recorded plan again (the library is new).
  else searchPlanned(ctx);
  if (gate.aboutPage && input.page?.text) ctx = early.ctx ?? onThePage(ctx, input.page);
  try {
    await answerAfterGate(ctx, gate, early);
  } finally {
    // A failed run's calls stop with it (a finished one has nothing left to stop).
    early.draft?.cancel();
    early.answer?.cancel();
  }
}

/** Speculation may overlap calls ("Faster answers", and an endpoint that answers requests in
 * parallel), so the draft of the question as typed goes out beside the gate: most questions are
 * clear and need sources, and their draft then starts while the gate is still being written. A
 * question the gate rewrites, splits or answers directly cancels it the moment that decision is
 * written (its prompt and well under a second of output are the cost; with "Faster answers" off a
 * confident question costs exactly two calls). */
function draftBesideGate(ctx: Ctx, gateBegun: Promise<void>): EarlyDraft | undefined {
  if (ctx.run().steps.length > 0 || speculationOff(ctx)) return undefined;
  const input = ctx.run().input;
  // To an endpoint not yet seen answering two requests at once, sent once the gate's reply has
  // begun, never before: the server took the gate first (one that serves one request at a time is
  // serving it), and the model, its parameters and the endpoint's limits are known to work, so a
  // first request's refusal, redirect or stall is met once. To one seen streaming two replies at
  // once (an earlier run's revisions beside its draft), sent with the gate: waiting for the gate's
  // first word would put its whole prompt-reading time on every answer's critical path.
  return startEarlyDraft(ctx, (catalogue) => draftRequest(ctx, input.text.trim(), input.page, ctx.settings.maxSteps, undefined, catalogue), servesParallel(ctx) ? undefined : gateBegun);
}

/** Once the gate has decided (before it has written its web searches), the draft it calls for:
 * the one sent beside the gate if that is it (the same question and sources), or one sent now.
 * None for an answer without retrieval or for a split question, nor when calls may not overlap. */
function earlyDraftFor(ctx: Ctx, d: GateDecision, beside: EarlyDraft | undefined): { draft: EarlyDraft; ctx: Ctx } | undefined {
  if (!d.retrieve || (d.label === 'ambiguous' && d.parts?.length) || ctx.run().steps.length > 0 || speculationOff(ctx)) return undefined;
  const input = ctx.run().input;
  const c = d.aboutPage && input.page?.text ? onThePage(ctx, input.page) : ctx;
  const question = d.rewritten ?? input.text.trim();
  // Kept only if the run then builds exactly its request (EarlyDraft.take).
  if (beside && c === ctx && question === input.text.trim()) return { ctx: c, draft: beside };
  return { ctx: c, draft: startEarlyDraft(c, (catalogue) => draftRequest(c, question, input.page, ctx.settings.maxSteps, undefined, catalogue)) };
}

async function answerAfterGate(ctx: Ctx, gate: GateDecision, early: { draft?: EarlyDraft; answer?: AnswerCall }): Promise<void> {
  const input = ctx.run().input;
  if (gate.label === 'ambiguous' && gate.parts?.length) return answerParts(ctx, gate, input.page);
  const question = gate.rewritten ?? input.text.trim();
  if (!gate.retrieve) {
    // Think-then-Act: confident enough to answer unaided (2 calls in all).
    if (ctx.run().answer !== undefined) ctx.emit({ type: 'answer-reset' });
    const answer = await directAnswer(ctx, question, input.page, true, early.answer);
    ctx.emit({ type: 'answer', markdown: answer, sources: [] });
    return;
  }
  await answerWithRat(ctx, question, { page: input.page, maxSteps: ctx.settings.maxSteps, early: early.draft });
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strs = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

function settledStep(o: { kept: boolean; revised: string; citations: StepSettled['citations']; sufficient: boolean; retryQuery: string }): StepSettled {
  return { kept: o.kept, revised: stripMarkers(o.revised), citations: o.citations, sufficient: o.sufficient, retryQuery: o.retryQuery };
}

function ratCaller(ctx: Ctx, question: string, page: PageContext | undefined, catalogue: CatalogueEntry[]): StepCaller {
  return {
    prompt: (a) =>
      reviseMessages({
        question,
        before: a.before.map((s) => s.revised ?? s.draft),
        position: a.position,
        total: a.total,
        draft: a.step.draft,
        later: a.later.map((s) => s.draft),
        lean: a.lean,
        rewriteLater: a.rewriteLater,
        modelQueries: a.modelQueries,
        query: a.query,
        round: a.round,
        finalRound: a.finalRound,
        passages: a.passages,
        earlier: a.withFinal ? a.earlier : undefined,
        earlierFocus: a.earlierFocus,
        withAnswer: a.withFinal,
        page,
        catalogue,
      }),
    finalMessages: (a) =>
      finalAnswerMessages({
        question,
        steps: [...a.before.map((s) => s.revised ?? s.draft), a.step.draft],
        passages: a.passages,
        earlier: a.earlier,
        earlierFocus: a.earlierFocus,
        page,
      }),
    async call(a, messages, partial, signal) {
      const call = <T>(spec: StageSpec<T>) =>
        ctx.llm.json({
          ...spec,
          messages,
          temperature: 0,
          maxTokens: 700 + (a.withFinal ? 900 : 0),
          signal,
          onUsage: ctx.onUsage,
          onPartial: (p) => {
            const o = (p ?? {}) as Record<string, unknown>;
            const settled = reviseSettledOf(o);
            // The revision is complete once the field after it has started (the queries, or the
            // citations in a reply that writes none); the queries, once the citations have.
            const afterRevised = a.modelQueries ? 'nextQueries' : 'citations';
            partial({
              kept: typeof o.kept === 'boolean' ? o.kept : undefined,
              revised: str(o.revised),
              nextQueries: a.modelQueries ? strs(o.nextQueries) : 'citations' in o ? [] : undefined,
              ...(afterRevised in o ? { revisedText: stripMarkers(str(o.revised)?.trim() ?? '') } : {}),
              queriesDone: 'citations' in o,
              final: str(o.answer),
              sufficient: typeof o.sufficient === 'boolean' ? o.sufficient : undefined,
              ...(settled ? { settled: settledStep(settled) } : {}),
            });
          },
        });
      const out = a.withFinal
        ? { ...(await call(stage('revise', reviseFinalStage))), nextQueries: [] }
        : a.modelQueries
          ? { ...(await call(stage('revise', reviseStage))), answer: '' }
          : { ...(await call(stage('revise', reviseNoQueriesStage))), nextQueries: [], answer: '' };
      return { ...settledStep(out), nextQueries: out.nextQueries, final: out.answer };
    },
  };
}

/** The draft request for a question: the whole conversation (the gate saw only its network-safe
 * part, flow.ts). */
function draftRequest(ctx: Ctx, question: string, page: PageContext | undefined, maxSteps: number, context: string | undefined, catalogue: CatalogueEntry[]): DraftRequest {
  const queries = draftWritesQueries(ctx.run().origins ?? UNKNOWN_ORIGINS, question, catalogue);
  return { messages: draftMessages(question, page, maxSteps, context, queries ? catalogue : undefined, ctx.run().input.thread?.turns), maxTokens: 200 + 140 * maxSteps, queries };
}

/** Draft call: steps as structured output (no split call), streamed as readable text, each with
 * its query; a step's evidence is fetched as soon as its query has streamed, and in a pipelined
 * chain its text and query are fed to the revision as they complete (`chain.feed`). */
async function draft(ctx: Ctx, chain: Chain, question: string, part: number | undefined, maxSteps: number, request: DraftRequest, started?: DraftCall): Promise<void> {
  const shown = new DeltaTracker();
  const k = Math.max(1, ctx.settings.passagesPerStep);
  const feed = chain.feed;
  let fetched = 0;
  // Steps as objects with their queries, or as plain strings (a draft without queries).
  const items = (p: unknown): { step?: unknown; query?: unknown }[] => {
    const steps = (p as Record<string, unknown> | undefined)?.steps;
    return Array.isArray(steps) ? steps.flatMap((s) => (typeof s === 'string' ? [{ step: s }] : s && typeof s === 'object' ? [s as Record<string, unknown>] : [])) : [];
  };
  // Read as the validated reply reads them: trimmed, a missing query made from the step's words.
  const textOf = (s: { step?: unknown } | undefined) => (typeof s?.step === 'string' ? s.step.trim() : '');
  const queryOf = (s: { step?: unknown; query?: unknown } | undefined) => (typeof s?.query === 'string' ? s.query.trim() : '') || (textOf(s) ? fallbackQuery(textOf(s), question) : '');
  const onPartial = (timing: DraftCall['timing']) => (p: unknown) => {
    if (feed) feed.call.firstTokenAt ??= timing.firstTokenAt ?? performance.now();
    const list = items(p);
    // A step's text is complete once its query has started, its query once the next step has.
    feed?.written(list.map((s, i) => ('query' in s || i < list.length - 1 ? textOf(s) : undefined)).slice(0, maxSteps), list.slice(0, Math.max(0, list.length - 1)).map(queryOf));
    for (; fetched < list.length - 1; fetched++) chain.cache.prefetch(queryOf(list[fetched]), k * 2);
    // Sub-questions draft in parallel: their streams would interleave, so only the single
    // question's draft streams; parts show up whole with their draft event.
    if (part !== undefined) return;
    const text = list
      .map((s) => s.step)
      .filter((s): s is string => typeof s === 'string')
      .map((s, i) => `${i ? '\n' : ''}${i + 1}. ${s}`)
      .join('');
    const d = shown.next(text);
    if (d) ctx.emit({ type: 'draft-delta', text: d });
  };
  let call = started ?? new DraftCall(ctx, request);
  if (feed) Object.assign(feed.call, { sentAt: call.timing.sentAt, promptChars: call.timing.promptChars });
  call.listen(onPartial(call.timing));
  let out: DraftOut;
  try {
    out = await call.result;
  } catch (err) {
    // Sent beside the gate and refused (a server that takes one request at a time): sent again
    // now, alone. A refusal comes before any reply, so nothing of it was shown or fed.
    if (!started || ctx.signal.aborted || !(err instanceof LlmError && err.info.code === 'rate-limit')) throw err;
    serverLimitsParallel(ctx);
    call = new DraftCall(ctx, request);
    if (feed) Object.assign(feed.call, { sentAt: call.timing.sentAt, promptChars: call.timing.promptChars });
    call.listen(onPartial(call.timing));
    out = await call.result;
  }
  const steps = out.steps.slice(0, maxSteps);
  const run = ctx.run();
  const base = run.steps.reduce((m, s) => Math.max(m, s.index + 1), 0);
  ctx.emit({ type: 'draft', steps: steps.map((s, i) => ({ text: s.step, part, index: base + i })), ...(part !== undefined || run.steps.length ? { append: true } : {}) });
  // Each step's planned query: the draft's, else one made from the step's own words.
  steps.forEach((s, i) => ctx.emit({ type: 'query', index: base + i, round: 1, query: s.query || fallbackQuery(s.step, question) }));
}

/** The draft, then the revision of its steps; in a pipelined chain the revision starts on the
 * steps as they stream. */
async function draftAndRevise(ctx: Ctx, chain: Chain, draftCall: () => Promise<void>): Promise<FinalOutput | undefined> {
  if (!chain.pipelined) {
    await draftCall();
    return runChain(ctx, chain);
  }
  const feed = new DraftFeed(ctx.run().steps.reduce((m, s) => Math.max(m, s.index + 1), 0));
  chain.feed = feed;
  const revising = runChain(ctx, chain);
  // Awaited below; when the draft fails, the revision stops on the feed's failure, moot.
  revising.catch(() => undefined);
  try {
    await draftCall();
  } catch (err) {
    feed.call.failed = err;
    feed.fail(err);
    throw err;
  } finally {
    feed.call.endedAt = performance.now();
  }
  feed.end();
  return revising;
}

interface RatOptions {
  part?: number;
  page?: PageContext;
  context?: string;
  maxSteps: number;
  early?: EarlyDraft;
}

/** One question through RAT: draft (unless resumed past it), the causal loop, and the answer.
 * With `part`, the answer is the sub-question's and is returned, not emitted. */
async function answerWithRat(ctx: Ctx, question: string, opts: RatOptions & { part: number }): Promise<PartAnswer>;
async function answerWithRat(ctx: Ctx, question: string, opts: RatOptions & { part?: undefined }): Promise<undefined>;
async function answerWithRat(ctx: Ctx, question: string, opts: RatOptions): Promise<PartAnswer | undefined> {
  const single = opts.part === undefined;
  const early = opts.early;
  const catalogue = early && early.library === ctx.library ? await early.catalogue : await libraryCatalogue(ctx);
  // A single question's steps are revised as the draft streams (sub-questions draft at the same
  // time, and their steps are numbered only when each draft ends).
  const pipelined = single && !speculationOff(ctx);
  const drafted = stepsOfPart(ctx.run(), opts.part).length > 0;
  const request = drafted ? undefined : draftRequest(ctx, question, opts.page, opts.maxSteps, opts.context, catalogue);
  // Step queries are the model's where its draft writes them (./draft-queries.ts).
  const modelQueries = request?.queries ?? draftWritesQueries(ctx.run().origins ?? UNKNOWN_ORIGINS, question, catalogue);
  const chain = newChain(ctx, { question, part: opts.part, caller: ratCaller(ctx, question, opts.page, catalogue), streamFinal: single, verify: false, pipelined, modelQueries });
  let final: FinalOutput | undefined;
  if (!request) final = await runChain(ctx, chain);
  else {
    // The draft sent beside the gate, if the gate's decision calls for exactly that draft.
    const started = early ? await early.take(request) : undefined;
    final = await draftAndRevise(ctx, chain, () => draft(ctx, chain, question, opts.part, opts.maxSteps, request, started));
  }
  if (!final) {
    // No final answer from the last step (no evidence for it, or resumed after it): compose one
    // from the revised steps.
    const done = stepsOfPart(ctx.run(), opts.part);
    if (single && ctx.run().answer !== undefined) ctx.emit({ type: 'answer-reset' });
    const evidence = citedEvidence(ctx, done);
    const c = await compose(
      ctx,
      question,
      done.map((s, i) => ({ heading: `Step ${i + 1}`, body: s.revised ?? s.draft, citations: s.citations })),
      evidence,
      { page: opts.page, stream: single },
    );
    final = { ...c, index: -1 };
  }
  if (!single) return { markdown: stripMarkers(final.raw), citations: citedIds(final.raw, final.aliases) };
  const { markdown, sources } = buildSources(ctx, final.raw, final.aliases, { dropIndex: final.index });
  ctx.emit({ type: 'answer', markdown, sources });
  return undefined;
}

/** Ambiguous question: each sub-question was gated by the same gate call (its own β); those that
 * need retrieval go through RAT, the others are answered directly. Independent sub-questions run
 * in parallel; one marked dependsOnPrevious waits for the one before and sees its answer. */
async function answerParts(ctx: Ctx, gate: GateDecision, page: PageContext | undefined): Promise<void> {
  const parts = gate.parts ?? [];
  const groups: number[][] = [];
  parts.forEach((p, i) => {
    const last = groups[groups.length - 1];
    if (p.dependsOnPrevious && last) last.push(i);
    else groups.push([i]);
  });
  const perPart = Math.max(2, Math.ceil(ctx.settings.maxSteps / Math.max(1, groups.length)));
  const answers: PartAnswer[] = [];
  await Promise.all(
    groups.map(async (group) => {
      let context: string | undefined;
      for (const p of group) {
        const sub = parts[p];
        if (!sub) continue;
        let a = ctx.run().partAnswers?.[p];
        if (!a) {
          a = sub.retrieve
            ? await answerWithRat(ctx, sub.question, { part: p, page, context, maxSteps: perPart })
            : { markdown: await directAnswer(ctx, context ? `${sub.question}\n(${context})` : sub.question, page, false), citations: [] };
          ctx.emit({ type: 'part-answer', part: p, markdown: a.markdown, citations: a.citations });
        }
        answers[p] = a;
        context = `Answer to "${sub.question}": ${a.markdown}`;
      }
    }),
  );
  const byId = passagesById(ctx.run());
  const ids = [...new Set(answers.flatMap((a) => a.citations))];
  const evidence = aliasPassages(ids.map((id) => byId.get(id)).filter((p) => p !== undefined));
  if (ctx.run().answer !== undefined) ctx.emit({ type: 'answer-reset' });
  const c = await compose(
    ctx,
    ctx.run().input.text.trim(),
    parts.map((p, i) => ({ heading: p.question, body: answers[i]?.markdown ?? '', citations: answers[i]?.citations })),
    evidence,
    { page, stream: true },
  );
  const { markdown, sources } = buildSources(ctx, c.raw, c.aliases);
  ctx.emit({ type: 'answer', markdown, sources });
}
