/** The rows of a fact-check report, for a selection or a page: the final claims once the run has
 * them, else (a page check still running) each claim as its check stands, in page order. */
import { changesText, VERDICTS, type Verdict } from '@/lib/core/verdicts';
import type { Run } from '@/lib/core/run';
import type { T } from './i18n';

export interface ReportItem {
  key: string;
  claim: string;
  /** The page's (or selection's) own sentence the claim came from. */
  sentence: string;
  verdict?: Verdict;
  state: 'waiting' | 'checking' | 'done';
  corrected?: string;
  explanation?: string;
  /** Source numbers (known once the run has ended). */
  sources: number[];
}

export function reportItems(run: Run): ReportItem[] {
  if (run.claims) return run.claims.map((c, i) => ({ key: `c${i}`, claim: c.claim, sentence: c.sentence, verdict: c.verdict, state: 'done', ...(c.corrected && changesText(c.verdict) ? { corrected: c.corrected } : {}), ...(c.explanation ? { explanation: c.explanation } : {}), sources: c.sources }));
  const at = (s: string) => {
    const i = run.input.text.indexOf(s);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...run.steps]
    .sort((a, b) => at(a.sentence ?? a.draft) - at(b.sentence ?? b.draft) || a.index - b.index)
    .map((s) => {
      const done = s.status !== 'pending' && s.status !== 'running' && !!s.verdict;
      return {
        key: `s${s.index}`,
        claim: s.draft,
        sentence: s.sentence ?? s.draft,
        state: done ? 'done' : s.status === 'running' ? 'checking' : 'waiting',
        // A verdict lands before its correction and explanation.
        ...(s.verdict ? { verdict: s.verdict } : {}),
        ...(done && changesText(s.verdict) && s.revised && s.revised !== s.draft ? { corrected: s.revised } : {}),
        ...(done && s.note ? { explanation: s.note } : {}),
        sources: [],
      };
    });
}

export function verdictCounts(items: ReportItem[]): Record<Verdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const i of items) if (i.verdict) counts[i.verdict]++;
  return counts;
}

/** "8 supported · 2 corrected · 1 refuted" (verdicts that occur only, most severe last). */
export function countsText(t: T, counts: Record<Verdict, number>): string {
  return VERDICTS.filter((v) => counts[v] > 0)
    .map((v) => t(`count_${v}`, { n: counts[v] }))
    .join(' · ');
}

/** "12 claims: 8 supported · 2 corrected · 1 refuted · 1 unverifiable", or while a page is being
 * checked (or when its check stopped part-way) "7 of 12 checked: …". */
export function summaryText(t: T, items: ReportItem[]): string {
  const done = items.filter((i) => i.verdict).length;
  const head = done < items.length ? t('summaryChecked', { done, n: items.length }) : items.length === 1 ? t('summaryClaimsOne') : t('summaryClaims', { n: items.length });
  const counts = countsText(t, verdictCounts(items));
  return counts ? `${head}: ${counts}` : head;
}
