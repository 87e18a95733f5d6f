/** Think-then-Act: decide, before answering, whether the input needs rewriting and whether it
 * needs retrieval (seeds/think-then-act-paper.txt, Eq. 1 and 2).
 *
 * One structured call does both assessments. The paper runs them in sequence: clarity (and the
 * rewrite or split) first, then the confidence β of the *final* question. Our reply schema keeps
 * that order (label → rewritten question / sub-questions → β per final question) so β is still
 * judged on q_final, while the gate costs one short round trip instead of up to three. The
 * retrieval decision itself is code, not model: β < β′. */
import type { LlmClient } from '../llm/types';
import type { PipelineSettings } from '../settings/schema';
import { gateView } from '../core/flow';
import { claimsMessages, gateMessages, searchesMessages } from './prompts';
import { claimsStage, gateStage, searchesStage, stage, type ClaimsOut, type GateOut } from './stages';
import type { GateDecision, RunInput, SubDecision } from '../core/run';

/** β′ = 0 never retrieves, β′ = 1 always does; otherwise retrieve iff β < β′ (the paper's rule). */
export function shouldRetrieve(beta: number, threshold: number, force = false): boolean {
  if (force) return true;
  if (threshold <= 0) return false;
  if (threshold >= 1) return true;
  return beta < threshold;
}

const MAX_SUB = 4;

/** Turn the model's assessment into the stored decision, repairing inconsistent replies
 * (an "incomplete" label without a rewrite, an "ambiguous" one with a single part). */
export function decide(out: GateOut, input: RunInput, settings: Pick<PipelineSettings, 'betaThreshold'>): GateDecision {
  const t = settings.betaThreshold;
  // A question about the page is answered from the page, so it is read whatever β says; only
  // when there is page text to read.
  const aboutPage = out.aboutPage && !!input.page?.text?.trim();
  const force = (input.forceRetrieval ?? false) || aboutPage;
  const page = aboutPage ? { aboutPage: true } : {};
  const subs = out.subQuestions.slice(0, MAX_SUB);
  const { label, single } = repairedLabel(out, input, subs);
  if (label === 'ambiguous') return { ...splitDecision(subs, t, force), ...page };
  const beta = out.confidence;
  const rewritten = label === 'incomplete' ? single || out.question || subs[0]?.question || '' : '';
  if (rewritten && rewritten !== input.text.trim()) return { label, rewritten, beta, betaThreshold: t, retrieve: shouldRetrieve(beta, t, force), ...page };
  return { label: 'clear', beta, betaThreshold: t, retrieve: shouldRetrieve(beta, t, force), ...page };
}

/** The reply's label as its other fields bear it out: an "ambiguous" question split into fewer
 * than two parts is a rewrite (one part, or a question of its own; `single` is that part) or, if
 * nothing was split off, clear. */
function repairedLabel(out: GateOut, input: RunInput, subs: GateOut['subQuestions']): { label: GateOut['label']; single?: string } {
  // The user already said how the question is to be understood: it is not rewritten again.
  const label = input.asked !== undefined && out.label === 'incomplete' ? 'clear' : out.label;
  if (label !== 'ambiguous' || subs.length >= 2) return { label };
  // One sub-question is a rewrite; none means the model could not split it.
  return { label: subs.length === 1 || (out.question && out.question !== input.text.trim()) ? 'incomplete' : 'clear', single: subs[0]?.question };
}

/** An ambiguous question's decision: one per part, retrieving if any part needs to; β is the
 * lowest of the parts'. */
function splitDecision(subs: GateOut['subQuestions'], t: number, force: boolean): GateDecision {
  const parts: SubDecision[] = subs.map((s, i) => ({
    question: s.question,
    beta: s.confidence,
    retrieve: shouldRetrieve(s.confidence, t, force),
    ...(i > 0 && s.dependsOnPrevious ? { dependsOnPrevious: true } : {}),
  }));
  const beta = Math.min(...parts.map((p) => p.beta));
  return { label: 'ambiguous', subQuestions: parts.map((p) => p.question), beta, betaThreshold: t, retrieve: parts.some((p) => p.retrieve), parts };
}

export interface GateCallOptions {
  signal?: AbortSignal;
  onUsage?: Parameters<LlmClient['chat']>[0]['onUsage'];
  /** Verify: the claims stream as readable text while the call runs. */
  onPartial?: (partial: unknown) => void;
  /** Ask: the decision, as soon as the model has written it (before its web searches). */
  onDecision?: (decision: GateDecision) => void;
  /** Ask: the model has begun its reply (the server took the request and is answering it). */
  onBegun?: () => void;
}

/** The decision in a streaming gate reply, once the model has moved on to "search" (written
 * last): every field it rests on is then complete. */
function decisionOf(partial: unknown, input: RunInput, settings: Pick<PipelineSettings, 'betaThreshold'>): GateDecision | undefined {
  if (!partial || typeof partial !== 'object' || Array.isArray(partial) || !('search' in partial)) return undefined;
  const r = gateStage.safeParse({ ...partial, search: [] });
  return r.success ? decide(r.data, input, settings) : undefined;
}

export interface GateResult {
  decision: GateDecision;
  /** The web searches the gate wrote, when the web is to be searched at all ([] otherwise). */
  search: string[];
}

/** Whether the web is searched: the model's confidence against β′, or the user's "check with
 * sources". Never whether the page has text (the page may not decide whether a search happens). */
export function searchesWeb(out: GateOut, input: RunInput, settings: Pick<PipelineSettings, 'betaThreshold'>): boolean {
  return decide({ ...out, aboutPage: false }, input, settings).retrieve;
}

/** Ask mode: one call over network-safe text only (flow.ts gateView), then the decision. */
export async function gateQuestion(llm: LlmClient, input: RunInput, settings: PipelineSettings, o: GateCallOptions = {}): Promise<GateResult> {
  const out = await llm.json({
    ...stage('gate', gateStage),
    messages: gateMessages(gateView(input, 'ask')),
    temperature: 0,
    maxTokens: 500,
    signal: o.signal,
    onUsage: o.onUsage,
    onPartial:
      o.onDecision || o.onBegun
        ? (p) => {
            o.onBegun?.();
            const d = o.onDecision && decisionOf(p, input, settings);
            if (d) o.onDecision?.(d);
          }
        : undefined,
  });
  return { decision: decide(out, input, settings), search: searchesWeb(out, input, settings) ? (out.search ?? []).slice(0, MAX_SEARCHES) : [] };
}

/** Web searches per run, from the gate or the search plan. */
const MAX_SEARCHES = 4;

/** Verify mode: the web searches for a selection, from the selection alone (flow.ts). */
export async function planSearches(llm: LlmClient, input: RunInput, settings: PipelineSettings, o: GateCallOptions = {}): Promise<string[]> {
  const n = Math.min(MAX_SEARCHES, Math.max(1, settings.maxSteps));
  const out = await llm.json({
    ...stage('searches', searchesStage),
    messages: searchesMessages(gateView(input, 'verify'), n),
    temperature: 0,
    maxTokens: 60 + 30 * n,
    signal: o.signal,
    onUsage: o.onUsage,
  });
  return (out.search ?? []).slice(0, n);
}

/** Verify mode: the gate's rewrite becomes "make the selection's claims self-contained"; a
 * verification always retrieves (evidence is the point), so β is recorded but not used. */
export async function gateSelection(
  llm: LlmClient,
  input: RunInput,
  settings: PipelineSettings,
  o: GateCallOptions = {},
): Promise<{ decision: GateDecision; claims: ClaimsOut['claims']; query: string }> {
  const out = await llm.json({
    ...stage('claims', claimsStage),
    messages: claimsMessages(input.text, input.page, settings.maxSteps),
    temperature: 0,
    maxTokens: 300 + 120 * settings.maxSteps,
    signal: o.signal,
    onUsage: o.onUsage,
    onPartial: o.onPartial,
  });
  let claims = out.claims.slice(0, Math.max(1, settings.maxSteps));
  // A selection with no checkable claim is still checked as a whole, and the panel says so.
  const wholeSelection = !claims.length;
  if (wholeSelection) claims = [{ claim: input.text.trim(), sentence: input.text.trim() }];
  const decision: GateDecision = {
    label: out.label,
    beta: out.confidence,
    betaThreshold: settings.betaThreshold,
    retrieve: true,
    ...(wholeSelection ? { wholeSelection } : {}),
    ...(out.label === 'incomplete' ? { rewritten: claims.map((c) => c.claim).join(' ') } : {}),
  };
  return { decision, claims, query: out.query };
}
