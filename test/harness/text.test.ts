import { describe, expect, it } from 'vitest';
import { cosine, estimateTokens, hashEmbedding, lexicalSearch, snippet, streamPieces } from './text.ts';

describe('harness text helpers', () => {
  it('stream pieces rebuild the text exactly, one word or one CJK character each', () => {
    for (const t of ['Hello  world, again.\n\nNext', '巴黎是法国的首都。', ' lead and trail ', 'mixed 中文 words', '']) {
      expect(streamPieces(t).join('')).toBe(t);
    }
    expect(streamPieces('巴黎 is big')).toEqual(['巴', '黎', ' is', ' big']);
    // JSON without spaces streams in token-sized pieces, not as one piece up to the first space.
    const json = '{"label":"clear","question":"","confidence":0.2,"search":["x y"]}';
    expect(streamPieces(json)[0]).toBe('{"label":"clear"');
    expect(Math.max(...streamPieces(json).map((p) => p.length))).toBeLessThanOrEqual(16);
  });

  it('estimates tokens as ceil(chars / 4)', () => {
    expect([estimateTokens(''), estimateTokens('abc'), estimateTokens('abcde')]).toEqual([0, 1, 2]);
  });

  it('embeddings are unit length and deterministic', () => {
    const v = hashEmbedding('The Eiffel Tower is in Paris');
    expect(Math.sqrt(cosine(v, v))).toBeCloseTo(1, 6);
    expect(hashEmbedding('The Eiffel Tower is in Paris')).toEqual(v);
    expect(hashEmbedding('')).toEqual(new Array(256).fill(0));
  });

  it('lexical search ignores stop words and highlights hits', () => {
    const docs = [
      { title: 'A', text: 'the cat sat' },
      { title: 'B', text: 'a dog ran' },
    ];
    expect(lexicalSearch(docs, 'the dog').map((h) => h.doc.title)).toEqual(['B']);
    expect(snippet('The dog <ran>', 'dog', '<b>', '</b>')).toBe('The <b>dog</b> &lt;ran&gt;');
  });
});
