/** A thinking model's thought is never its answer. Qwen3, DeepSeek-R1 and others (through
 * Ollama, LM Studio or llama.cpp) may write `<think>…</think>` before the answer in the content
 * itself; a brace or "[P1]" in there must not be read as the JSON or the citation. */

import type { ChatRequest, LlmClient } from './types';

const OPEN = '<think>';
const CLOSE = '</think>';

/** The answer part of a complete reply: a leading think block removed; an unclosed leading one
 * means no answer yet; a lone closing tag (the template opened the block in the prompt) ends the
 * thought. */
export function stripThinking(text: string): string {
  const lead = text.trimStart();
  if (lead.startsWith(OPEN)) {
    const end = lead.indexOf(CLOSE);
    return end < 0 ? '' : lead.slice(end + CLOSE.length).trimStart();
  }
  const close = text.indexOf(CLOSE);
  if (close >= 0 && !text.slice(0, close).includes(OPEN)) return text.slice(close + CLOSE.length).trimStart();
  return text;
}

/** Splits a streamed reply into thinking and answer as the deltas arrive, holding back only as
 * much as could still turn out to be a tag. */
export class ThinkSplitter {
  private state: 'start' | 'thinking' | 'after' | 'answer' = 'start';
  private pending = '';
  thinkingChars = 0;

  /** Returns the answer text and thought text this delta completes. */
  push(delta: string): { answer: string; thinking: string } {
    this.pending += delta;
    let answer = '';
    let thinking = '';
    for (;;) {
      if (this.state === 'answer') {
        answer += this.pending;
        this.pending = '';
        break;
      }
      if (this.state === 'after') {
        // The blank lines between the thought and the answer belong to neither.
        this.pending = this.pending.replace(/^\s+/, '');
        if (!this.pending) break;
        this.state = 'answer';
        continue;
      }
      if (this.state === 'start') {
        const lead = this.pending.trimStart();
        if (!lead) break;
        if (lead.startsWith(OPEN)) {
          this.state = 'thinking';
          this.pending = lead.slice(OPEN.length);
          continue;
        }
        if (OPEN.startsWith(lead)) break; // could still be "<think>"
        this.state = 'answer';
        continue;
      }
      const end = this.pending.indexOf(CLOSE);
      if (end >= 0) {
        thinking += this.pending.slice(0, end);
        this.pending = this.pending.slice(end + CLOSE.length);
        this.state = 'after';
        continue;
      }
      // Keep a tail that might be the start of "</think>".
      const keep = partialTagTail(this.pending, CLOSE);
      thinking += this.pending.slice(0, this.pending.length - keep);
      this.pending = this.pending.slice(this.pending.length - keep);
      break;
    }
    this.thinkingChars += thinking.length;
    return { answer, thinking };
  }

  /** At the end: whatever was held back. An unclosed think block yields no answer. */
  flush(): string {
    const rest = this.state === 'thinking' ? '' : this.pending;
    this.pending = '';
    return rest;
  }
}

function partialTagTail(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (tag.startsWith(text.slice(-n))) return n;
  return 0;
}

/** The same client, reporting each call's thinking progress by stage: at the first character,
 * every `every` characters (a thought can be thousands of deltas; the trace needs a few) and at
 * the end of the call. */
export function reportThinking(llm: LlmClient, report: (stage: string, chars: number) => void, every = 500): LlmClient {
  const around = <R extends ChatRequest, T>(req: R, call: (r: R) => Promise<T>): Promise<T> => {
    let shown = 0;
    let last = 0;
    const onThinking = (chars: number) => {
      req.onThinking?.(chars);
      last = chars;
      if (shown && chars - shown < every) return;
      shown = chars;
      report(req.stage, chars);
    };
    return call({ ...req, onThinking }).finally(() => {
      if (last > shown) report(req.stage, last);
    });
  };
  return { ...llm, usage: llm.usage, chat: (req) => around(req, (r) => llm.chat(r)), json: (req) => around(req, (r) => llm.json(r)), embed: (texts, signal) => llm.embed(texts, signal) };
}
