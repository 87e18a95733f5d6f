/** Verify mode: the selection becomes self-contained claims (the gate's rewrite, using the page
 * to resolve "he", "the company", "last year"), and each claim is one causal step of the chain:
 * its query comes from the claims checked before it, its check cites evidence and gives a
 * verdict, and the last check also writes a corrected passage, which stands only if it holds every
 * correction (else the corrected text is built in code from the verdicts). Calls: 1 + n for n
 * claims with one round each. The page the selection came from is never evidence for itself. */
import { DeltaTracker } from '../llm/partial-json';
import { backedVerdict, changesText, isVerdict } from '../core/verdicts';
import { stripMarkers, type SourceList } from './citations';
import { isBadOutput, newChain, runChain, type FinalOutput, type StepCaller, type StepSettled } from './chain';
import { acceptsPassage, buildCorrectedText } from './corrected-text';
import { stepsOfPart, type Ctx } from './context';
import { gateView } from '../core/flow';
import { gateSelection, planSearches } from './gate';
import { searchPlanned } from './web-plan';
import type { CatalogueEntry } from '../core/passage';
import { libraryCatalogue } from './catalogue';
import { checkMessages } from './prompts';
import { fallbackQuery } from './step-query';
import { UNBACKED_NOTE } from './step-settle';
import { buildSources } from './sources';
import { checkFinalStage, checkSettledOf, checkStage, stage, type StageSpec } from './stages';
import type { ClaimResult, RunInput, StepState, Verdict } from '../core/run';

/** A claim's check as a settled step (selections and pages alike). */
export function settledClaim(o: { verdict: Verdict; corrected: string; explanation: string; citations: StepSettled['citations']; sufficient: boolean; retryQuery: string }, draft: string): StepSettled {
  const kept = !changesText(o.verdict);
  return {
    kept,
    revised: !kept && o.corrected ? stripMarkers(o.corrected) : draft,
    citations: o.citations,
    sufficient: o.sufficient,
    retryQuery: o.retryQuery,
    verdict: o.verdict,
    note: o.explanation || undefined,
  };
}

function checkCaller(ctx: Ctx, selection: string, catalogue: CatalogueEntry[]): StepCaller {
  return {
    prompt: (a) =>
      checkMessages({
        selection,
        before: a.before.map((s) => s.revised ?? s.draft),
        position: a.position,
        total: a.total,
        claim: a.step.draft,
        later: a.later.map((s) => s.draft),
        query: a.query,
        round: a.round,
        finalRound: a.finalRound,
        passages: a.passages,
        withPassage: a.withFinal,
        catalogue,
      }),
    async call(a, messages, partial, signal) {
      const call = <T>(spec: StageSpec<T>) =>
        ctx.llm.json({
          ...spec,
          messages,
          temperature: 0,
          maxTokens: 700 + (a.withFinal ? Math.ceil(selection.length / 2) + 200 : 0),
          signal,
          onUsage: ctx.onUsage,
          onPartial: (p) => {
            const o = (p ?? {}) as Record<string, unknown>;
            const verdict = typeof o.verdict === 'string' ? o.verdict.trim().toLowerCase() : '';
            const settled = checkSettledOf(o);
            partial({
              // The verdict comes first: whether the claim's text stands is known at once.
              kept: isVerdict(verdict) ? !changesText(verdict) : undefined,
              revised: typeof o.corrected === 'string' ? o.corrected : undefined,
              nextQueries: Array.isArray(o.nextQueries) ? o.nextQueries.filter((q): q is string => typeof q === 'string') : undefined,
              // The queries are the last field but the corrected passage.
              queriesDone: 'correctedPassage' in o,
              final: typeof o.correctedPassage === 'string' ? o.correctedPassage : undefined,
              sufficient: typeof o.sufficient === 'boolean' ? o.sufficient : undefined,
              ...(settled ? { settled: settledClaim(settled, a.step.draft) } : {}),
            });
          },
        });
      const out = a.withFinal ? await call(stage('check', checkFinalStage)) : { ...(await call(stage('check', checkStage))), correctedPassage: '' };
      return { ...settledClaim(out, a.step.draft), nextQueries: out.nextQueries, final: out.correctedPassage };
    },
  };
}

export async function verifySelection(ctx: Ctx, input: RunInput): Promise<void> {
  const selection = input.text.trim();
  if (ctx.run().answerFinal && ctx.run().claims) return; // resumed after the end
  let planned: Promise<void> = Promise.resolve();
  if (!ctx.run().webPlan) {
    // The web searches, from the selection alone (flow.ts), beside the claims call, which reads
    // the page around the selection too and so writes queries for this computer's library only.
    const view = gateView(input, 'verify');
    planned = planSearches(ctx.llm, input, ctx.settings, { signal: ctx.signal, onUsage: ctx.onUsage })
      .catch((err: unknown) => {
        // An unreadable plan: the selection is checked against the tabs alone, and the trace
        // says the web was not searched.
        if (!isBadOutput(err)) throw err;
        ctx.emit({ type: 'library', sources: [], errors: [{ provider: 'web search', message: 'The web searches for this selection could not be read from the model\'s reply: the web was not searched.' }] });
        return [];
      })
      .then((queries) => {
      ctx.emit({ type: 'web-plan', plan: { queries, origins: view.origins } });
      searchPlanned(ctx);
    });
    // Its failure is the run's (awaited below); until then nothing is left unhandled.
    planned.catch(() => undefined);
  } else searchPlanned(ctx);
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
    });
    ctx.emit({ type: 'gate', decision });
    ctx.emit({ type: 'draft', steps: claims.map((c) => ({ text: c.claim, sentence: c.sentence || c.claim })) });
    // The first claim's query is the model's; the others' are made from their own words until a
    // correction rewrites them.
    claims.forEach((c, i) => ctx.emit({ type: 'query', index: i, round: 1, query: (i === 0 && query) || fallbackQuery(c.claim, '') }));
  }

  // The checks rank what the web plan found: they wait until it has been searched.
  ctx = { ...ctx, webReady: planned };
  const catalogue = await libraryCatalogue(ctx);
  const chain = newChain(ctx, { question: selection, caller: checkCaller(ctx, selection, catalogue), streamFinal: true, verify: true, origin: input.page });
  const final = await runChain(ctx, chain);
  await planned; // its failure is the run's, even when no check needed the web
  // The corrected text is built in code from the verdicts; the passage the last check wrote
  // stands only if it holds every correction (./corrected-text.ts).
  emitResult(ctx, selection, final);
}

/** The claims as the panel, the marks and the exports show them: a verdict that rests on no
 * listed source is "unverifiable", whatever the step recorded. */
export function claimResults(ctx: Ctx, list: SourceList, order: (steps: StepState[]) => StepState[] = (s) => s): ClaimResult[] {
  return order(stepsOfPart(ctx.run(), undefined)).map((s) => {
    const sources = s.citations.map((id) => list.get(id)?.n).filter((n): n is number => n !== undefined);
    const verdict = backedVerdict(s.verdict ?? 'unverifiable', sources.length);
    const unbacked = verdict !== (s.verdict ?? 'unverifiable');
    return {
      claim: s.draft,
      sentence: s.sentence ?? s.draft,
      verdict,
      ...(!unbacked && s.revised && s.revised !== s.draft ? { corrected: s.revised } : {}),
      ...(unbacked ? { explanation: UNBACKED_NOTE } : s.note ? { explanation: s.note } : {}),
      sources,
    };
  });
}

function emitResult(ctx: Ctx, original: string, final: FinalOutput | undefined): void {
  // Steps first: the claims' sources are numbered the same whatever the passage cites.
  const numbered = buildSources(ctx, '', new Map(), { stepsFirst: true });
  const claims = claimResults(ctx, numbered.list);
  const model = final ? stripMarkers(final.raw) : undefined;
  if (final && model && acceptsPassage(model, original, claims)) {
    const { markdown, sources } = buildSources(ctx, final.raw, final.aliases, { stepsFirst: true, dropIndex: final.index });
    // Claims first: a checkpoint taken at the answer already holds the verdicts.
    ctx.emit({ type: 'claims', claims, corrected: model });
    ctx.emit({ type: 'answer', markdown, sources });
    return;
  }
  const built = buildCorrectedText(original, claims);
  if (ctx.run().answer !== undefined) ctx.emit({ type: 'answer-reset' });
  ctx.emit({ type: 'claims', claims, corrected: built.text });
  ctx.emit({ type: 'answer', markdown: built.markdown, sources: numbered.sources });
}
