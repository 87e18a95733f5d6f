import { describe, expect, it } from 'vitest';
import { acceptsPassage, buildCorrectedText, hunks, locate, REMOVED_NOTE, type ClaimForText } from './corrected-text';

const selection =
  'Marie Curie moved to Paris in 1891 to study at the Sorbonne. She won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911. The Eiffel Tower was completed in 1899 and is 300 metres tall.';

const eiffel: ClaimForText = {
  claim: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
  sentence: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
  verdict: 'corrected',
  corrected: 'The Eiffel Tower was completed in 1889 and is 330 metres tall.',
  sources: [2],
};
const curie: ClaimForText = { claim: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', sentence: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', verdict: 'supported', sources: [1] };

describe('corrected text, built from the claims', () => {
  it('the case of issue 22: the last claim is not itself corrected, and the model kept the error in its passage', () => {
    // The check of the last claim (supported) wrote a "corrected passage" that is the selection as
    // it was: taken as written, it said "completed in 1899 and is 300 metres tall" under a claim
    // list saying "Corrected → 1889 … 330 metres".
    const claims: ClaimForText[] = [eiffel, { ...curie, sentence: 'She won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.', claim: 'Marie Curie won the Nobel Prize in Physics in 1903.' }];
    expect(acceptsPassage(selection, selection, claims)).toBe(false);
    const built = buildCorrectedText(selection, claims);
    expect(built.text).toContain('completed in 1889 and is 330 metres tall');
    expect(built.text).not.toMatch(/1899|300 metres/);
    // The page's own wording elsewhere stays, and the fix carries its source.
    expect(built.text.startsWith('Marie Curie moved to Paris in 1891')).toBe(true);
    expect(built.markdown).toContain('completed in **1889** and is **330** metres tall. [2]');
  });

  it('fixes the changed words in place, in a sentence worded differently from its claim', () => {
    const text = 'Gustave Eiffel built it for the 1889 fair. It was completed in 1899 and is 300 metres tall, a record.';
    const c = { ...eiffel, sentence: 'It was completed in 1899 and is 300 metres tall, a record.' };
    const built = buildCorrectedText(text, [c]);
    expect(built.text).toBe('Gustave Eiffel built it for the 1889 fair. It was completed in 1889 and is 330 metres tall, a record.');
  });

  it('two claims of one sentence are both applied', () => {
    const text = 'The tower was completed in 1899 and is 300 metres tall.';
    const built = buildCorrectedText(text, [
      { claim: 'The Eiffel Tower was completed in 1899.', sentence: text, verdict: 'corrected', corrected: 'The Eiffel Tower was completed in 1889.', sources: [1] },
      { claim: 'The Eiffel Tower is 300 metres tall.', sentence: text, verdict: 'corrected', corrected: 'The Eiffel Tower is 330 metres tall.', sources: [2] },
    ]);
    expect(built.text).toBe('The tower was completed in 1889 and is 330 metres tall.');
    expect(built.markdown).toBe('The tower was completed in **1889** and is **330** metres tall. [1][2]');
  });

  it('a rewrite replaces the sentence; a refuted claim without a correction is taken out, and says so', () => {
    const text = 'Paris is the capital of Italy. The Louvre opened in 1793. Mount Fuji is in Kenya.';
    const built = buildCorrectedText(text, [
      { claim: 'Paris is the capital of Italy.', sentence: 'Paris is the capital of Italy.', verdict: 'refuted', corrected: 'Rome is the capital of Italy; Paris is the capital of France.', sources: [1] },
      { claim: 'The Louvre opened in 1793.', sentence: 'The Louvre opened in 1793.', verdict: 'supported', sources: [2] },
      { claim: 'Mount Fuji is in Kenya.', sentence: 'Mount Fuji is in Kenya.', verdict: 'refuted', corrected: 'Mount Fuji is in Kenya.', sources: [3] },
    ]);
    expect(built.text).toBe(`Rome is the capital of Italy; Paris is the capital of France. The Louvre opened in 1793. ${REMOVED_NOTE}`);
    expect(built.text).not.toContain('Kenya');
    expect(built.markdown).toContain('[3]');
  });

  it('a claim whose sentence is not in the text still shows its correction, after the text', () => {
    const built = buildCorrectedText('Nothing here matches.', [eiffel]);
    expect(built.unplaced).toEqual([0]);
    expect(built.text).toContain('The Eiffel Tower was completed in 1889 and is 330 metres tall.');
  });

  it('works without spaces between words (Chinese)', () => {
    const text = '屠呦呦因发现青蒿素获得2011年诺贝尔生理学或医学奖。她是第一位获得该奖的中国人。';
    const built = buildCorrectedText(text, [
      { claim: '屠呦呦因发现青蒿素获得2011年诺贝尔生理学或医学奖。', sentence: '屠呦呦因发现青蒿素获得2011年诺贝尔生理学或医学奖。', verdict: 'corrected', corrected: '屠呦呦因发现青蒿素获得2015年诺贝尔生理学或医学奖。', sources: [1] },
    ]);
    expect(built.text).toBe('屠呦呦因发现青蒿素获得2015年诺贝尔生理学或医学奖。她是第一位获得该奖的中国人。');
  });

  it('never replaces part of a longer number', () => {
    const text = 'It was built in 1300 and rebuilt 300 years later.';
    const built = buildCorrectedText(text, [{ claim: 'It was rebuilt 300 years later.', sentence: text, verdict: 'corrected', corrected: 'It was rebuilt 200 years later.', sources: [] }]);
    expect(built.text).toBe('It was built in 1300 and rebuilt 200 years later.');
  });

  it('page text is escaped as Markdown', () => {
    const built = buildCorrectedText('# Not a heading *nor* [a link](x). The Eiffel Tower was completed in 1899 and is 300 metres tall.', [eiffel]);
    expect(built.markdown.startsWith('\\# Not a heading \\*nor\\* \\[a link\\](x).')).toBe(true);
  });
});

describe('a passage the model wrote', () => {
  it('is accepted when it holds every correction and none of the replaced words', () => {
    const good = selection.replace('1899', '1889').replace('300 metres', '330 metres');
    expect(acceptsPassage(good, selection, [curie, eiffel])).toBe(true);
    expect(acceptsPassage(selection.replace('1899', '1889'), selection, [curie, eiffel])).toBe(false);
  });

  it('is refused when it keeps a refuted sentence', () => {
    const claims: ClaimForText[] = [{ claim: 'Mount Fuji is in Kenya.', sentence: 'Mount Fuji is in Kenya.', verdict: 'refuted', sources: [1] }];
    expect(acceptsPassage('Mount Fuji is in Kenya.', 'Mount Fuji is in Kenya.', claims)).toBe(false);
    expect(acceptsPassage('Mount Fuji is in Japan.', 'Mount Fuji is in Kenya.', claims)).toBe(true);
  });
});

describe('helpers', () => {
  it('hunks are the words a correction changed', () => {
    expect(hunks(eiffel.claim, eiffel.corrected!)).toEqual([
      { old: '1899', new: '1889', before: 'was completed in' },
      { old: '300', new: '330', before: 'and is' },
    ]);
  });

  it('locate ignores case, spacing and typographic quotes', () => {
    expect(locate('He said “Hello   World” twice.', '"hello world"')).toEqual([8, 23]);
  });
});
