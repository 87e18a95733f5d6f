/** executeRun: one run of the pipeline, as a stream of RunEvents.
 *
 * The worker applies each event with applyEvent (and checkpoints after every step-done); the
 * side panel renders the same events. Given a checkpointed run, executeRun continues where it
 * stopped: the gate and the draft are not redone once recorded, revised steps are kept, and the
 * next step starts from the query its predecessor wrote. */
import { classifyLlmError, LlmError } from '../llm/errors';
import { DeltaTracker } from '../llm/partial-json';
import { addUsage, emptyUsage, type CallUsage, type LlmClient, type Usage } from '../llm/types';
import type { Library } from '../retrieval/types';
import type { PipelineSettings } from '../settings/schema';
import { aliasPassages } from './citations';
import { passagesById, raceAbort, type Ctx } from './context';
import { gateQuestion, shouldRetrieve } from './gate';
import { answerMessages } from './prompts';
import { answerWithRat, buildSources, compose, isBadOutput } from './rat';
import { answerSchema, parseAnswer, SCHEMA } from './schemas';
import { applyEvent } from './run-state';
import type { GateDecision, PageContext, PartAnswer, Run, RunEvent } from './types';
import { verifySelection } from './verify';

export interface ExecuteRunOptions {
  /** A new run (newRun) or a checkpoint to continue. */
  run: Run;
  llm: LlmClient;
  library: Library;
  settings: PipelineSettings;
  /** Cancel: in-flight calls stop and the run ends with done/cancelled within 1 s. */
  signal?: AbortSignal;
  /** Receives every event, in order. May return a promise (e.g. a checkpoint write); the run
   * does not wait for it between events, but executeRun resolves only after all have settled. */
  emit: (ev: RunEvent) => void | Promise<unknown>;
  now?: () => number;
}

/** Longest input we accept, in characters (a question or a selection). */
export const MAX_INPUT_CHARS = 12_000;

/** False for a checkpoint that cannot be continued (mark it interrupted and offer a re-run). */
export function canResume(run: Run): boolean {
  if (run.status === 'done' || run.status === 'cancelled') return false;
  if (run.steps.length && !run.gate) return false;
  if (run.mode === 'ask' && run.gate?.label === 'ambiguous' && !run.gate.parts?.length) return false;
  return run.steps.every((s) => s.draft !== undefined);
}

export async function executeRun(o: ExecuteRunOptions): Promise<Run> {
  const now = o.now ?? Date.now;
  const signal = o.signal ?? new AbortController().signal;
  let state = o.run;
  let closed = false;
  const outstanding: Promise<unknown>[] = [];
  const emit = (ev: RunEvent) => {
    if (closed) return; // nothing after done (late deltas of an aborted call)
    state = applyEvent(state, ev, now());
    try {
      const r = o.emit(ev);
      // A listener's failure (a checkpoint write) is the listener's to report; the run goes on.
      if (r && typeof (r as Promise<unknown>).then === 'function') outstanding.push((r as Promise<unknown>).catch(() => undefined));
    } catch {
      /* a failing listener must not take the run down */
    }
  };
  const usage: Usage = state.usage ? structuredClone(state.usage) : emptyUsage();
  const onUsage = (u: CallUsage) => {
    addUsage(usage, u);
    emit({ type: 'usage', usage: structuredClone(usage) });
  };
  const ctx: Ctx = { llm: o.llm, library: o.library, settings: o.settings, signal, run: () => state, emit, onUsage };

  try {
    if (state.status !== 'running') emit({ type: 'resume' });
    const text = state.input.text.trim();
    if (!text) throw new LlmError({ code: 'empty-input', message: state.mode === 'verify' ? 'Nothing was selected.' : 'The question is empty.' });
    if (text.length > MAX_INPUT_CHARS) throw new LlmError({ code: 'too-long', message: `The text is longer than ${MAX_INPUT_CHARS} characters.` });
    // Reading open tabs overlaps the gate and the draft; retrieve() waits for it if needed.
    o.library
      .prepare?.(signal)
      .then((sources) => {
        if (sources.length) emit({ type: 'library', sources });
      })
      .catch(() => undefined);
    const flow = state.mode === 'verify' ? verifySelection(ctx, state.input) : ask(ctx);
    flow.catch(() => undefined); // when the race below wins, the flow's own rejection is moot
    await raceAbort(flow, signal);
    emit({ type: 'done', status: 'done' });
  } catch (err) {
    const info = err instanceof LlmError ? err.info : classifyLlmError(err, '');
    if (signal.aborted || info.code === 'cancelled') emit({ type: 'done', status: 'cancelled' });
    else {
      emit({ type: 'error', error: info });
      emit({ type: 'done', status: 'error' });
    }
  } finally {
    closed = true;
  }
  await Promise.all(outstanding);
  return state;
}

async function ask(ctx: Ctx): Promise<void> {
  const { input } = ctx.run();
  let gate = ctx.run().gate;
  if (!gate) {
    gate = await gateQuestion(ctx.llm, input, ctx.settings, { signal: ctx.signal, onUsage: ctx.onUsage }).catch((err: unknown) => {
      // An unreadable assessment: take the question as it is, with no confidence (so β′ decides).
      if (!isBadOutput(err)) throw err;
      const t = ctx.settings.betaThreshold;
      return { label: 'clear', beta: 0, betaThreshold: t, retrieve: shouldRetrieve(0, t, input.forceRetrieval) } satisfies GateDecision;
    });
    ctx.emit({ type: 'gate', decision: gate });
  }
  if (gate.label === 'ambiguous' && gate.parts?.length) return answerParts(ctx, gate, input.page);
  const question = gate.rewritten ?? input.text.trim();
  if (!gate.retrieve) {
    // Think-then-Act: confident enough to answer unaided (2 calls in all).
    if (ctx.run().answer) ctx.emit({ type: 'answer', markdown: '', sources: [] });
    const answer = await directAnswer(ctx, question, input.page, true);
    ctx.emit({ type: 'answer', markdown: answer, sources: [] });
    return;
  }
  await answerWithRat(ctx, question, { page: input.page, maxSteps: ctx.settings.maxSteps });
}

async function directAnswer(ctx: Ctx, question: string, page: PageContext | undefined, stream: boolean): Promise<string> {
  const shown = new DeltaTracker();
  const out = await ctx.llm.json({
    stage: 'answer',
    schemaName: SCHEMA.answer,
    schema: answerSchema,
    parse: parseAnswer,
    messages: answerMessages(question, page),
    temperature: 0,
    maxTokens: 1200,
    signal: ctx.signal,
    onUsage: ctx.onUsage,
    onPartial: stream
      ? (p) => {
          const a = (p as Record<string, unknown> | undefined)?.answer;
          const d = shown.next(typeof a === 'string' ? a : undefined);
          if (d) ctx.emit({ type: 'answer-delta', text: d });
        }
      : undefined,
  });
  return out.answer;
}

/** Ambiguous question: each sub-question was gated by the same gate call (its own β); those that
 * need retrieval go through RAT, the others are answered directly. Independent sub-questions run
 * in parallel; one marked dependsOnPrevious waits for the one before and sees its answer. */
async function answerParts(ctx: Ctx, gate: GateDecision, page: PageContext | undefined): Promise<void> {
  const parts = gate.parts ?? [];
  const groups: number[][] = [];
  parts.forEach((p, i) => (p.dependsOnPrevious && groups.length ? groups[groups.length - 1].push(i) : groups.push([i])));
  const perPart = Math.max(2, Math.ceil(ctx.settings.maxSteps / Math.max(1, groups.length)));
  const answers: PartAnswer[] = [];
  await Promise.all(
    groups.map(async (group) => {
      let context: string | undefined;
      for (const p of group) {
        const sub = parts[p];
        let a = ctx.run().partAnswers?.[p];
        if (!a) {
          if (sub.retrieve) {
            const r = await answerWithRat(ctx, sub.question, { part: p, page, context, maxSteps: perPart });
            a = { markdown: r?.text ?? '', citations: r?.citations ?? [] };
          } else {
            a = { markdown: await directAnswer(ctx, context ? `${sub.question}\n(${context})` : sub.question, page, false), citations: [] };
          }
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
  if (ctx.run().answer) ctx.emit({ type: 'answer', markdown: '', sources: [] });
  const c = await compose(
    ctx,
    ctx.run().input.text.trim(),
    parts.map((p, i) => ({ heading: p.question, body: answers[i]?.markdown ?? '', citations: answers[i]?.citations })),
    evidence,
    { page, stream: true },
  );
  const { markdown, sources } = buildSources(ctx, c.raw, c.aliases, undefined, (alias) => ctx.emit({ type: 'citation-dropped', index: -1, passageId: alias, reason: 'unknown-id' }));
  ctx.emit({ type: 'answer', markdown, sources });
}
