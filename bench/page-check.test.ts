/** Part 6 of the benchmark at 4× speed (~20 s): checking a 12-claim page costs 1 + 12 calls and
 * finishes in at most 0.35× the time of checking its claims as 12 selections one after another;
 * its first verdict shows within 3 s (npm run bench measures it at speed 1; here every real
 * millisecond of harness overhead counts 4 times, so the bound allows 400 ms of it). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from './config';
import { PAGE_TARGETS, runPageCheckBench } from './page-check';

describe('benchmark: Check this page', () => {
  it('costs one call for the claims and one per claim, and is much faster than the claims one by one', async () => {
    const b = await runPageCheckBench({ ...DEFAULT_OPTIONS, speed: 4 }, () => {}, { repeats: 1, budgets: [] });
    const why = JSON.stringify({ page: b.page, selections: b.selections });
    expect(b.page.ok && b.selections.ok, why).toBe(true);
    expect(b.page.claims).toBe(12);
    expect(b.page.calls, why).toBe(13);
    expect(b.page.verdicts, why).toEqual({ supported: 8, corrected: 3, refuted: 1, unverifiable: 0 });
    // One check per claim, each at least a claims call and a check call.
    expect(b.selections.calls).toBeGreaterThanOrEqual(24);
    expect(b.page.wallMs / b.selections.wallMs, why).toBeLessThanOrEqual(PAGE_TARGETS.wall);
    expect(b.page.firstVerdictMs, why).toBeLessThanOrEqual(PAGE_TARGETS.firstVerdictMs + 400);
    expect(b.page.firstVerdictMs, why).toBeLessThan(b.selections.firstVerdictMs);
  }, 90_000);
});
