/** Part 3c on a few questions (the full figures are npm run bench's): with an open tab among the
 * sources only the gate's searches reach the web; with the web alone, the steps' own queries do. */
import { describe, expect, it } from 'vitest';
import { loadQuestions } from './questions';
import { runWebRuleBench } from './web-rule';

describe('what the information-flow rule costs (bench part 3c)', () => {
  it('keeps the steps\' queries off the web when a tab is among the sources, and says what that costs', async () => {
    const { rows, summary } = await runWebRuleBench(loadQuestions(6, 6));
    expect(rows).toHaveLength(6);
    for (const r of rows) {
      // The gate's one search, nothing more, when a tab could be read …
      expect(r.withTab.queries).toHaveLength(1);
      // … and every step's own query beside it when only the web is read.
      expect(r.webOnly.queries.length).toBeGreaterThan(r.withTab.queries.length);
      expect(r.webOnly.queries).toContain(r.withTab.queries[0]);
    }
    expect(summary.changedShare).toBeGreaterThan(0.5);
    expect(summary.webOnly.recall).toBeGreaterThanOrEqual(summary.withTab.recall);
  }, 60_000);
});
