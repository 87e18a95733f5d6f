import { describe, expect, it } from 'vitest';
import { dedupe } from './dedupe';

const text = 'Marie Curie moved to Paris in late 1891, where she enrolled at the University of Paris and studied physics and mathematics.';

describe('dedupe', () => {
  it('keeps one of each group of near-duplicates, best first, up to k', () => {
    const items = [
      { id: 'web', text },
      { id: 'other', text: 'The Eiffel Tower was completed in March 1889 for the World’s Fair held in Paris that year.' },
      { id: 'tab', text: text.replace('late ', '') },
    ];
    expect(dedupe(items, (x) => x.text, 5).map((x) => x.id)).toEqual(['web', 'other']);
    expect(dedupe(items, (x) => x.text, 1).map((x) => x.id)).toEqual(['web']);
  });

  it('lets a preferred copy (an open tab) stand for its group in the better copy’s place', () => {
    const items = [
      { id: 'web', origin: 'web', text },
      { id: 'other', origin: 'web', text: 'The Eiffel Tower was completed in March 1889 for the World’s Fair held in Paris that year.' },
      { id: 'tab', origin: 'tab', text: text.replace('late ', '') },
    ];
    const kept = dedupe(items, (x) => x.text, 5, { prefer: (a, b) => a.origin === 'tab' && b.origin !== 'tab' });
    expect(kept.map((x) => x.id)).toEqual(['tab', 'other']);
  });
});
