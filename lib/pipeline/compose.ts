/** A compose call: one answer written from findings (the answers of sub-questions, the revised
 * steps when the last step gave no answer, or the corrections of a verified selection). Streams
 * answer-delta with source numbers; returns the raw text with alias markers. */
import { DeltaTracker } from '../llm/partial-json';
import type { AliasMap } from './citations';
import type { Ctx } from './context';
import { composeMessages } from './prompts';
import { MarkerStream } from './sources';
import { answerStage, proseAnswer, stage } from './stages';
import type { PageContext } from '../core/run';

export interface Finding {
  heading: string;
  body: string;
  citations?: string[];
}

export async function compose(ctx: Ctx, question: string, findings: Finding[], evidence: AliasMap, opts: { page?: PageContext; verifySelection?: string; stream: boolean }): Promise<{ raw: string; aliases: AliasMap }> {
  const idToAlias = new Map([...evidence.entries()].map(([a, p]) => [p.id, a]));
  const parts = findings.map((f) => ({
    heading: f.heading,
    body: f.body + (f.citations?.length ? ` (evidence: ${f.citations.map((id) => idToAlias.get(id)).filter(Boolean).join(', ')})` : ''),
  }));
  const track = new DeltaTracker();
  const markers = opts.stream ? new MarkerStream(evidence) : undefined;
  const out = await ctx.llm.json({
    ...stage('compose', answerStage, { fromText: proseAnswer }),
    messages: composeMessages(question, parts, evidence, opts.page, opts.verifySelection),
    temperature: 0,
    maxTokens: 1200,
    signal: ctx.signal,
    onUsage: ctx.onUsage,
    onPartial: (p) => {
      if (!markers) return;
      const a = (p as Record<string, unknown> | undefined)?.answer;
      const d = markers.push(track.next(typeof a === 'string' ? a : undefined));
      if (d) ctx.emit({ type: 'answer-delta', text: d });
    },
  });
  if (markers) {
    const d = markers.flush();
    if (d) ctx.emit({ type: 'answer-delta', text: d });
  }
  return { raw: out.answer, aliases: evidence };
}
