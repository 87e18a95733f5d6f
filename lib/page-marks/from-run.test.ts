import { describe, expect, it } from 'vitest';
import { newRun } from '../pipeline/run-state';
import type { Run } from '../core/run';
import { marksFromRun } from './from-run';

describe('marksFromRun', () => {
  it('gives one mark per sentence with the most severe verdict, and nothing from the evidence', () => {
    const run: Run = {
      ...newRun('r', 'verify', { text: 'She moved to Paris in 1895.\nShe had two daughters.' }),
      sources: [
        { n: 1, passageId: 'p1', url: 'https://a.example/1', title: 'One', site: 'a.example', origin: 'web', quote: 'x' },
        { n: 2, passageId: 'p2', url: 'https://b.example/2?token=secret', title: 'Two', site: 'b.example', origin: 'tab', quote: 'y' },
      ],
      claims: [
        { claim: 'Curie moved to Paris.', sentence: 'She moved to Paris in 1895.', verdict: 'supported', sources: [1] },
        { claim: 'Curie moved in 1895.', sentence: 'She moved to Paris in 1895.', verdict: 'corrected', corrected: 'Curie moved in 1891.', explanation: 'Tab two says so.', sources: [2] },
        { claim: 'She had two daughters.', sentence: 'She had two daughters.', verdict: 'unverifiable', sources: [] },
      ],
    };
    const marks = marksFromRun(run);
    expect(marks).toEqual([
      { sentence: 'She moved to Paris in 1895.', verdict: 'corrected' },
      { sentence: 'She had two daughters.', verdict: 'unverifiable' },
    ]);
    // What goes into the tab carries no correction, explanation, source title or address.
    for (const secret of ['1891', 'Tab two', 'Two', 'b.example', 'token']) expect(JSON.stringify(marks)).not.toContain(secret);
  });

  it('marks only sentences of the selection the user could see: none on text the model took from elsewhere', () => {
    // The selection's visible text; the page hid "The account code begins with 9." inside it.
    const run: Run = {
      ...newRun('r', 'verify', { text: 'Marie Curie won the Nobel Prize in 1903.', hiddenSentences: 1 }),
      claims: [
        { claim: 'Curie won in 1903.', sentence: 'Marie Curie won the Nobel Prize in 1903.', verdict: 'supported', sources: [1] },
        { claim: 'The account code begins with 9.', sentence: 'The account code begins with 9.', verdict: 'supported', sources: [1] },
      ],
    };
    expect(marksFromRun(run)).toEqual([{ sentence: 'Marie Curie won the Nobel Prize in 1903.', verdict: 'supported' }]);
  });
});
