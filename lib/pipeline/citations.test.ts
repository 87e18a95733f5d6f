import { describe, expect, it } from 'vitest';
import type { Passage } from '../core/passage';
import { aliasPassages, findQuote, renumberMarkers, SourceList, stripMarkers, validateCitations } from './citations';

const P = (id: string, text: string, url = `https://example.org/${id}`): Passage => ({ id, url, title: id.toUpperCase(), origin: 'web', text, headingPath: [], start: 100, end: 100 + text.length });
const a = P('a', 'Marie Curie was born on 7 November 1867 in Warsaw, then part of the Russian Empire.');
const b = P('b', 'She won the “Nobel Prize” in Chemistry in 1911 — alone.', 'https://www.nobelprize.org/b');
const given = aliasPassages([a, b]);

describe('validateCitations', () => {
  it('keeps ids given in this call with quotes found in the passage', () => {
    const r = validateCitations([{ id: 'P1', quote: 'born on 7 November 1867' }, { id: 'p2', quote: '' }], given);
    expect(r.valid.map((v) => [v.passage.id, v.quote])).toEqual([['a', 'born on 7 November 1867'], ['b', '']]);
    expect(r.dropped).toEqual([]);
  });
  it('drops made-up ids and made-up quotes', () => {
    const r = validateCitations([{ id: 'P7', quote: '' }, { id: 'P1', quote: 'born in Paris in 1867' }, { id: 'doc-42', quote: '' }], given);
    expect(r.valid).toEqual([]);
    expect(r.dropped).toEqual([
      { passageId: 'P7', reason: 'unknown-id' },
      { passageId: 'P1', reason: 'quote-not-found' },
      { passageId: 'doc-42', reason: 'unknown-id' },
    ]);
  });
  it('accepts the real passage id too, and counts a passage once', () => {
    const r = validateCitations([{ id: 'a', quote: '' }, { id: 'P1', quote: 'Warsaw' }], given);
    expect(r.valid).toHaveLength(1);
  });
});

describe('findQuote', () => {
  it('matches across case, whitespace, curly quotes, dashes and ellipses', () => {
    expect(findQuote('born on 7 November 1867', a.text)).toBe('born on 7 November 1867');
    expect(findQuote('MARIE   curie was born', a.text)).toBe('');
    expect(findQuote('won the "Nobel Prize" in Chemistry in 1911 - alone', b.text)).toBe('');
    expect(findQuote('Marie Curie … in Warsaw', a.text)).toBe('');
    expect(findQuote('in Warsaw … Marie Curie', a.text)).toBeUndefined();
    expect(findQuote('born in Kraków', a.text)).toBeUndefined();
  });
});

describe('renumberMarkers and SourceList', () => {
  it('numbers sources in order of first use and drops unknown markers', () => {
    const list = new SourceList();
    const dropped: string[] = [];
    const md = renumberMarkers('Born 1867 [P2]. Nobel 1911 [P1, P2]. Fake [P9].', given, (p) => list.number(p), (x) => dropped.push(x));
    expect(md).toBe('Born 1867 [1]. Nobel 1911 [2][1]. Fake .');
    expect(dropped).toEqual(['P9']);
    expect(list.list.map((s) => [s.n, s.passageId, s.site])).toEqual([[1, 'b', 'nobelprize.org'], [2, 'a', 'example.org']]);
  });
  it('gives each source its quote and the quote offsets in the source text', () => {
    const list = new SourceList();
    list.number(a, 'born on 7 November 1867');
    const s = list.list[0];
    expect(s).toMatchObject({ quote: 'born on 7 November 1867', start: 100 + a.text.indexOf('born'), end: 100 + a.text.indexOf('born') + 23, title: 'A', origin: 'web' });
    list.number(b);
    expect(list.list[1]!.quote).toBe(b.text);
  });
  it('keeps the quote of every step that cites one passage, once each, and only quotes the passage holds', () => {
    const list = new SourceList();
    const first = list.number(a, 'born on 7 November 1867');
    expect(list.number(a, 'born on 7 November 1867')).toBe(first);
    expect(list.number(a, 'not in this passage at all')).toBe(first);
    const other = a.text.slice(0, 12);
    list.number(a, other);
    list.number(a, other);
    expect(list.list).toHaveLength(1);
    expect(list.list[0]!.more).toEqual([{ quote: other, start: 100, end: 112 }]);
  });
  it('strips markers from text shown without sources', () => {
    expect(stripMarkers('She won in 1911 [P2]. Alone [P1, P3].')).toBe('She won in 1911. Alone.');
  });
});

describe('bare numbers in model text', () => {
  it('are escaped so that only validated markers render as citations', async () => {
    const { escapeBareNumbers } = await import('./citations');
    expect(escapeBareNumbers('Paris[1] is big [2, 3]. See [P1].')).toBe('Paris\\[1\\] is big \\[2, 3\\]. See [P1].');
    expect(escapeBareNumbers('already \\[4\\]')).toBe('already \\[4\\]');
  });
});
