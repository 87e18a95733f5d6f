import { describe, expect, it } from 'vitest';
import { fuseByRank, fuseByScore } from './fusion';

const id = (x: string) => x;
const scored = (pairs: [string, number][]) => pairs.map(([passage, score]) => ({ passage, score }));

describe('fusing lexical and dense rankings', () => {
  const lexical = scored([['a', 10], ['b', 6], ['c', 5], ['d', 1]]);

  it('by score: a dense share of 0 keeps the lexical order, whatever the dense list says', () => {
    expect(fuseByScore(lexical, scored([['d', 0.9], ['x', 0.8], ['a', 0.1]]), id, 0)).toEqual(['a', 'b', 'c', 'd', 'x']);
  });

  it('by score: a passage whose cosine stands out rises; one at the dense floor gains nothing', () => {
    const dense = scored([['c', 0.8], ['x', 0.3], ['y', 0.29], ['b', 0.2]]);
    const fused = fuseByScore(lexical, dense, id, 0.35);
    // c: 0.65 × 0.5 + 0.35 × 1 = 0.675 > a: 0.65; b sits at the floor: 0.65 × 0.6 = 0.39.
    expect(fused.slice(0, 3)).toEqual(['c', 'a', 'b']);
    expect(fused.indexOf('x')).toBeGreaterThan(fused.indexOf('b'));
    expect(fused.at(-1)).toBe('y');
  });

  it('by score: without a dense spread (all cosines equal) the lexical order stands', () => {
    expect(fuseByScore(lexical, scored([['d', 0.5], ['c', 0.5]]), id, 0.35)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('by rank: an item high in several lists leads', () => {
    expect(fuseByRank([['a', 'b', 'c'], ['b', 'c', 'a']], id)[0]).toBe('b');
  });
});
