/** The final answer written beside the last step's revision ("Faster answers").
 *
 * The last step's revision writes the answer after its verdict, citations and sufficiency, so the
 * answer's tokens follow the step's on the critical path. When requests may run in parallel, a
 * second call writes the answer at the same time, from the same steps and evidence, the last step
 * as drafted. That answer is kept only if the revision then says the step stands with evidence
 * enough (the steps it was written from are then the final ones); otherwise it is dropped and the
 * revision's own answer stands, so a changed last step costs the dropped call and no time.
 * Between two valid answers the first complete one wins and the other call is stopped.
 *
 * The reader sees one writer at a time (AnswerShow), and the answer beside only once the step is
 * confirmed. */
import { DeltaTracker } from '../llm/partial-json';
import type { ChatMessage } from '../llm/types';
import type { AliasMap } from './citations';
import type { Ctx } from './context';
import { MarkerStream } from './sources';
import { answerStage, proseAnswer, stage } from './stages';
import { followAbort } from '../core/abort';

export type AnswerWriter = 'revision' | 'beside';

/** One writer's answer as it streams, its evidence markers resolved to source numbers. */
class Writing {
  private readonly raw = new DeltaTracker();
  private readonly markers: MarkerStream;
  text = '';

  constructor(aliases: AliasMap) {
    this.markers = new MarkerStream(aliases);
  }

  /** The text newly readable since the last call. */
  push(raw: string | undefined): string {
    const d = this.markers.push(this.raw.next(raw));
    this.text += d;
    return d;
  }

  flush(): string {
    const d = this.markers.flush();
    this.text += d;
    return d;
  }
}

/** The last step's answer as the reader sees it while it streams: the revision's, or the one
 * written beside it once that is confirmed; switching writers starts the shown answer again. */
export class AnswerShow {
  private readonly writing: Record<AnswerWriter, Writing>;
  private shown = false;

  constructor(
    private readonly ctx: Ctx,
    aliases: AliasMap,
    /** Who is shown; undefined while it is not known (an answer beside, not yet confirmed). */
    private owner: AnswerWriter | undefined,
  ) {
    this.writing = { revision: new Writing(aliases), beside: new Writing(aliases) };
  }

  write(w: AnswerWriter, raw: string | undefined): void {
    this.emit(w, this.writing[w].push(raw));
  }

  /** Shows `w` from now on (what it has written so far at once). */
  show(w: AnswerWriter): void {
    if (this.owner === w) return;
    if (this.shown) this.ctx.emit({ type: 'answer-reset' });
    this.shown = false;
    this.owner = w;
    this.emit(w, this.writing[w].text);
  }

  /** `w` has written the answer that stands: it is shown whole. */
  finish(w: AnswerWriter): void {
    this.show(w);
    this.emit(w, this.writing[w].flush());
  }

  private emit(w: AnswerWriter, text: string): void {
    if (this.owner !== w || !text) return;
    this.shown = true;
    this.ctx.emit({ type: 'answer-delta', text });
  }
}

/** The answer call beside the last step's revision. `answer` resolves with its text once it is
 * both complete and confirmed, or with undefined once it is dropped or has failed. */
export class AnswerBeside {
  readonly answer: Promise<string | undefined>;
  /** The call has ended (answered, failed or stopped). */
  readonly ended: Promise<void>;
  private resolve!: (a: string | undefined) => void;
  private state: 'open' | 'confirmed' | 'dropped' = 'open';
  private complete: string | undefined;
  private failed = false;
  private readonly ctrl = new AbortController();

  constructor(
    ctx: Ctx,
    messages: ChatMessage[],
    private readonly show: AnswerShow,
  ) {
    this.answer = new Promise((r) => (this.resolve = r));
    const unfollow = followAbort(ctx.signal, () => this.ctrl.abort());
    this.ended = ctx.llm
      .json({
        ...stage('final-answer', answerStage, { fromText: proseAnswer }),
        messages,
        temperature: 0,
        maxTokens: 1200,
        signal: this.ctrl.signal,
        onUsage: ctx.onUsage,
        onPartial: (p) => {
          const a = (p as Record<string, unknown> | undefined)?.answer;
          if (typeof a === 'string') show.write('beside', a);
        },
      })
      .then(
        (out) => {
          show.write('beside', out.answer);
          this.complete = out.answer;
        },
        () => {
          this.failed = true;
        },
      )
      .finally(() => {
        unfollow();
        this.settle();
      });
  }

  /** The last step stands with evidence enough: this answer is valid, and shown. */
  confirm(): void {
    if (this.state !== 'open') return;
    this.state = 'confirmed';
    this.show.show('beside');
    this.settle();
  }

  /** The last step changed, wants more evidence, or its revision ended first: the revision's
   * answer is the one. */
  drop(): void {
    if (this.state === 'dropped') return;
    this.state = 'dropped';
    this.ctrl.abort();
    this.show.show('revision');
    this.resolve(undefined);
  }

  get decided(): boolean {
    return this.state !== 'open';
  }

  /** Its answer is the step's final output. */
  get won(): boolean {
    return this.state === 'confirmed' && this.complete !== undefined;
  }

  private settle(): void {
    if (this.failed) this.drop();
    else if (this.state === 'confirmed' && this.complete !== undefined) this.resolve(this.complete);
  }
}
