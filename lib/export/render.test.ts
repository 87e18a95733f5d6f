import { describe, expect, it } from 'vitest';
import { newRun } from '../pipeline/run-state';
import type { Run } from '../core/run';
import { stripMarkdown, threadToMarkdown, threadToPlainText, toMarkdown, toPlainText } from './render';

const run: Run = {
  ...newRun('r1', 'ask', { text: 'When did Marie Curie move to Paris?' }),
  status: 'done',
  answer: 'Marie Curie moved to **Paris** in 1891 [1], and won her first Nobel Prize in 1903 [2].',
  sources: [
    { n: 1, passageId: 'a', url: 'http://127.0.0.1:8080/articles/marie-curie.html', title: 'Marie Curie', site: '127.0.0.1', origin: 'tab', quote: 'In 1891 she moved to Paris.' },
    { n: 2, passageId: 'b', url: 'https://en.wikipedia.org/wiki/Nobel_Prize_in_Physics', title: 'Nobel Prize [in] Physics', site: 'en.wikipedia.org', origin: 'web', quote: 'The 1903 prize went to\n Becquerel and the Curies.' },
  ],
};

describe('export', () => {
  it('Markdown keeps the citations and lists numbered sources with URLs and quotes', () => {
    expect(toMarkdown(run)).toBe(
      [
        '**Q:** When did Marie Curie move to Paris?',
        '',
        'Marie Curie moved to **Paris** in 1891 [1], and won her first Nobel Prize in 1903 [2].',
        '',
        '**Sources**',
        '',
        '1. [Marie Curie](http://127.0.0.1:8080/articles/marie-curie.html) — “In 1891 she moved to Paris.”',
        '2. [Nobel Prize in Physics](https://en.wikipedia.org/wiki/Nobel_Prize_in_Physics) — “The 1903 prize went to Becquerel and the Curies.”',
        '',
      ].join('\n'),
    );
  });

  it('Markdown lists every quote a source gave, after its first', () => {
    const two = { ...run, sources: [{ ...run.sources[0]!, more: [{ quote: 'She was born in\nWarsaw.', start: 0, end: 10 }] }] };
    expect(toMarkdown(two)).toContain('1. [Marie Curie](http://127.0.0.1:8080/articles/marie-curie.html) — “In 1891 she moved to Paris.” · “She was born in Warsaw.”');
  });

  it('plain text has no Markdown syntax and lists the sources', () => {
    expect(toPlainText(run)).toBe(
      [
        'Marie Curie moved to Paris in 1891 [1], and won her first Nobel Prize in 1903 [2].',
        '',
        'Sources:',
        '[1] Marie Curie — http://127.0.0.1:8080/articles/marie-curie.html',
        '[2] Nobel Prize [in] Physics — https://en.wikipedia.org/wiki/Nobel_Prize_in_Physics',
        '',
      ].join('\n'),
    );
    expect(stripMarkdown('# Title\n- *one* and __two__\n> quote `code`')).toBe('Title\n• one and two\nquote code');
  });

  it('verify runs export the corrected text and each claim verdict', () => {
    const v: Run = {
      ...newRun('r2', 'verify', { text: 'Curie moved to Paris in 1895.' }),
      // The corrected passage as the pipeline stores it: no source markers; a page footnote.
      corrected: 'Curie moved to Paris in 1891.[12]',
      answer: 'Curie moved to Paris in 1891.\\[12\\] [1]',
      claims: [{ claim: 'Marie Curie moved to Paris in 1895.', sentence: 'Curie moved to Paris in 1895.', verdict: 'corrected', corrected: 'Marie Curie moved to Paris in 1891.', sources: [1] }],
      sources: [run.sources[0]!],
    };
    const md = toMarkdown(v);
    expect(md).toContain('**Checked:** Curie moved to Paris in 1895.');
    // The page's footnote "[12]" is not one of the listed sources: not in the export.
    expect(md).toContain('\n\nCurie moved to Paris in 1891.\n\n');
    expect(md).not.toContain('[12]');
    expect(toPlainText(v)).toMatch(/^Curie moved to Paris in 1891\.\n/);
    expect(md).toContain('- Corrected: Marie Curie moved to Paris in 1895. → Marie Curie moved to Paris in 1891. [1]');
  });
});

describe('bracketed numbers that are not sources', () => {
  it('a stray "[7]" the model wrote (escaped in the answer) is left out of both exports', () => {
    const r: Run = { ...run, answer: 'Marie Curie moved to Paris in 1891 [1] \\[7\\], see \\[3, 4\\].', answerFinal: true };
    expect(toMarkdown(r)).toContain('\n\nMarie Curie moved to Paris in 1891 [1], see.\n\n');
    expect(toPlainText(r)).toMatch(/^Marie Curie moved to Paris in 1891 \[1\], see\.\n/);
  });
});

describe('thread export', () => {
  it('copies every finished question of a thread with its answer and sources, in order', () => {
    const a = { ...newRun('a', 'ask', { text: 'Who was Marie Curie?' }, 1), status: 'done' as const, answer: 'A physicist.', answerFinal: true };
    const b = { ...newRun('b', 'ask', { text: 'Where was she born?' }, 2), status: 'done' as const, answer: 'In Warsaw [1].', answerFinal: true, sources: [{ n: 1, passageId: 'p', url: 'https://example.org/w', title: 'Warsaw', site: 'example.org', origin: 'web' as const, quote: 'born in Warsaw' }] };
    const unfinished = { ...newRun('c', 'ask', { text: 'And then?' }, 3), status: 'error' as const, answer: 'Half', answerFinal: false };
    expect(threadToMarkdown([a, b, unfinished])).toBe('**Q:** Who was Marie Curie?\n\nA physicist.\n\n---\n\n**Q:** Where was she born?\n\nIn Warsaw [1].\n\n**Sources**\n\n1. [Warsaw](https://example.org/w) — “born in Warsaw”\n');
    expect(threadToPlainText([a, b])).toContain('Q: Where was she born?\n\nIn Warsaw [1].\n\nSources:\n[1] Warsaw — https://example.org/w');
  });
});
