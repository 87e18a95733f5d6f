/** The one structured-output path both clients share: stream, show partial JSON, parse, and
 * one repair round that shows the model its reply and the problem. */
import { LlmError } from './errors';
import { parseJsonLoose } from './json-text';
import { parsePartialJson } from './partial-json';
import type { ChatMessage, JsonRequest } from './types';

/** Receives one attempt's streamed answer text (thinking already taken out). */
export interface PartialSink {
  /** A new attempt starts: what was streamed before is void. */
  reset: () => void;
  /** Handed on as a callback: a function, not a method. */
  delta: (d: string) => void;
}

/** One round: send these messages, stream into `sink` when given, return the answer text. */
export type JsonRound = (messages: ChatMessage[], sink: PartialSink | undefined, repair: boolean) => Promise<string>;

export async function jsonWithRepair<T>(req: JsonRequest<T>, round: JsonRound, who = "The model's"): Promise<T> {
  let text = '';
  const sink: PartialSink = {
    reset: () => {
      text = '';
    },
    delta: (d) => {
      req.onDelta?.(d);
      if (!req.onPartial) return;
      text += d;
      req.onPartial(parsePartialJson(text));
    },
  };
  const first = await round(req.messages, sink, false);
  try {
    return req.parse(parseJsonLoose(first));
  } catch (err) {
    // A final answer written as prose is the answer: no repair round for it.
    const prose = req.fromText?.(first);
    if (prose !== undefined) return prose;
    const problem = err instanceof Error ? err.message : String(err);
    const messages: ChatMessage[] = [
      ...req.messages,
      { role: 'assistant', content: first.slice(0, 8000) },
      { role: 'user', content: `That reply could not be used (${problem.slice(0, 300)}). Reply with only the corrected JSON object for ${req.schemaName}.` },
    ];
    const repaired = await round(messages, undefined, true);
    try {
      return req.parse(parseJsonLoose(repaired));
    } catch (err2) {
      const prose2 = req.fromText?.(repaired);
      if (prose2 !== undefined) return prose2;
      throw new LlmError({ code: 'bad-output', message: `${who} answer could not be read as ${req.schemaName} JSON: ${err2 instanceof Error ? err2.message : String(err2)}`, stage: req.stage });
    }
  }
}
