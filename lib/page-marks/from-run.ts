import type { Run, Verdict } from '../pipeline/types';
import type { PageMark } from './types';

const SEVERITY: Record<Verdict, number> = { supported: 0, unverifiable: 1, corrected: 2, refuted: 3 };

/** One mark per sentence of the selection: several claims from one sentence merge and the most
 * severe verdict wins. Only the sentence and its verdict: the page gets nothing from the run that
 * it did not show already (corrections and sources are in the side panel). */
export function marksFromRun(run: Run): PageMark[] {
  const bySentence = new Map<string, PageMark>();
  for (const c of run.claims ?? []) {
    const sentence = c.sentence.trim() || c.claim;
    const prev = bySentence.get(sentence);
    if (!prev || SEVERITY[c.verdict] > SEVERITY[prev.verdict]) bySentence.set(sentence, { sentence, verdict: c.verdict });
  }
  return [...bySentence.values()];
}
