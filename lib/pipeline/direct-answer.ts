/** The direct answer (Think-then-Act: the model is confident enough to answer unaided): one call,
 * sent as soon as the gate's decision is written, its reply streamed once the gate has ended. */
import { DeltaTracker } from '../llm/partial-json';
import { BufferedCall } from './buffered-call';
import { escapeBareNumbers } from './citations';
import type { Ctx } from './context';
import { answerMessages } from './prompts';
import { MarkerStream } from './sources';
import { answerStage, proseAnswer, stage, type AnswerOut } from './stages';
import type { GateDecision, PageContext } from '../core/run';

export type AnswerCall = BufferedCall<AnswerOut>;

/** A decision to answer unaided is final once shown (ask-gate.ts): its answer is sent then, beside
 * the gate's last field, not after it (its reply is shown once the gate has ended). Not for a model
 * that answers one request at a time: there it would only queue behind the gate. */
export function earlyAnswerFor(ctx: Ctx, d: GateDecision): AnswerCall | undefined {
  if (d.retrieve || (d.label === 'ambiguous' && d.parts?.length) || ctx.llm.serial) return undefined;
  const input = ctx.run().input;
  return answerCall(ctx, d.rewritten ?? input.text.trim(), input.page);
}

function answerCall(ctx: Ctx, question: string, page: PageContext | undefined): AnswerCall {
  return new BufferedCall(ctx, { ...stage('answer', answerStage, { fromText: proseAnswer }), messages: answerMessages(question, page), temperature: 0, maxTokens: 1200 });
}

export async function directAnswer(ctx: Ctx, question: string, page: PageContext | undefined, stream: boolean, started?: AnswerCall): Promise<string> {
  const shown = new DeltaTracker();
  // No evidence was given, so no marker is valid: any "[n]" the model writes stays text.
  const markers = new MarkerStream(new Map());
  const call = started ?? answerCall(ctx, question, page);
  if (stream)
    call.listen((p) => {
      const a = (p as Record<string, unknown> | undefined)?.answer;
      const d = markers.push(shown.next(typeof a === 'string' ? a : undefined));
      if (d) ctx.emit({ type: 'answer-delta', text: d });
    });
  const out = await call.result;
  const rest = stream ? markers.flush() : '';
  if (rest) ctx.emit({ type: 'answer-delta', text: rest });
  return escapeBareNumbers(out.answer);
}
