import { describe, expect, it } from 'vitest';
import { dedupe } from './dedupe';
import type { ReadablePage } from './page';
import { chunkPage } from './passages';
import { analyzeDoc, fuseByRank, PassageIndex } from './rank';
import { tokenize, tokenizeCased } from './tokenize';

function index(docs: { title: string; text: string; lang?: string }[]): PassageIndex {
  const idx = new PassageIndex();
  for (const d of docs) {
    const url = `https://w.example/${encodeURIComponent(d.title)}`;
    const page: ReadablePage = { url, hash: 'h', title: d.title, text: d.text, headings: [], lang: d.lang };
    idx.add(analyzeDoc(url, d.title, chunkPage(page, { targetChars: 600, origin: 'tab' })));
  }
  return idx;
}

const titles = (r: { passage: { title: string } }[]) => r.map((x) => x.passage.title);

describe('tokenizer', () => {
  it('folds case and accents, drops function words, stems plurals, and bigrams CJK', () => {
    expect(tokenize('The Cafés of Paris')).toEqual(['cafe', 'paris']);
    expect(tokenize('Two ponies and three boxes')).toEqual(['two', 'pony', 'three', 'box']);
    expect(tokenize('青蒿素')).toEqual(['青蒿', '蒿素']);
    expect(tokenize('屠呦呦 Nobel')).toEqual(['屠呦', '呦呦', 'nobel']);
  });
  it('marks words written with a capital (or as a number), for names in a question', () => {
    expect(tokenizeCased('Which film did Tim Burton make in 1994 in 東京?')).toEqual({
      tokens: ['film', 'tim', 'burton', 'make', '1994', '東京'],
      caps: [false, true, true, false, true, false],
    });
  });
});

describe('ranking', () => {
  const docs = [
    { title: 'Scott Derrickson', text: 'Scott Derrickson (born July 16, 1966) is an American director, screenwriter and producer.' },
    { title: 'Ed Wood', text: 'Edward Davis Wood Jr. was an American filmmaker, actor, writer, producer, and director.' },
    { title: 'Ed Wood (film)', text: 'Ed Wood is a 1994 American biographical period comedy-drama film directed and produced by Tim Burton.' },
    { title: 'Woodson, Arkansas', text: 'Woodson is a census-designated place in Pulaski County, Arkansas. It is named for Ed Wood Sr.' },
    { title: 'Tyler Bates', text: 'Tyler Bates is an American musician, music producer, and composer for films.' },
  ];

  it('puts the pages the query names first, the exact title before a shortened one', () => {
    const r = index(docs).search('Were Scott Derrickson and Ed Wood of the same nationality?', { k: 5 });
    expect(titles(r).slice(0, 2).sort()).toEqual(['Ed Wood', 'Scott Derrickson']);
    expect(titles(r).indexOf('Ed Wood')).toBeLessThan(titles(r).indexOf('Ed Wood (film)'));
  });

  it('matches Chinese queries without a word segmenter', () => {
    const idx = index([
      { title: '屠呦呦', text: '屠呦呦是中国药学家。她发现了青蒿素，用于治疗疟疾。', lang: 'zh' },
      { title: '埃菲尔铁塔', text: '埃菲尔铁塔是位于法国巴黎的铁塔。', lang: 'zh' },
    ]);
    expect(titles(idx.search('谁发现了青蒿素？', { k: 2 }))[0]).toBe('屠呦呦');
    expect(titles(idx.search('巴黎铁塔', { k: 2 }))[0]).toBe('埃菲尔铁塔');
  });

  it('in a second round, lifts the page a first-round passage names (bridge entity)', () => {
    const idx = index([
      { title: 'Kiss and Tell (1945 film)', text: 'Kiss and Tell is a 1945 American comedy film starring then 17-year-old Shirley Temple as Corliss Archer.' },
      { title: 'Shirley Temple', text: 'Shirley Temple Black was an American actress, singer, dancer and diplomat who served as Chief of Protocol of the United States.' },
      { title: 'A Kiss for Corliss', text: 'A Kiss for Corliss is a 1949 American comedy film, a sequel to Kiss and Tell, about Corliss Archer.' },
      { title: 'Lord High Treasurer', text: 'The Lord High Treasurer was a government position in England.' },
      // Unrelated pages, as in any set of open tabs: they give the words realistic rarity.
      ...['Volcano', 'Cricket', 'Opera', 'Glacier', 'Bridge', 'Railway'].map((t) => ({ title: t, text: `${t} is a topic with its own history, its own people and its own places.` })),
    ]);
    const q = 'What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?';
    const r1 = idx.search(q, { k: 4 });
    expect(r1[0]!.passage.title).toBe('Kiss and Tell (1945 film)');
    const r2 = idx.search(q, { k: 4, seed: [r1[0]!.passage] });
    // The query never names her; the first round's best passage does.
    expect(titles(r1).slice(0, 2)).not.toContain('Shirley Temple');
    expect(titles(r2).slice(0, 2)).toContain('Shirley Temple');
    expect(r2.map((x) => x.passage.id)).not.toContain(r1[0]!.passage.id);
  });

  it('within one round, brings in the page the best passage names, never above that passage', () => {
    const docs = [
      { title: 'Kiss and Tell (1945 film)', text: 'Kiss and Tell is a 1945 American comedy film starring then 17-year-old Shirley Temple as Corliss Archer.' },
      { title: 'Shirley Temple', text: 'Shirley Temple Black was an actress, singer, dancer and diplomat who served as Chief of Protocol of the United States.' },
      { title: 'Lord High Treasurer', text: 'The Lord High Treasurer was a government position in England.' },
      ...['Volcano', 'Cricket', 'Opera', 'Glacier'].map((t) => ({ title: t, text: `${t} is a topic with its own history, its own people and its own places.` })),
    ];
    const q = 'What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?';
    const without = new PassageIndex({ link: 0 });
    const withLink = new PassageIndex();
    for (const d of docs) {
      const url = `https://w.example/${encodeURIComponent(d.title)}`;
      const page: ReadablePage = { url, hash: 'h', title: d.title, text: d.text, headings: [] };
      const a = analyzeDoc(url, d.title, chunkPage(page, { targetChars: 600, origin: 'tab' }));
      without.add(a);
      withLink.add(a);
    }
    expect(titles(without.search(q, { k: 4 })).slice(0, 2)).not.toContain('Shirley Temple');
    expect(titles(withLink.search(q, { k: 4 })).slice(0, 2)).toEqual(['Kiss and Tell (1945 film)', 'Shirley Temple']);
  });

  it('fills the first two places with two named things, not two pages about the first', () => {
    const idx = index([
      { title: 'Scott Derrickson', text: 'Scott Derrickson (born July 16, 1966) is a director, screenwriter and producer. He grew up in Denver, studied humanities and literature, and later made horror films, thrillers and a superhero film for a large studio.' },
      { title: 'Ed Wood', text: 'Edward Davis Wood Jr. was a filmmaker of American nationality, known as Ed Wood.' },
      { title: 'Ed Wood (film)', text: 'Ed Wood is a 1994 biographical film about Ed Wood, the cult filmmaker of American nationality.' },
      ...['Volcano', 'Cricket', 'Opera', 'Glacier'].map((t) => ({ title: t, text: `${t} is a topic with its own history, its own people and its own places.` })),
    ]);
    const q = 'Were Scott Derrickson and Ed Wood of the same nationality?';
    expect(titles(idx.search(q, { k: 3 }))).toEqual(['Ed Wood', 'Scott Derrickson', 'Ed Wood (film)']);
  });

  it('trusts a title the query writes with capitals even when its words are everywhere', () => {
    const idx = index([
      { title: 'Night Ferry (composition)', text: 'Night Ferry is an orchestral composition by Anna Clyne. It was first performed at Symphony Center, Chicago, in 2012.' },
      { title: 'Symphony Center', text: 'Symphony Center is a music complex on Michigan Avenue in Chicago, home of the Chicago Symphony Orchestra.' },
      { title: 'The Seamstress (Clyne)', text: 'The Seamstress is a concerto by the composer Anna Clyne, commissioned for the Chicago Symphony Orchestra and first performed at Symphony Center.' },
      { title: 'Spangled Unicorn', text: 'Spangled Unicorn is a composition by the composer Anna Clyne, first performed at Symphony Center by the Chicago Symphony Orchestra.' },
      { title: 'Proceed, Moon', text: 'Proceed, Moon is an orchestral composition first performed in 2012 at Symphony Center by the Chicago Symphony Orchestra.' },
    ]);
    const q = 'Which composer created Night Ferry first performed in 2012 at Symphony Center in Chicago?';
    expect(titles(idx.search(q, { k: 5 })).slice(0, 2)).toEqual(['Night Ferry (composition)', 'Symphony Center']);
    // Written in lower case, "symphony center" is just two words every page has.
    expect(titles(idx.search(q.toLowerCase(), { k: 5 })).slice(0, 2)).not.toContain('Symphony Center');
  });

  it('replaces a page when it is added again and forgets removed pages', () => {
    const idx = index(docs);
    const url = 'https://w.example/Tyler%20Bates';
    const page: ReadablePage = { url, hash: 'h2', title: 'Tyler Bates', text: 'Tyler Bates scored Guardians of the Galaxy.', headings: [] };
    idx.add(analyzeDoc(url, 'Tyler Bates', chunkPage(page, { targetChars: 600, origin: 'tab' })));
    expect(idx.size).toBe(5);
    expect(idx.search('Guardians of the Galaxy', { k: 1 })[0]!.passage.text).toContain('Guardians');
    idx.remove(url);
    expect(idx.size).toBe(4);
    expect(idx.search('Guardians Galaxy', { k: 1 })).toEqual([]);
  });

  it('fuses rankings by reciprocal rank', () => {
    expect(fuseByRank([['a', 'b', 'c'], ['b', 'c', 'a']], (x) => x)[0]).toBe('b');
    expect(fuseByRank([['a', 'b'], ['a', 'c']], (x) => x)).toEqual(['a', 'b', 'c']);
  });
});

describe('near-duplicate removal', () => {
  const para = 'The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. It is named after the engineer Gustave Eiffel.';
  it('keeps the first of near-identical passages, across sources', () => {
    const items = [para, para.replace('wrought-iron', 'wrought iron'), `${para} It opened in 1889.`, 'The Louvre is the most visited museum in the world.'];
    expect(dedupe(items, (x) => x, 10)).toEqual([para, 'The Louvre is the most visited museum in the world.']);
  });
  it('keeps different passages and stops at k', () => {
    const items = ['Alpha beta gamma delta.', 'Epsilon zeta eta theta.', 'Iota kappa lambda mu.'];
    expect(dedupe(items, (x) => x, 2)).toEqual(items.slice(0, 2));
  });
});
