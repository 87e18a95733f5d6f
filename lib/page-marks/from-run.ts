import type { Run, Verdict } from '../pipeline/types';
import type { PageMark } from './types';

const SEVERITY: Record<Verdict, number> = { supported: 0, unverifiable: 1, corrected: 2, refuted: 3 };

/** One mark per sentence of the selection: several claims from one sentence merge, the most
 * severe verdict wins and their sources are pooled. */
export function marksFromRun(run: Run): PageMark[] {
  const bySentence = new Map<string, PageMark>();
  for (const c of run.claims ?? []) {
    const sentence = c.sentence.trim() || c.claim;
    const sources = c.sources.flatMap((n) => run.sources.filter((s) => s.n === n).map((s) => ({ n: s.n, title: s.title, url: s.url })));
    const mark: PageMark = {
      sentence,
      verdict: c.verdict,
      correction: c.verdict === 'corrected' || c.verdict === 'refuted' ? c.corrected : undefined,
      explanation: c.explanation,
      sources,
    };
    const prev = bySentence.get(sentence);
    if (!prev) {
      bySentence.set(sentence, mark);
      continue;
    }
    const base = SEVERITY[mark.verdict] > SEVERITY[prev.verdict] ? mark : prev;
    const pooled = [...prev.sources, ...mark.sources].filter((s, i, all) => all.findIndex((x) => x.n === s.n) === i);
    bySentence.set(sentence, { ...base, sources: pooled });
  }
  return [...bySentence.values()];
}
