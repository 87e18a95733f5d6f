/** Check this page: the article's check-worthy claims, each checked against the user's open tabs
 * and the web, in parallel.
 *
 * 1. One call lists the claims from the page's visible text alone (./claims.ts), most
 *    check-worthy first, up to the budget (Settings); each claim is on the run as soon as it has
 *    streamed, its evidence is fetched at once and its check starts.
 * 2. Each claim is a chain of one step (./step.ts: retrieval rounds, the Refiner, the check,
 *    citations validated in code). Claims do not depend on each other, so up to CONCURRENCY are
 *    checked at a time (one for a model that answers one request at a time). They share the run's
 *    library (one reading of the open tabs) and one retrieval cache, so a query two claims share is
 *    searched once.
 * 3. What may reach the web (lib/core/flow.ts): only the claims call's queries, which are the
 *    run's web plan; the checks rank what the library holds (the open tabs and the pages those
 *    searches found) on this computer, and a further round a check asks for does too: it has read
 *    other tabs. The page itself is never evidence for itself.
 * 4. The result — verdicts, the corrected text, the marks — is built in code from the checks
 *    (./corrected-text.ts), as for a selection.
 *
 * Resuming: the claims list is redone if it was cut off (its gate event has no `found` yet);
 * claims already checked are kept and the others are checked. */
import { LlmError } from '../llm/errors';
import { changesText, isVerdict } from '../core/verdicts';
import type { Chain, StepCaller } from './chain';
import { extractPageClaims, type PageClaim } from './claims';
import { isDone, stepsOfPart, type Ctx } from './context';
import { buildCorrectedText } from './corrected-text';
import { pageCheckMessages } from './page-prompts';
import { RetrievalCache } from './retrieval-cache';
import { sentenceHash } from './sentence-hash';
import { buildSources } from './sources';
import { pageCheckSent, pageCheckSettledOf, pageCheckStage, pageCheckVerdictOf, stage } from './stages';
import { reviseStep } from './step';
import { searchPlanned } from './web-plan';
import { toWebQuery } from '../core/flow';
import type { GateDecision, PageContext, RunInput, StepState, TextOrigin } from '../core/run';
import { claimResults, settledClaim } from './verify';

/** Claims checked at once. Four keeps a page of twelve within a few model round trips without
 * flooding a local server (bench/README.md, part 6). */
export const CONCURRENCY = 4;

/** What a claim whose check reply could not be read shows (the others go on). */
export const UNREADABLE_CHECK_NOTE = 'The model\'s reply for this claim could not be read, so it was not checked.';

function pageCaller(ctx: Ctx, page: PageContext | undefined): StepCaller {
  return {
    prompt: (a) =>
      pageCheckMessages({
        claim: a.step.draft,
        sentence: a.step.sentence ?? a.step.draft,
        title: page?.title ?? '',
        query: a.query,
        round: a.round,
        finalRound: a.finalRound,
        passages: a.passages,
      }),
    async call(a, messages, partial, signal) {
      const out = await ctx.llm.json({
        ...stage('page-check', pageCheckStage, { sent: pageCheckSent }),
        messages,
        temperature: 0,
        maxTokens: 600,
        signal,
        onUsage: ctx.onUsage,
        onPartial: (p) => {
          const o = (p ?? {}) as Record<string, unknown>;
          const verdict = typeof o.verdict === 'string' ? o.verdict.trim().toLowerCase() : '';
          const settled = pageCheckSettledOf(o);
          const shown = pageCheckVerdictOf(o);
          partial({
            // The verdict is shown (and the sentence marked) before the correction is written.
            ...(shown ? { verdict: shown } : {}),
            kept: isVerdict(verdict) ? !changesText(verdict) : undefined,
            revised: typeof o.corrected === 'string' ? o.corrected : undefined,
            // The claim is committed (and marked) once its evidence, verdict and correction have
            // streamed; its explanation follows.
            ...(settled ? { settled: settledClaim({ ...settled, explanation: '', retryQuery: '' }, a.step.draft) } : {}),
          });
        },
      });
      return { ...settledClaim(out, a.step.draft), nextQueries: [], final: '' };
    },
  };
}

/** A small queue: at most `n` of the given tasks run at once, in the order they were added. */
function limiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export async function checkPage(ctx: Ctx, input: RunInput): Promise<void> {
  if (ctx.run().answerFinal && ctx.run().claims) return; // resumed after the end
  const page = input.page;
  const text = input.text.trim();
  const k = Math.max(1, ctx.settings.passagesPerStep);
  const cache = new RetrievalCache(ctx, page);
  const caller = pageCaller(ctx, page);
  const limit = limiter(ctx.llm.serial ? 1 : CONCURRENCY);
  const checks: Promise<void>[] = [];
  const failure = new AbortController();
  const check = (index: number) => {
    const p = limit(async () => {
      if (failure.signal.aborted) return;
      const chain: Chain = { question: '', caller, streamFinal: false, verify: true, cache, pipelined: false, modelQueries: true };
      try {
        await reviseStep(ctx, chain, [index], 0);
      } catch (err) {
        // One claim the model garbled does not sink the others: it says it was not checked.
        if (!(err instanceof LlmError && err.info.code === 'bad-output') || ctx.signal.aborted) throw err;
        const step = ctx.run().steps.find((s) => s.index === index) as StepState;
        ctx.emit({ type: 'step-done', index, revised: step.draft, status: 'malformed', citations: [], verdict: 'unverifiable', note: UNREADABLE_CHECK_NOTE });
      }
    });
    // The first failure ends the run; the checks still queued do not start.
    checks.push(
      p.catch((err: unknown) => {
        failure.abort();
        throw err;
      }),
    );
  };

  /** The web is searched with the claims call's queries only (flow.ts): that call saw the page's
   * visible text and nothing else, and the user chose that text by asking for the check. The
   * searches are the run's web plan; the checks rank what they found, locally. */
  const searchWeb = (query: string) => {
    const origins: TextOrigin[] = ['selected'];
    const web = toWebQuery(query, origins);
    const plan = ctx.run().webPlan?.queries ?? [];
    if (!web || plan.includes(query)) return;
    ctx.emit({ type: 'web-plan', plan: { queries: [...plan, query], origins } });
    ctx.library
      .searchWeb?.([web], ctx.signal)
      .then((r) => {
        if (r.sources.length || r.errors.length) ctx.emit({ type: 'library', sources: r.sources, errors: r.errors });
      })
      // Only a cancel rejects (providers' failures are in the result); the run ends on its own.
      .catch(() => undefined);
  };

  if (ctx.run().gate?.found === undefined) {
    // A list cut off by a worker restart is made again from the start.
    if (ctx.run().steps.length) ctx.emit({ type: 'draft', steps: [] });
    const decision: GateDecision = { label: 'clear', beta: 0, betaThreshold: ctx.settings.betaThreshold, retrieve: true };
    if (!ctx.run().gate) ctx.emit({ type: 'gate', decision });
    const onClaim = (c: PageClaim) => {
      const index = ctx.run().steps.length;
      ctx.emit({ type: 'draft', append: true, steps: [{ text: c.claim, sentence: c.sentence, index }] });
      ctx.emit({ type: 'query', index, round: 1, query: c.query });
      searchWeb(c.query);
      cache.prefetch(c.query, k * 2);
      check(index);
    };
    // A claim's query streams before the claim: it is searched, and its evidence ranked, meanwhile.
    const onQuery = (query: string) => {
      searchWeb(query);
      cache.prefetch(query, k * 2);
    };
    const { found, readChars } = await extractPageClaims(ctx, { text, page, budget: Math.max(1, ctx.settings.pageClaims), onClaim, onQuery });
    ctx.emit({ type: 'gate', decision: { ...decision, found, ...(readChars ? { readChars } : {}) } });
  } else {
    // Resumed: the library is new; the recorded searches are made again.
    searchPlanned(ctx);
    for (const s of stepsOfPart(ctx.run(), undefined)) if (!isDone(s)) check(s.index);
  }
  await Promise.all(checks);
  emitResult(ctx, text);
}

function emitResult(ctx: Ctx, text: string): void {
  const at = (s: StepState) => {
    const i = text.indexOf(s.sentence ?? s.draft);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  // The report lists the claims in page order, and its sources are numbered in that order.
  const pageOrder = (steps: StepState[]) => [...steps].sort((a, b) => at(a) - at(b) || a.index - b.index);
  const { sources, list } = buildSources(ctx, '', new Map(), { stepsFirst: true, order: pageOrder });
  const claims = claimResults(ctx, list, pageOrder).map((c) => ({ ...c, sentenceHash: sentenceHash(c.sentence) }));
  const built = buildCorrectedText(text, claims);
  ctx.emit({ type: 'claims', claims, corrected: built.text });
  ctx.emit({ type: 'answer', markdown: built.markdown, sources });
}
