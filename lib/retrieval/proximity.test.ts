/** Proximity orders the passages of a page (issue 25, item 5): the one holding the query's words in
 * one sentence comes first; which pages lead is left to the page-level evidence. */
import { describe, expect, it } from 'vitest';
import type { ReadablePage } from './page';
import { chunkPage } from './passages';
import { analyzeDoc, PassageIndex } from './rank';
import { ProximityScan } from './proximity';
import { lookupTerm, termId } from './term-dict';
import { tokenize } from './tokenize';

const filler = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i} tells how ${topic} changed in the valley over many ordinary seasons, with markets, fairs and quiet winters.`).join(' ');

/** A page of two sections: the answer sentence in the second; the query's words more often but
 * apart in the first, so BM25 prefers the first. (Adjacent query-word pairs, scored separately,
 * are off here: this is proximity alone.) */
const trade = `The FBI shut its old field office, and the FBI moved. ${filler('trading', 1)} Prices went down, then down again. Silk Road sellers moved, Silk Road buyers followed. ${filler('policing', 1)} The black market boomed; the FBI watched the black market grow.`;
const closure = `${filler('testing', 4)} In October 2013 the FBI shut down the Silk Road black market.`;
const silk: ReadablePage = {
  url: 'https://news.example/silk',
  hash: 'h1',
  title: 'Inside the deep web drug lab',
  headings: [{ level: 2, text: 'Trade', offset: 0 }, { level: 2, text: 'Closure', offset: trade.length + 1 }],
  text: `${trade}\n${closure}`,
};
const other: ReadablePage = { url: 'https://other.example/market', hash: 'h2', title: 'Farmers market', headings: [], text: `The black market for seeds grew when prices went down. ${filler('farming', 2)}` };

function index(w: { proximity?: number }) {
  const idx = new PassageIndex({ ...w, pair: 0 });
  for (const page of [silk, other]) idx.add(analyzeDoc(page.url, page.title, chunkPage(page, { targetChars: 700, origin: 'tab' })));
  return idx;
}

describe('proximity', () => {
  const query = 'When did the FBI shut down the Silk Road black market?';

  it('puts first the passage that holds the query’s words in one sentence; the page keeps its place', () => {
    const off = index({ proximity: 0 }).search(query, { k: 5 });
    const on = index({}).search(query, { k: 5 });
    const answer = (r: typeof on) => r.findIndex((x) => x.passage.text.includes('October 2013'));
    expect(off[0]?.passage.url).toBe(silk.url);
    expect(answer(off)).toBeGreaterThan(0);
    expect(answer(on)).toBe(0);
    // The same scores, handed out in another order within the page; the other page is untouched.
    expect(on.map((x) => x.score)).toEqual(off.map((x) => x.score));
    expect(on.filter((x) => x.passage.url === other.url)).toEqual(off.filter((x) => x.passage.url === other.url));
  });

  it('measures the best window’s share of the query’s weight', () => {
    for (const w of ['fbi', 'shut', 'black', 'market']) termId(w);
    const ids = (s: string) => tokenize(s).map(lookupTerm);
    const scan = new ProximityScan(new Map(ids('FBI shut black market').map((t) => [t, 1])), 5);
    expect(scan.share(ids('The FBI shut down that black market in October'))).toBe(1);
    expect(scan.share(ids('FBI one two three four five six seven black market'))).toBe(0.5);
    expect(scan.share(ids('nothing here at all'))).toBe(0);
  });
});
