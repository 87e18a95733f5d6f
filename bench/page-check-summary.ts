/** Part 6's table and targets: Check this page against the same claims as selections, one after
 * another, and the budget sweep. */
import { PAGE_TARGETS, type CheckMetrics, type PageCheckBench } from './page-check';
import type { Target } from './summary';
import { table } from './table';

const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const s2 = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const x2 = (r: number) => `${r.toFixed(2)}×`;
const n0 = (n: number) => Math.round(n).toLocaleString('en-US');

export interface Part6Summary {
  wallRatio: number;
  callsRatio: number;
  targets: Target[];
}

export function summarizePageCheck(b: PageCheckBench): Part6Summary {
  const wallRatio = b.page.wallMs / b.selections.wallMs;
  return {
    wallRatio,
    callsRatio: b.page.calls / b.selections.calls,
    targets: [
      { name: 'page check wall / selections wall', target: `≤ ${PAGE_TARGETS.wall}`, measured: wallRatio, pass: wallRatio <= PAGE_TARGETS.wall },
      { name: 'first verdict shown, ms', target: `≤ ${PAGE_TARGETS.firstVerdictMs}`, measured: b.page.firstVerdictMs, pass: b.page.firstVerdictMs <= PAGE_TARGETS.firstVerdictMs },
    ],
  };
}

const perClaim = (m: CheckMetrics) => `${(m.calls / m.claims).toFixed(2)} calls, ${n0(m.inputTokens / m.claims)} in / ${n0(m.outputTokens / m.claims)} out tokens`;

export function formatPart6(b: PageCheckBench): string {
  const s = summarizePageCheck(b);
  const p = b.page;
  const q = b.selections;
  const main = table(
    [`a ${b.claims}-claim page (median of ${b.repeats})`, `${b.claims} selections, one after another`, 'Check this page', 'page / selections', 'target'],
    [
      ['LLM calls', String(q.calls), String(p.calls), x2(p.calls / q.calls), ''],
      ['input tokens', n0(q.inputTokens), n0(p.inputTokens), x2(p.inputTokens / q.inputTokens), ''],
      ['output tokens', n0(q.outputTokens), n0(p.outputTokens), x2(p.outputTokens / q.outputTokens), ''],
      ['retrievals (search + fetch)', String(q.retrieves), String(p.retrieves), '', ''],
      ['wall time, click to last verdict', s1(q.wallMs), s1(p.wallMs), x2(s.wallRatio), `≤ ${PAGE_TARGETS.wall}×`],
      ['first verdict shown', s2(q.firstVerdictMs), s2(p.firstVerdictMs), '', `≤ ${PAGE_TARGETS.firstVerdictMs / 1000} s`],
      ['per claim', perClaim(q), perClaim(p), '', ''],
    ],
  );
  const verdicts = (m: CheckMetrics) => Object.entries(m.verdicts).filter(([, n]) => n).map(([v, n]) => `${n} ${v}`).join(', ');
  const sweep = table(
    [`budget (a ${b.budgets[0] ? Math.max(...b.budgets.map((x) => x.found)) : '?'}-claim page)`, 'claims checked', 'LLM calls', 'output tokens', 'wall time', 'first verdict'],
    b.budgets.map((x) => [String(x.budget), String(x.claims), String(x.calls), n0(x.outputTokens), s1(x.wallMs), s2(x.firstVerdictMs)]),
  );
  const targets = s.targets.map((t) => `  ${t.pass ? 'PASS' : 'MISS'}  ${t.name}: ${t.name.includes('ms') ? n0(t.measured) : t.measured.toFixed(3)} (target ${t.target})`).join('\n');
  const failed = [p, q, ...b.budgets].filter((m) => !m.ok).map((m) => m.error);
  return [
    main,
    `verdicts: page ${verdicts(p)}; selections ${verdicts(q)}. Up to ${b.concurrency} claims are checked at a time; the claims call streams each claim with its query first, so its evidence is fetched while the model still writes it.`,
    sweep,
    ...(failed.length ? [`failed runs: ${failed.join('; ')}`] : []),
    `targets:\n${targets}`,
  ].join('\n');
}
