import { describe, expect, it } from 'vitest';
import { newRun } from '../pipeline/run-state';
import type { Run } from '../pipeline/types';
import { marksFromRun } from './from-run';

describe('marksFromRun', () => {
  it('gives one mark per sentence, the most severe verdict, pooled sources', () => {
    const run: Run = {
      ...newRun('r', 'verify', { text: 'A. B.' }),
      sources: [
        { n: 1, passageId: 'p1', url: 'https://a.example/1', title: 'One', site: 'a.example', origin: 'web', quote: 'x' },
        { n: 2, passageId: 'p2', url: 'https://b.example/2', title: 'Two', site: 'b.example', origin: 'tab', quote: 'y' },
      ],
      claims: [
        { claim: 'Curie moved to Paris.', sentence: 'She moved to Paris in 1895.', verdict: 'supported', sources: [1] },
        { claim: 'Curie moved in 1895.', sentence: 'She moved to Paris in 1895.', verdict: 'corrected', corrected: 'Curie moved in 1891.', sources: [2] },
        { claim: 'She had two daughters.', sentence: 'She had two daughters.', verdict: 'unverifiable', sources: [] },
      ],
    };
    expect(marksFromRun(run)).toEqual([
      {
        sentence: 'She moved to Paris in 1895.',
        verdict: 'corrected',
        correction: 'Curie moved in 1891.',
        explanation: undefined,
        sources: [
          { n: 1, title: 'One', url: 'https://a.example/1' },
          { n: 2, title: 'Two', url: 'https://b.example/2' },
        ],
      },
      { sentence: 'She had two daughters.', verdict: 'unverifiable', correction: undefined, explanation: undefined, sources: [] },
    ]);
  });
});
