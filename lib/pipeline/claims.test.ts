import { describe, expect, it } from 'vitest';
import { sentenceSpans } from '../retrieval/passages';
import { placeClaim } from './claims';

const text = 'The tower opened to the public in May 1889. It was completed in 1899 and is 300 metres tall. Dr. Smith wrote about it.';
const spans = sentenceSpans(text);

describe('placing a claim on the page', () => {
  it('finds the copied sentence, widened to the whole sentence', () => {
    expect(placeClaim(text, spans, 'The Eiffel Tower was completed in 1899.', 'It was completed in 1899')).toEqual({ sentence: 'It was completed in 1899 and is 300 metres tall.', at: 44 });
  });

  it('without a usable copy, takes the sentence with most of the claim\'s words and all its numbers', () => {
    expect(placeClaim(text, spans, 'The Eiffel Tower was completed in 1899 and is 300 metres tall.', 'The Eiffel Tower, completed in 1899.')?.sentence).toBe('It was completed in 1899 and is 300 metres tall.');
    // Same words, other numbers: not this page's claim.
    expect(placeClaim(text, spans, 'The Eiffel Tower was completed in 1887 and is 300 metres tall.', '')).toBeUndefined();
  });

  it('a claim the page does not make is not placed', () => {
    expect(placeClaim(text, spans, 'The account code is 7731.', 'The account code is 7731.')).toBeUndefined();
  });
});
