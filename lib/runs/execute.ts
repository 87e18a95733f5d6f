import { createLlmClient } from '../llm/client';
import type { Run } from '../pipeline/types';
import type { ExecuteContext } from './run-manager';

/** Interim executor: answers directly with one streamed call. Replaced by the pipeline. */
export async function executeDirect(run: Run, ctx: ExecuteContext): Promise<void> {
  const llm = createLlmClient(ctx.settings.llm);
  const answer = await llm.chat({
    stage: 'answer',
    signal: ctx.signal,
    messages: [
      { role: 'system', content: 'You are Ratify. Answer the question concisely in the language of the question.' },
      { role: 'user', content: run.input.text },
    ],
    onDelta: (text) => ctx.emit({ type: 'answer-delta', text }),
  });
  ctx.emit({ type: 'answer', markdown: answer, sources: [] });
  ctx.emit({ type: 'usage', usage: llm.usage });
}
