/** Answer and label scoring: SQuAD-style EM and token F1 (as HotpotQA scores answers), plus
 * "contains", since the pipeline answers in sentences while gold answers are short spans. */
import { VERDICT_INFO } from '../../lib/core/verdicts';
import type { ClaimResult } from '../../lib/core/run';
import type { Label } from './datasets';

export function normalizeAnswer(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\[\d+\]/g, ' ') // citation markers
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function exactMatch(pred: string, gold: string): number {
  return normalizeAnswer(pred) === normalizeAnswer(gold) ? 1 : 0;
}

export function f1(pred: string, gold: string): number {
  const p = normalizeAnswer(pred).split(' ').filter(Boolean);
  const g = normalizeAnswer(gold).split(' ').filter(Boolean);
  // yes/no/noanswer must match exactly, as in the HotpotQA scorer.
  const special = ['yes', 'no', 'noanswer'];
  if ((special.includes(p.join(' ')) || special.includes(g.join(' '))) && p.join(' ') !== g.join(' ')) return 0;
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (!same) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The gold answer appears in the prediction (word-bounded, after normalisation). */
export function contains(pred: string, gold: string): number {
  const g = normalizeAnswer(gold);
  return g && ` ${normalizeAnswer(pred)} `.includes(` ${g} `) ? 1 : 0;
}

export function best(pred: string, golds: string[], f: (p: string, g: string) => number): number {
  return golds.length ? Math.max(...golds.map((g) => f(pred, g))) : 0;
}

/** A verify run's claims as one FEVER label: any claim refuted or corrected refutes the whole;
 * all supported supports it; otherwise there is not enough information. */
export function labelOf(claims: ClaimResult[] | undefined): Label {
  if (!claims?.length) return 'NOT ENOUGH INFO';
  const labels = claims.map((c) => VERDICT_INFO[c.verdict].fever);
  if (labels.includes('REFUTES')) return 'REFUTES';
  if (labels.every((l) => l === 'SUPPORTS')) return 'SUPPORTS';
  return 'NOT ENOUGH INFO';
}
