/** One round of a step's reply while it streams: what the reader sees at once (a verdict its
 * validated citations back, the revision, the answer), what speculation is told (whether the step
 * stands, its revised text and the later steps' queries), the later steps' evidence fetched as
 * their queries complete, and the step committed as soon as everything it rests on has streamed. */
import { DeltaTracker } from '../llm/partial-json';
import type { Passage } from '../core/passage';
import { backedVerdict } from '../core/verdicts';
import { validateCitations, type AliasMap } from './citations';
import type { StepCallArgs, StepCallPartial, StepCallResult, StepSettled } from './chain';
import type { Ctx } from './context';
import type { AnswerBeside, AnswerShow, AnswerWriter } from './answer-beside';
import type { Committed, StopReason } from './step-settle';

export interface StepHooks {
  /** The round-1 prompt, as a comparable key, before it is sent. */
  onPrompt?(key: string): void;
  /** Whether the step stands as drafted, as soon as the model has said so. */
  onKept?(kept: boolean): void;
  /** A step whose reply writes the later steps' queries (it changed, or its prompt asks for them
   * anyway): its text as revised and the queries streamed so far (complete once the model has
   * moved on). */
  onReady?(ready: { revised: string; queries: string[]; complete: boolean }): void;
  /** A step said to change: its revised text as streamed so far (round 1). */
  onRevising?(partial: string): void;
}

/** The step being revised, as its reply sees it. */
export interface RevisingStep {
  readonly ctx: Ctx;
  readonly hooks: StepHooks;
  readonly index: number;
  /** The step's text as drafted. */
  readonly draft: string;
  /** The step-done committed while this round's reply was still streaming. */
  early: Committed | undefined;
  /** Emits the step's step-done from a settled reply. */
  commit(out: StepSettled, aliases: AliasMap, why: StopReason): Committed;
  /** Fetches a later step's evidence ahead of its turn. */
  prefetch(query: string): void;
}

export interface ReplyRound {
  args: StepCallArgs;
  round: number;
  /** The passages the prompt gives. */
  given: Passage[];
  /** The last step's answer as the reader sees it (streamed with its [n] markers resolved). */
  answer?: AnswerShow;
  /** The answer written beside this revision (./answer-beside.ts). */
  beside?: AnswerBeside;
}

export class ReplyStream {
  private keptSaid = false;
  private verdictShown = false;
  /** How many of the later steps' queries have been prefetched. */
  private prefetched = 0;
  private readonly revision = new DeltaTracker();
  /** Everything the step is committed on, once streamed. */
  settled: StepSettled | undefined;
  ended = false;

  constructor(
    private readonly step: RevisingStep,
    private readonly r: ReplyRound,
  ) {}

  /** The answer written beside this revision, sent once the revision has been. */
  attach(beside: AnswerBeside): AnswerBeside {
    this.r.beside = beside;
    return beside;
  }

  /** What the reply has said so far (called again as it grows). */
  onPartial(p: StepCallPartial): void {
    if (p.settled) this.settled = p.settled;
    this.sayKept(p);
    this.showVerdict(p);
    this.streamRevision(p);
    const whole = this.prefetchQueries(p);
    this.sayReady(p, whole);
    this.commitEarly(p);
    this.decideBeside(p);
    this.streamAnswer(p);
  }

  /** The reply has ended (or was cut once the answer beside it won, `answer` says whose answer
   * stands): what it did not say while streaming is said now. */
  end(out: StepCallResult, answer: AnswerWriter = 'revision'): void {
    if (this.ended) return;
    this.ended = true;
    const { hooks, ctx, index } = this.step;
    if (!this.keptSaid) hooks.onKept?.(out.kept);
    const changedTo = !out.kept && out.revised;
    if (this.r.round === 1 && (changedTo || this.r.args.rewriteLater)) hooks.onReady?.({ revised: changedTo || this.step.draft, queries: out.nextQueries, complete: true });
    if (answer === 'revision') this.r.beside?.drop();
    this.r.answer?.finish(answer);
    if (!this.step.early) ctx.emit({ type: 'passages', index, round: this.r.round, passages: this.r.given, sufficient: out.sufficient });
  }

  private sayKept(p: StepCallPartial): void {
    if (p.kept === undefined || this.keptSaid) return;
    this.keptSaid = true;
    this.step.hooks.onKept?.(p.kept);
  }

  /** A verdict the evidence settles, on validated citations, is shown at once. */
  private showVerdict(p: StepCallPartial): void {
    if (!p.verdict || this.verdictShown || this.step.early || p.verdict.verdict === 'unverifiable') return;
    const citations = validateCitations(p.verdict.citations, this.r.args.passages).valid.map((v) => v.passage.id);
    if (backedVerdict(p.verdict.verdict, citations.length) !== p.verdict.verdict) return;
    this.verdictShown = true;
    this.step.ctx.emit({ type: 'step-verdict', index: this.step.index, verdict: p.verdict.verdict, citations });
  }

  private streamRevision(p: StepCallPartial): void {
    const d = this.revision.next(p.revised);
    if (!d) return;
    this.step.ctx.emit({ type: 'revision-delta', index: this.step.index, text: d });
    if (this.r.round === 1 && p.kept === false && p.revised) this.step.hooks.onRevising?.(p.revised);
  }

  /** A query is complete once the next one has started (or the list has closed): its evidence is
   * fetched then. Returns the complete queries. */
  private prefetchQueries(p: StepCallPartial): string[] {
    const qs = p.nextQueries ?? [];
    const whole = p.queriesDone ? qs : qs.slice(0, -1);
    for (; this.prefetched < whole.length; this.prefetched++) this.step.prefetch(whole[this.prefetched] ?? '');
    return whole;
  }

  /** The later steps' queries as they stream, with the text they follow: a revision's complete
   * once its queries have started, a check's once it is settled. */
  private sayReady(p: StepCallPartial, whole: string[]): void {
    if (this.r.round !== 1 || !(p.kept === false || this.r.args.rewriteLater) || p.nextQueries === undefined) return;
    const revised = p.revisedText ?? p.settled?.revised;
    if (revised === undefined || !(revised || p.kept)) return;
    this.step.hooks.onReady?.({ revised: revised || this.step.draft, queries: whole, complete: !!p.queriesDone });
  }

  /** Committed as soon as everything it rests on has streamed, before what the reply writes after
   * it (the last step's answer; a check's queries for the later claims): the step is shown done
   * while that is written. */
  private commitEarly(p: StepCallPartial): void {
    if (this.step.early || !p.settled || !(p.settled.sufficient || this.r.args.finalRound)) return;
    this.step.ctx.emit({ type: 'passages', index: this.step.index, round: this.r.round, passages: this.r.given, sufficient: p.settled.sufficient });
    this.step.early = this.step.commit(p.settled, this.r.args.passages, p.settled.sufficient ? 'sufficient' : 'max-rounds');
  }

  /** The answer beside is valid once the step stands with evidence enough; if it changed, or
   * wants another round, the revision's answer is the one. */
  private decideBeside(p: StepCallPartial): void {
    const b = this.r.beside;
    if (!b || b.decided) return;
    if (p.kept === false) return b.drop();
    if (!p.settled) return;
    if (p.settled.kept && (p.settled.sufficient || this.r.args.finalRound)) b.confirm();
    else b.drop();
  }

  private streamAnswer(p: StepCallPartial): void {
    if (this.r.args.finalRound || p.sufficient === true) this.r.answer?.write('revision', p.final);
  }
}
