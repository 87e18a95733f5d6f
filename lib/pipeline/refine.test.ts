/** The Refiner never drops the library's best passages for the step's query (issue 25, item 5);
 * the step's text brings in only passages that hold what it says beyond its query. */
import { describe, expect, it } from 'vitest';
import type { Passage } from '../core/passage';
import { refine } from './refine';

const P = (id: string, text: string): Passage => ({ id, url: `https://example.org/${id}`, title: id, origin: 'tab', text, headingPath: [], start: 0, end: text.length });

/** Eight passages as the library ranked them for "Danube bridge length" (best first). */
const found = [
  P('a', 'The Danube bridge at Novi Sad is 1,200 metres long and carries rail traffic.'),
  P('b', 'Bridges over the Danube were rebuilt after the floods; their length grew.'),
  P('c', 'A bridge of 800 metres crosses the Danube near Vienna.'),
  P('d', 'Danube ferries ran before any bridge was long enough for trains.'),
  P('e', 'The bridge was opened in 1961 by the mayor; it was painted green in 1987.'),
  P('f', 'Tolls on the Danube crossings paid for the length of the new road.'),
  P('g', 'Steel for the bridge came from Linz; the opening ceremony drew a crowd.'),
  P('h', 'Fishing on the river below the bridge is allowed in summer.'),
];
const ids = (ps: Passage[]) => ps.map((p) => p.id);

describe('refine', () => {
  it('a step that says nothing beyond its query is given the library’s top k, in its order', () => {
    expect(ids(refine(found, { query: 'Danube bridge length', draft: 'The Danube bridge has a length.', top: found }, 4))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a passage holding what the step adds comes in, but never ahead of the library’s top half', () => {
    const draft = 'The bridge over the Danube was opened in 1961 and painted green.';
    expect(ids(refine(found, { query: 'Danube bridge length', draft, top: found }, 4))).toEqual(['a', 'b', 'e', 'c']);
    // Even with room for one passage only, the library's best stays.
    expect(ids(refine(found, { query: 'Danube bridge length', draft, top: found }, 1))).toEqual(['a']);
  });

  it('a draft about something else changes nothing (a passage needs most of its words)', () => {
    const draft = 'Steel prices rose in Linz while the crowd watched fishing boats in summer.';
    expect(ids(refine(found, { query: 'Danube bridge length', draft, top: found }, 4))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('in a later round the new query’s best come first, then earlier rounds’ passages', () => {
    const earlier = found.slice(0, 4);
    const round2 = [P('x', 'The Novi Sad bridge was designed by an engineer from Belgrade.'), P('y', 'Belgrade engineers also built the Pancevo bridge.'), P('z', 'Engineering schools in Belgrade opened in 1950.')];
    const given = refine([...earlier, ...round2], { query: 'who designed the Novi Sad bridge', draft: 'The Danube bridge at Novi Sad was designed by an engineer.', top: round2 }, 4);
    expect(ids(given)).toEqual(['x', 'y', 'z', 'a']);
  });

  it('never gives a passage twice, by id or near-identical text', () => {
    const copy = { ...found[0]!, id: 'a-web', url: 'https://mirror.example/a' };
    const given = refine([found[0]!, copy, found[0]!, ...found.slice(1)], { query: 'Danube bridge length', draft: '', top: [found[0]!, copy, ...found.slice(1)] }, 3);
    expect(ids(given)).toEqual(['a', 'b', 'c']);
  });
});
