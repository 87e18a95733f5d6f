/** Part 5: sequential vs speculative revision, with 0, 1, 3 and all 6 steps changed, and the
 * targets of speculative revision. Pure functions over the rows runPipelineBench returns. */
import type { QuestionRow, SpeculationRow } from './pipeline';
import { percentile } from './summary';
import { table } from './table';

export const SPECULATION_TARGETS = {
  /** With at most one step changed: wall time / reference loop (issue 25; 0.12 before revision
   * started while the draft streams). */
  wallVsReference: 0.07,
  /** First committed step, after the draft's end, ms (p95). */
  firstStepMs: 4_000,
  /** All steps changed: speculative / sequential. */
  wallVsSequential: 1.05,
  callsVsSequential: 1.6,
};

export interface SpeculationCell {
  changed: number;
  speculate: boolean;
  runs: number;
  failed: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  wallMs: number;
  firstStepP50Ms: number;
  firstStepP95Ms: number;
  speculative: number;
  discarded: number;
  /** Runs in which speculation turned itself off (the harness must never look like a queue). */
  turnedOff: number;
  /** Mean wall time / the reference loop's mean wall time on the same questions. */
  wallVsReference: number;
}

/** With 1 step changed (speculative): how much longer the answer took than the same question with
 * nothing changed, by which step changed (0-based). Where the change falls decides what it costs:
 * the last step's own revision writes the answer; an earlier step with a lean prompt (chain.ts)
 * writes only the next step's query, so one more search and revision follow in sequence. */
export interface ChangeCost {
  step: number;
  runs: number;
  extraMs: number;
}

export interface SpeculationSummary {
  cells: SpeculationCell[];
  oneChangedByStep: ChangeCost[];
  targets: { name: string; target: string; measured: number; pass: boolean }[];
}

export function oneChangedByStep(rows: SpeculationRow[]): ChangeCost[] {
  const unchanged = new Map(rows.filter((r) => r.changed === 0 && r.speculate && r.ratify.ok).map((r) => [r.id, r.ratify.wallMs]));
  const extra = new Map<number, number[]>();
  for (const r of rows) {
    const base = unchanged.get(r.id);
    const step = r.steps[0];
    if (r.changed !== 1 || !r.speculate || !r.ratify.ok || base === undefined || step === undefined) continue;
    extra.set(step, [...(extra.get(step) ?? []), r.ratify.wallMs - base]);
  }
  return [...extra].sort(([a], [b]) => a - b).map(([step, xs]) => ({ step, runs: xs.length, extraMs: mean(xs) }));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function summarizeSpeculation(rows: SpeculationRow[], reference: QuestionRow[]): SpeculationSummary {
  const refWall = new Map(reference.map((q) => [q.id, q.reference.wallMs]));
  const keys = [...new Set(rows.map((r) => `${r.changed}|${r.speculate}`))];
  const cells: SpeculationCell[] = keys.map((k) => {
    const [c, s] = k.split('|');
    const rs = rows.filter((r) => `${r.changed}|${r.speculate}` === k);
    const ok = rs.filter((r) => r.ratify.ok);
    const m = (f: (r: SpeculationRow) => number) => mean(ok.map(f));
    const first = ok.map((r) => r.ratify.firstStepAfterDraftMs);
    return {
      changed: Number(c),
      speculate: s === 'true',
      runs: rs.length,
      failed: rs.length - ok.length,
      calls: m((r) => r.ratify.calls),
      inputTokens: m((r) => r.ratify.inputTokens),
      outputTokens: m((r) => r.ratify.outputTokens),
      wallMs: m((r) => r.ratify.wallMs),
      firstStepP50Ms: percentile(first, 50),
      firstStepP95Ms: percentile(first, 95),
      speculative: m((r) => r.ratify.speculative),
      discarded: m((r) => r.ratify.discarded),
      turnedOff: rs.filter((r) => r.ratify.speculationOff).length,
      wallVsReference: m((r) => r.ratify.wallMs) / Math.max(1, mean(ok.map((r) => refWall.get(r.id) ?? 0))),
    };
  });
  cells.sort((a, b) => a.changed - b.changed || Number(a.speculate) - Number(b.speculate));
  const cell = (changed: number, speculate: boolean) => cells.find((x) => x.changed === changed && x.speculate === speculate);
  const T = SPECULATION_TARGETS;
  const targets: SpeculationSummary['targets'] = [];
  for (const n of [0, 1]) {
    const s = cell(n, true);
    if (!s) continue;
    targets.push({ name: `speculative, ${n} of 6 changed: wall / reference`, target: `≤ ${T.wallVsReference}`, measured: s.wallVsReference, pass: s.wallVsReference <= T.wallVsReference });
    targets.push({ name: `speculative, ${n} of 6 changed: first committed step after the draft, p95 (ms)`, target: `≤ ${T.firstStepMs}`, measured: s.firstStepP95Ms, pass: s.firstStepP95Ms <= T.firstStepMs });
  }
  const all = cell(6, true);
  const seq = cell(6, false);
  if (all && seq) {
    targets.push({ name: 'all 6 changed: wall, speculative / sequential', target: `≤ ${T.wallVsSequential}`, measured: all.wallMs / seq.wallMs, pass: all.wallMs / seq.wallMs <= T.wallVsSequential });
    targets.push({ name: 'all 6 changed: LLM calls, speculative / sequential', target: `≤ ${T.callsVsSequential}`, measured: all.calls / seq.calls, pass: all.calls / seq.calls <= T.callsVsSequential });
  }
  return { cells, oneChangedByStep: oneChangedByStep(rows), targets };
}

const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const n0 = (n: number) => Math.round(n).toLocaleString('en-US');

export function formatPart5(p: SpeculationSummary): string {
  const main = table(
    ['steps changed', 'schedule', 'LLM calls', 'input tok', 'output tok', 'wall', 'wall / ref', 'first step after draft p50 / p95', 'kept / discarded in parallel'],
    p.cells.map((c) => [
      `${c.changed} of 6`,
      c.speculate ? 'speculative' : 'sequential',
      c.calls.toFixed(1),
      n0(c.inputTokens),
      n0(c.outputTokens),
      s1(c.wallMs),
      `${c.wallVsReference.toFixed(3)}×`,
      `${s1(c.firstStepP50Ms)} / ${s1(c.firstStepP95Ms)}`,
      c.speculate ? `${c.speculative.toFixed(1)} / ${c.discarded.toFixed(1)}` : '',
    ]),
  );
  const failed = p.cells.filter((c) => c.failed).map((c) => `${c.changed}/${c.speculate ? 'spec' : 'seq'}: ${c.failed}`);
  const off = p.cells.filter((c) => c.turnedOff).map((c) => `${c.changed}/${c.speculate ? 'spec' : 'seq'}: ${c.turnedOff}`);
  const byStep = p.oneChangedByStep.length
    ? `\n1 of 6 changed, time over the same question unchanged, by the step that changed: ${p.oneChangedByStep.map((c) => `step ${c.step + 1} +${s1(c.extraMs)} (${c.runs})`).join(', ')}`
    : '';
  const targets = p.targets.map((x) => `  ${x.pass ? 'PASS' : 'MISS'}  ${x.name}: ${x.name.includes('ms') ? n0(x.measured) : x.measured.toFixed(3)} (target ${x.target})`).join('\n');
  return `${main}${byStep}${failed.length ? `\nfailed runs: ${failed.join(', ')}` : ''}${off.length ? `\nruns where speculation turned itself off: ${off.join(', ')}` : ''}\ntargets:\n${targets}`;
}
