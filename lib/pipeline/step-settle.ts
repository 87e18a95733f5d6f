/** How a step's reply becomes its step-done: citations validated, a verdict only with evidence,
 * the text kept as drafted unless the model changed it, and a note on why the search stopped. */
import { backedVerdict } from '../core/verdicts';
import { validateCitations, type AliasMap } from './citations';
import type { Chain, StepSettled } from './chain';
import type { RunEvent, StepState } from '../core/run';

/** Said of a verdict that needed a validated citation and had none (it became "unverifiable"). */
export const UNBACKED_NOTE = 'The model gave no evidence that could be checked for its verdict.';

/** Why a step's rounds of retrieval ended. */
export type StopReason = 'sufficient' | 'max-rounds' | 'repeated-query' | 'no-new-evidence' | 'no-evidence';

export interface Committed {
  event: Extract<RunEvent, { type: 'step-done' }>;
  dropped: { passageId: string; reason: string }[];
  /** It changed and has later steps: their queries follow. */
  pending: boolean;
}

/** The step-done a settled reply gives: validated citations, a verdict only with evidence. The
 * later steps' queries are pending if it changed, or if its prompt asked for them anyway (and the
 * model writes them, chain.ts). */
export function settle(chain: Chain, step: StepState, out: StepSettled, aliases: AliasMap, stop: StopReason, hasLater: boolean, rewrites: boolean): Committed {
  const { valid, dropped } = validateCitations(out.citations, aliases);
  const citations = valid.map((v) => v.passage.id);
  const quotes: Record<string, string> = {};
  for (const v of valid) if (v.quote) quotes[v.passage.id] = v.quote;
  // A verdict that changes or confirms the text must rest on validated evidence.
  const verdict = out.verdict ? backedVerdict(out.verdict, citations.length) : undefined;
  const downgraded = verdict !== out.verdict;
  const revised = downgraded || out.kept || !out.revised ? step.draft : out.revised;
  const changed = normText(revised) !== normText(step.draft);
  const note = chain.verify ? (downgraded ? UNBACKED_NOTE : out.note) : stop === 'sufficient' || stop === 'max-rounds' ? undefined : stopNote(stop);
  const pending = (changed || rewrites) && hasLater && chain.modelQueries;
  return {
    dropped,
    pending,
    event: {
      type: 'step-done',
      index: step.index,
      revised,
      status: changed ? 'revised' : 'unchanged',
      citations,
      ...(Object.keys(quotes).length ? { quotes } : {}),
      ...(verdict ? { verdict } : {}),
      ...(note ? { note } : {}),
      ...(pending ? { queriesPending: true as const } : {}),
    },
  };
}

function stopNote(s: StopReason): string {
  return s === 'repeated-query' ? 'Stopped searching: the next query repeated an earlier one.' : s === 'no-new-evidence' ? 'Stopped searching: a further round found nothing new.' : '';
}

export function normText(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}
