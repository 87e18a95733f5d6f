import { VERDICT_INFO } from '../verdicts';
import type { ClaimResult, Run, Verdict } from '../pipeline/types';
import type { PageMark } from './types';

/** Which verdict a sentence shows when its claims differ: the most severe (lib/verdicts.ts), and
 * of equal severity the one that changes the text (a correction over "unverifiable"). */
const rank = (v: Verdict) => VERDICT_INFO[v].severity * 2 + (VERDICT_INFO[v].changesText ? 1 : 0);

function merge(items: { sentence: string; claim: string; verdict: Verdict }[]): PageMark[] {
  const bySentence = new Map<string, PageMark>();
  for (const c of items) {
    const sentence = c.sentence.trim() || c.claim;
    const prev = bySentence.get(sentence);
    if (!prev || rank(c.verdict) > rank(prev.verdict)) bySentence.set(sentence, { sentence, verdict: c.verdict });
  }
  return [...bySentence.values()];
}

/** One mark per sentence of the selection: several claims from one sentence merge and the most
 * severe verdict wins. Only the sentence and its verdict: the page gets nothing from the run that
 * it did not show already (corrections and sources are in the side panel). `keep` chooses claims
 * (an earlier page check: only sentences the page still shows unchanged). */
export function marksFromRun(run: Run, keep: (c: ClaimResult) => boolean = () => true): PageMark[] {
  return merge((run.claims ?? []).filter(keep));
}

/** The marks of a page check while it runs: each claim as soon as its verdict has landed (its
 * step-verdict, before the correction; or its step-done). */
export function marksFromSteps(run: Run): PageMark[] {
  return merge(run.steps.flatMap((s) => (s.verdict ? [{ sentence: s.sentence ?? s.draft, claim: s.draft, verdict: s.verdict }] : [])));
}
