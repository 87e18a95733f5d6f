/** The fake server's streamed answer: server-sent chat.completion.chunk events as OpenAI sends
 * them, with the thought first (in a `<think>` block in the content, or as `reasoning_content` /
 * `reasoning` deltas), paced at the set token rate, and cut the ways real streams break. */
import type { ServerResponse } from 'node:http';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { sleep, waitForClientGone } from './http-util.ts';
import type { Generation } from './fake-llm-model.ts';
import { streamPieces, tokensForChars } from './text.ts';

export interface StreamPlan {
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
  usage: CompletionUsage;
  /** Output tokens per second (Infinity: no pacing). */
  tps: number;
  gen: Generation;
  thinkingStyle?: 'think-tag' | 'reasoning_content' | 'reasoning';
  /** Stop after `at` answer characters: leave the connection open (stall), end it without a
   * finish_reason (truncate), or reset the TCP connection (reset). */
  cut?: { mode: 'stall' | 'truncate' | 'reset'; at: number };
}

type Delta = ChatCompletionChunk.Choice['delta'] & { reasoning_content?: string; reasoning?: string };

export async function writeStream(res: ServerResponse, signal: AbortSignal, p: StreamPlan): Promise<void> {
  const { gen, cut } = p;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (choices: ChatCompletionChunk.Choice[], withUsage?: CompletionUsage): void => {
    const c: ChatCompletionChunk = { id: p.id, object: 'chat.completion.chunk', created: p.created, model: p.model, system_fingerprint: 'fp_fake', choices };
    // With include_usage, every chunk carries usage: null except the last one, as OpenAI does.
    if (p.includeUsage) c.usage = withUsage ?? null;
    res.write(`data: ${JSON.stringify(c)}\n\n`);
  };
  const delta = (d: Delta, finish: 'stop' | 'length' | null = null) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
  delta({ role: 'assistant', content: '', refusal: null });

  // What is sent, in order: [kind, text] pieces; the thought first.
  const parts: ['content' | 'reasoning_content' | 'reasoning', string][] = [];
  if (gen.thought) {
    if (p.thinkingStyle === 'think-tag') parts.push(['content', '<think>'], ...streamPieces(gen.thought).map((t): ['content', string] => ['content', t]), ['content', '</think>\n\n']);
    else if (p.thinkingStyle) {
      const kind = p.thinkingStyle;
      parts.push(...streamPieces(gen.thought).map((t): [typeof kind, string] => [kind, t]));
    }
  }
  const answer = cut ? gen.content.slice(0, cut.at) : gen.content;
  parts.push(...streamPieces(answer).map((t): ['content', string] => ['content', t]));

  // Paced by the same count the usage reports (a quarter of the characters so far), not piece by
  // piece: rounding each word up on its own made prose stream up to half again slower than its
  // reported token count, and JSON (long pieces) barely so.
  const start = Date.now();
  let chars = 0;
  for (let i = 0; i < parts.length; i++) {
    const [kind, text] = parts[i]!;
    chars += text.length;
    if (!(await sleep(start + (tokensForChars(chars) / p.tps) * 1000 - Date.now(), signal))) return;
    const last = !cut && i === parts.length - 1;
    delta(kind === 'content' ? { content: text } : { [kind]: text }, last ? gen.finishReason : null);
  }
  if (cut?.mode === 'stall') return waitForClientGone(signal);
  if (cut?.mode === 'truncate') {
    res.end();
    return;
  }
  if (cut?.mode === 'reset') {
    // A TCP reset mid-answer (a proxy or the server process dying), not a clean end.
    res.socket?.resetAndDestroy?.();
    res.socket?.destroy();
    return;
  }
  if (parts.length === 0) delta({}, gen.finishReason);
  if (p.includeUsage) chunk([], p.usage);
  res.end('data: [DONE]\n\n');
}
