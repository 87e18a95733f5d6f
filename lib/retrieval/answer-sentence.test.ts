import { describe, expect, it } from 'vitest';
import { answerSentence } from './answer-sentence';
import { chunkPage } from './passages';

describe('the answering sentence of a passage', () => {
  it('is the sentence sharing the rarest words with the step, with its offsets in the page', () => {
    const text = 'Intro line.\nThe Louvre is a museum in Paris. It is one of the largest museums in the world. The glass pyramid was designed by Ieoh Ming Pei and opened in 1989. It serves as the main entrance.';
    const [p] = chunkPage({ url: 'https://x.example/', hash: 'h', title: 'Louvre', text, headings: [] }, { targetChars: 1500, origin: 'tab' });
    const s = answerSentence(p!, 'When did the glass pyramid open?');
    expect(s?.text).toBe('The glass pyramid was designed by Ieoh Ming Pei and opened in 1989.');
    expect(text.slice(s!.start, s!.end)).toBe(s!.text);
    expect(answerSentence(p!, 'zebra')).toBeUndefined();
  });
});
