import { VERDICT_INFO } from '../core/verdicts';
import type { ClaimResult, Run, Verdict } from '../core/run';
import type { PageMark } from './types';

/** Which verdict a sentence shows when its claims differ: the most severe (lib/core/verdicts.ts), and
 * of equal severity the one that changes the text (a correction over "unverifiable"). */
const rank = (v: Verdict) => VERDICT_INFO[v].severity * 2 + (VERDICT_INFO[v].changesText ? 1 : 0);

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** One mark per sentence: several claims from one sentence merge and the most severe verdict
 * wins. Only the sentence and its verdict: the page gets nothing from the run that it did not
 * show already (corrections and sources are in the side panel). A mark goes only on a sentence the
 * user could see (the run's input is the selection's, or the checked page's, visible text): a
 * "sentence" the model took from elsewhere (the hidden text around it, another tab) gets none, so
 * no verdict on text the user never saw reaches the page. */
function merge(run: Run, items: { sentence: string; claim: string; verdict: Verdict }[]): PageMark[] {
  const bySentence = new Map<string, PageMark>();
  const visible = squash(run.input.text);
  for (const c of items) {
    const sentence = c.sentence.trim() || c.claim;
    if (!visible.includes(squash(sentence))) continue;
    const prev = bySentence.get(sentence);
    if (!prev || rank(c.verdict) > rank(prev.verdict)) bySentence.set(sentence, { sentence, verdict: c.verdict });
  }
  return [...bySentence.values()];
}

/** The marks of a finished run. `keep` chooses claims (an earlier page check: only sentences the
 * page still shows unchanged). */
export function marksFromRun(run: Run, keep: (c: ClaimResult) => boolean = () => true): PageMark[] {
  return merge(run, (run.claims ?? []).filter(keep));
}

/** The marks of a page check while it runs: each claim as soon as its verdict has landed (its
 * step-verdict, before the correction; or its step-done). */
export function marksFromSteps(run: Run): PageMark[] {
  return merge(run, run.steps.flatMap((s) => (s.verdict ? [{ sentence: s.sentence ?? s.draft, claim: s.draft, verdict: s.verdict }] : [])));
}
