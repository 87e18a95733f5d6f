/** Verify mode: the selection becomes self-contained claims (the gate's rewrite, using the page
 * to resolve "he", "the company", "last year"), and each claim is one causal RAT step: its query
 * comes from the claims checked before it, its check cites evidence and gives a verdict, and the
 * last check also writes the corrected passage. Calls: 1 + n for n claims with one round each.
 * The page the selection came from is never evidence for itself. */
import { DeltaTracker } from '../llm/partial-json';
import { stripMarkers } from './citations';
import { isDone, stepsOfPart, type Ctx } from './context';
import { gateSelection } from './gate';
import { checkMessages, fallbackQuery } from './prompts';
import { buildSources, citedEvidence, compose, isBadOutput, runChain, type Chain, type FinalOutput, type StepCaller } from './rat';
import { checkSchema, parseCheck, SCHEMA } from './schemas';
import type { ClaimResult, RunInput } from './types';

function checkCaller(ctx: Ctx, selection: string): StepCaller {
  return async (a, partial) => {
    const out = await ctx.llm.json({
      stage: 'check',
      schemaName: SCHEMA.check,
      schema: checkSchema(a.withFinal),
      parse: parseCheck,
      messages: checkMessages({
        selection,
        before: a.before.map((s) => ({ claim: s.draft, verdict: s.verdict ?? 'unverifiable', corrected: s.revised ?? s.draft })),
        position: a.position,
        total: a.total,
        claim: a.step.draft,
        nextClaim: a.next?.draft,
        query: a.query,
        round: a.round,
        finalRound: a.finalRound,
        passages: a.passages,
        withPassage: a.withFinal,
      }),
      temperature: 0,
      maxTokens: 700 + (a.withFinal ? Math.ceil(selection.length / 2) + 200 : 0),
      signal: ctx.signal,
      onUsage: ctx.onUsage,
      onPartial: (p) => {
        const o = (p ?? {}) as Record<string, unknown>;
        partial({
          revised: typeof o.corrected === 'string' ? o.corrected : undefined,
          final: typeof o.correctedPassage === 'string' ? o.correctedPassage : undefined,
          sufficient: typeof o.sufficient === 'boolean' ? o.sufficient : undefined,
        });
      },
    });
    const changes = out.verdict === 'corrected' || out.verdict === 'refuted';
    return {
      revised: changes && out.corrected ? stripMarkers(out.corrected) : a.step.draft,
      citations: out.citations,
      sufficient: out.sufficient,
      nextQuery: out.nextQuery,
      final: out.correctedPassage,
      verdict: out.verdict,
      note: out.explanation || undefined,
    };
  };
}

export async function verifySelection(ctx: Ctx, input: RunInput): Promise<void> {
  const selection = input.text.trim();
  if (!ctx.run().gate || !ctx.run().steps.length) {
    const shown = new DeltaTracker();
    const { decision, claims, query } = await gateSelection(ctx.llm, input, ctx.settings, {
      signal: ctx.signal,
      onUsage: ctx.onUsage,
      onPartial: (p) => {
        const list = (p as Record<string, unknown> | undefined)?.claims;
        if (!Array.isArray(list)) return;
        const text = list
          .map((c) => (c && typeof c === 'object' ? (c as Record<string, unknown>).claim : undefined))
          .filter((c): c is string => typeof c === 'string')
          .map((c, i) => `${i ? '\n' : ''}${i + 1}. ${c}`)
          .join('');
        const d = shown.next(text);
        if (d) ctx.emit({ type: 'draft-delta', text: d });
      },
    }).catch((err: unknown) => {
      // Unreadable claims: the selection is checked as one claim.
      if (!isBadOutput(err)) throw err;
      return { decision: { label: 'clear' as const, beta: 0, betaThreshold: ctx.settings.betaThreshold, retrieve: true }, claims: [{ claim: selection, sentence: selection }], query: '' };
    });
    ctx.emit({ type: 'gate', decision });
    ctx.emit({ type: 'draft', steps: claims.map((c) => ({ text: c.claim, sentence: c.sentence || c.claim })) });
    ctx.emit({ type: 'query', index: 0, round: 1, query: query || fallbackQuery(claims[0].claim, '') });
  }
  const steps = stepsOfPart(ctx.run(), undefined);
  if (steps.every(isDone) && ctx.run().claims) return; // resumed after the end

  let finished = false;
  const chain: Chain = {
    question: selection,
    caller: checkCaller(ctx, selection),
    streamFinal: true,
    verify: true,
    origin: input.page,
    finish: (f) => {
      finished = true;
      emitResult(ctx, f.raw, f.aliases, f.last);
    },
  };
  if (ctx.run().answer) ctx.emit({ type: 'answer', markdown: '', sources: [] });
  await runChain(ctx, chain);
  if (finished) return;

  // The last check did not write the corrected passage. Nothing to correct: the passage stands;
  // otherwise one compose call writes it.
  const done = stepsOfPart(ctx.run(), undefined);
  const fixes = done.filter((s) => s.verdict === 'corrected' || s.verdict === 'refuted');
  if (!fixes.length) {
    emitResult(ctx, selection, new Map());
    return;
  }
  const evidence = citedEvidence(ctx, fixes);
  const c = await compose(
    ctx,
    selection,
    fixes.map((s) => ({ heading: s.draft, body: `${s.verdict}: ${s.revised ?? s.draft}`, citations: s.citations })),
    evidence,
    { verifySelection: selection, stream: true },
  );
  emitResult(ctx, c.raw, c.aliases);
}

function emitResult(ctx: Ctx, raw: string, aliases: FinalOutput['aliases'], last?: FinalOutput['last']): void {
  const { markdown, sources, list } = buildSources(
    ctx,
    raw,
    aliases,
    last,
    (alias) => ctx.emit({ type: 'citation-dropped', index: last?.index ?? -1, passageId: alias, reason: 'unknown-id' }),
    true,
  );
  const claims: ClaimResult[] = stepsOfPart(ctx.run(), undefined).map((st) => {
    // The last claim's outcome is not in the run yet (its step-done follows this result).
    const s = last && st.index === last.index ? { ...st, citations: last.citations, revised: last.revised, verdict: last.verdict, note: last.note } : st;
    const citations = s.citations;
    return {
      claim: s.draft,
      sentence: s.sentence ?? s.draft,
      verdict: s.verdict ?? 'unverifiable',
      ...(s.revised && s.revised !== s.draft ? { corrected: s.revised } : {}),
      ...(s.note ? { explanation: s.note } : {}),
      sources: citations.map((id) => list.get(id)?.n).filter((n): n is number => n !== undefined),
    };
  });
  ctx.emit({ type: 'answer', markdown, sources });
  ctx.emit({ type: 'claims', claims, corrected: stripMarkers(raw) });
}
