/** CI floor for retrieval quality on real HotpotQA data (lexical only): fails on a regression.
 * Floors sit just under the figures measured on the full 500 (bench/results/retrieval.json). */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadHotpot } from './format';
import { runRecall } from './recall';

const DATA = new URL('../../../shared/data/hotpotqa-dev-distractor-500.jsonl', import.meta.url).pathname;

describe.skipIf(!existsSync(DATA))('retrieval recall on HotpotQA distractor (500)', () => {
  it('holds the measured recall', async () => {
    const r = await runRecall(loadHotpot(DATA));
    // Measured: one round 0.823 / 0.938 / 0.658, MRR 0.961; two rounds 0.872 / 0.974 / 0.768.
    expect(r.oneRound.recallAt2).toBeGreaterThanOrEqual(0.81);
    expect(r.oneRound.recallAt5).toBeGreaterThanOrEqual(0.93);
    expect(r.oneRound.mrr).toBeGreaterThanOrEqual(0.95);
    expect(r.twoRounds.recallAt2).toBeGreaterThanOrEqual(0.86);
    expect(r.twoRounds.recallAt5).toBeGreaterThanOrEqual(0.965);
    expect(r.twoRounds.allGoldAt2).toBeGreaterThanOrEqual(0.75);
  });
});
