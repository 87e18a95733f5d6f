/** Part 5's cost of one changed step, by which step changed: each run against the same question
 * with nothing changed; failed and sequential runs left out. */
import { describe, expect, it } from 'vitest';
import type { RatifyMetrics, SpeculationRow } from './pipeline';
import { formatPart5, oneChangedByStep, summarizeSpeculation } from './speculation-summary';

const metrics = (wallMs: number, ok = true): RatifyMetrics => ({
  calls: 9,
  inputTokens: 10_000,
  outputTokens: 570,
  wallMs,
  modelMs: wallMs,
  firstVisibleMs: 1000,
  ok,
  firstContentMs: 1300,
  firstStepAfterDraftMs: 10,
  speculative: 5,
  discarded: 0,
  steps: 6,
  rounds: 6,
  retrieves: 6,
  sources: 6,
  byStage: {},
});

const row = (id: string, changed: number, steps: number[], wallMs: number, o: { speculate?: boolean; ok?: boolean } = {}): SpeculationRow => ({
  id,
  changed,
  steps,
  speculate: o.speculate ?? true,
  ratify: metrics(wallMs, o.ok),
});

const rows: SpeculationRow[] = [
  row('a', 0, [], 7000),
  row('a', 1, [4], 9200),
  row('b', 0, [], 8000),
  row('b', 1, [4], 10_400),
  row('c', 0, [], 6000),
  row('c', 1, [5], 7000),
  // Left out: a failed run, a sequential one, and one whose unchanged run failed.
  row('d', 0, [], 6000),
  row('d', 1, [1], 60_000, { ok: false }),
  row('c', 1, [5], 30_000, { speculate: false }),
  row('e', 0, [], 5000, { ok: false }),
  row('e', 1, [0], 9000),
];

describe('one changed step, by where it is', () => {
  it('is the extra time over the same question unchanged, averaged per step', () => {
    expect(oneChangedByStep(rows)).toEqual([
      { step: 4, runs: 2, extraMs: 2300 },
      { step: 5, runs: 1, extraMs: 1000 },
    ]);
  });

  it('is printed with part 5, steps counted from 1', () => {
    const text = formatPart5(summarizeSpeculation(rows, []));
    expect(text).toContain('by the step that changed: step 5 +2.3 s (2), step 6 +1.0 s (1)');
  });
});
