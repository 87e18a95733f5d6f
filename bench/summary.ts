/** Aggregates of parts 1 and 2, the targets, and the checks on the measurement itself. Pure
 * functions of the per-run metrics, so the test can assert on the same numbers the table shows. */
import type { GateRow, PipelineBenchResult, QuestionRow, RunMetrics, StageCost } from './pipeline';

export const TARGETS = { calls: 0.45, outputTokens: 0.3, wall: 0.3, firstVisibleMs: 1500 } as const;

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => (xs.length ? sum(xs) / xs.length : 0);

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least p% of the values at or below it.
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
}

export interface SideMeans {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  wallMs: number;
  modelMs: number;
  firstVisibleMs: number;
}

function means(rows: RunMetrics[]): SideMeans {
  return {
    calls: mean(rows.map((r) => r.calls)),
    inputTokens: mean(rows.map((r) => r.inputTokens)),
    outputTokens: mean(rows.map((r) => r.outputTokens)),
    wallMs: mean(rows.map((r) => r.wallMs)),
    modelMs: mean(rows.map((r) => r.modelMs)),
    firstVisibleMs: mean(rows.map((r) => r.firstVisibleMs)),
  };
}

export interface Ratios {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  wall: number;
}

/** Ratify / reference over the totals (= ratio of the means). */
function ratios(a: SideMeans, b: SideMeans): Ratios {
  const r = (x: number, y: number) => (y ? x / y : 0);
  return { calls: r(a.calls, b.calls), inputTokens: r(a.inputTokens, b.inputTokens), outputTokens: r(a.outputTokens, b.outputTokens), wall: r(a.wallMs, b.wallMs) };
}

export interface Target {
  name: string;
  target: string;
  measured: number;
  pass: boolean;
}

export interface Part1Summary {
  questions: number;
  failed: { ratify: number; reference: number };
  reference: SideMeans & { firstShownMs: number };
  ratify: SideMeans & { firstContentMs: number; firstVisibleP50Ms: number; firstVisibleP95Ms: number; firstVisibleMaxMs: number; firstContentP50Ms: number; firstContentP95Ms: number };
  /** Ratify / reference, ratio of totals. */
  ratio: Ratios;
  /** Spread of the per-question ratios. */
  perQuestionRatio: { calls: { median: number; max: number }; outputTokens: { median: number; max: number }; wall: { median: number; max: number } };
  /** Time to first visible output against the reference's first text (ratio of means). */
  firstVisibleRatio: number;
  /** Measured wall time over the latency model's prediction for the same calls, minus 1: how
   * much running concurrently (and the harness) added. */
  measurementOverhead: { ratify: number; reference: number };
  /** Mean calls and tokens per question, by stage. */
  byStage: { reference: Record<string, StageCost>; ratify: Record<string, StageCost> };
  targets: Target[];
}

export interface Part2Summary {
  questions: number;
  gated: SideMeans;
  always: SideMeans;
  /** Gated / always RAT. */
  ratio: Ratios;
  /** Share of these runs in which the gate skipped retrieval. */
  directShare: number;
}

function stageMeans(rows: Record<string, StageCost>[]): Record<string, StageCost> {
  const out: Record<string, StageCost> = {};
  const stages = [...new Set(rows.flatMap((r) => Object.keys(r)))].sort();
  for (const st of stages) {
    const xs = rows.map((r) => r[st] ?? { calls: 0, inputTokens: 0, outputTokens: 0 });
    out[st] = { calls: mean(xs.map((x) => x.calls)), inputTokens: mean(xs.map((x) => x.inputTokens)), outputTokens: mean(xs.map((x) => x.outputTokens)) };
  }
  return out;
}

export function summarizePart1(rows: QuestionRow[]): Part1Summary {
  const ref = rows.map((r) => r.reference);
  const rat = rows.map((r) => r.ratify);
  const m = { ...means(rat) };
  const rm = means(ref);
  const ratio = ratios(m, rm);
  const pq = (f: (r: QuestionRow) => number) => {
    const xs = rows.map(f);
    return { median: percentile(xs, 50), max: Math.max(0, ...xs) };
  };
  const fv = rat.map((r) => r.firstVisibleMs);
  const fc = rat.map((r) => r.firstContentMs);
  const fvP95 = percentile(fv, 95);
  const targets: Target[] = [
    { name: 'LLM calls, Ratify / reference', target: `≤ ${TARGETS.calls}`, measured: ratio.calls, pass: ratio.calls <= TARGETS.calls },
    { name: 'output tokens, Ratify / reference', target: `≤ ${TARGETS.outputTokens}`, measured: ratio.outputTokens, pass: ratio.outputTokens <= TARGETS.outputTokens },
    { name: 'wall time, Ratify / reference', target: `≤ ${TARGETS.wall}`, measured: ratio.wall, pass: ratio.wall <= TARGETS.wall },
    { name: 'time to first visible output, p95 (ms)', target: `≤ ${TARGETS.firstVisibleMs}`, measured: fvP95, pass: fvP95 <= TARGETS.firstVisibleMs },
  ];
  return {
    questions: rows.length,
    failed: { ratify: rat.filter((r) => !r.ok).length, reference: ref.filter((r) => !r.ok).length },
    reference: { ...rm, firstShownMs: mean(ref.map((r) => r.firstShownMs)) },
    ratify: {
      ...m,
      firstContentMs: mean(fc),
      firstVisibleP50Ms: percentile(fv, 50),
      firstVisibleP95Ms: fvP95,
      firstVisibleMaxMs: Math.max(0, ...fv),
      firstContentP50Ms: percentile(fc, 50),
      firstContentP95Ms: percentile(fc, 95),
    },
    ratio,
    perQuestionRatio: {
      calls: pq((r) => r.ratify.calls / r.reference.calls),
      outputTokens: pq((r) => r.ratify.outputTokens / r.reference.outputTokens),
      wall: pq((r) => r.ratify.wallMs / r.reference.wallMs),
    },
    firstVisibleRatio: rm.firstVisibleMs ? m.firstVisibleMs / rm.firstVisibleMs : 0,
    measurementOverhead: { ratify: m.wallMs / m.modelMs - 1, reference: rm.wallMs / rm.modelMs - 1 },
    byStage: { reference: stageMeans(ref.map((r) => r.byStage)), ratify: stageMeans(rat.map((r) => r.byStage)) },
    targets,
  };
}

export function summarizePart2(rows: GateRow[]): Part2Summary {
  const g = means(rows.map((r) => r.gated));
  const a = means(rows.map((r) => r.always));
  return { questions: rows.length, gated: g, always: a, ratio: ratios(g, a), directShare: mean(rows.map((r) => (r.gated.steps === 0 ? 1 : 0))) };
}

export function summarize(r: PipelineBenchResult): { part1: Part1Summary; part2: Part2Summary } {
  return { part1: summarizePart1(r.questions), part2: summarizePart2(r.gate) };
}
