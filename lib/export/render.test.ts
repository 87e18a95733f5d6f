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

  it('plain text starts with the question, has no Markdown syntax and lists the sources', () => {
    expect(toPlainText(run)).toBe(
      [
        'Q: When did Marie Curie move to Paris?',
        '',
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

  it('verify runs export the report: each claim verdict with its correction, and the corrected text', () => {
    const v: Run = {
      ...newRun('r2', 'verify', { text: 'Curie moved to Paris in 1895.', page: { url: 'https://news.example/curie?utm=x', title: 'A profile' } }, Date.UTC(2026, 10, 24, 14, 3)),
      // The corrected passage as the pipeline stores it: no source markers; a page footnote.
      corrected: 'Curie moved to Paris in 1891.[12]',
      answer: 'Curie moved to Paris in 1891.\\[12\\] [1]',
      claims: [{ claim: 'Marie Curie moved to Paris in 1895.', sentence: 'Curie moved to Paris in 1895.', verdict: 'corrected', corrected: 'Marie Curie moved to Paris in 1891.', sources: [1] }],
      sources: [run.sources[0]!],
    };
    const md = toMarkdown(v);
    expect(md.startsWith('**Checked:** Curie moved to Paris in 1895.\n\nFrom: A profile · `https://news.example/curie`  \nChecked: 2026-11-24 14:03 UTC with Ratify\n\n**1 claim: 1 corrected**\n\n')).toBe(true);
    // The page's footnote "[12]" is not one of the listed sources: not in the export.
    expect(md).toContain('**Corrected text**\n\nCurie moved to Paris in 1891.\n\n');
    expect(md).not.toContain('[12]');
    expect(md).toContain('1. ✎ Corrected: Marie Curie moved to Paris in 1895. → **Marie Curie moved to Paris in 1891.** [1]');
    const text = toPlainText(v);
    expect(text).toContain('1. [Corrected] Marie Curie moved to Paris in 1895. [1]\n   → Marie Curie moved to Paris in 1891.\n');
    expect(text).toContain('Corrected text:\nCurie moved to Paris in 1891.\n');
    expect(text).toContain('[1] Marie Curie — http://127.0.0.1:8080/articles/marie-curie.html\n    “In 1891 she moved to Paris.”');
  });
});

describe('bracketed numbers that are not sources', () => {
  it('a stray "[7]" the model wrote (escaped in the answer) is left out of both exports', () => {
    const r: Run = { ...run, answer: 'Marie Curie moved to Paris in 1891 [1] \\[7\\], see \\[3, 4\\].', answerFinal: true };
    expect(toMarkdown(r)).toContain('\n\nMarie Curie moved to Paris in 1891 [1], see.\n\n');
    expect(toPlainText(r)).toContain('\n\nMarie Curie moved to Paris in 1891 [1], see.\n');
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

/** What a mail or chat app makes a link of in pasted text: scheme addresses, www., e-mail
 * addresses and bare host names with a path or a common top-level domain. */
const AUTOLINK = /\b(?:https?|ftp):\/\/[^\s<>"]+|\bwww\.[^\s<>"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|example|test|de|uk)\b(?:\/[^\s<>"]*)?/gi;

describe('plain text keeps links only to the sources', () => {
  const hostile = [
    'Marie Curie moved to Paris in 1891 [1].',
    'More at http://attacker.example/c?d=739-114 today, or [the report](https://attacker.example/r?d=1).',
    'Also www.attacker.example/c?d=2 and leak739114@attacker.example, or attacker.example/c?d=3.',
  ].join('\n\n');
  const r: Run = { ...run, answer: hostile, answerFinal: true };

  it('addresses the model wrote stay readable but are not ones a receiver turns into links', () => {
    const out = toPlainText(r);
    const body = out.slice(0, out.indexOf('\nSources:'));
    expect(body.match(AUTOLINK) ?? []).toEqual([]);
    expect(body).toContain('attacker[.]example/c?d=739-114');
    expect(body).toContain('leak739114@attacker[.]example');
    // The source list is untouched: its addresses are the run's validated sources.
    expect(out.slice(out.indexOf('\nSources:')).match(AUTOLINK)).toEqual(run.sources.map((s) => s.url));
  });

  it('a fact-check report keeps followable only its sources and the page it checked', () => {
    const page = { url: 'https://news.example/story', title: 'Story', tabId: 3 };
    const check: Run = {
      ...run,
      mode: 'verify',
      input: { text: 'The tower is 300 metres tall.', page },
      answer: 'The tower is 330 metres tall, see http://attacker.example/c?d=739-114 [1].',
      answerFinal: true,
      claims: [{ claim: 'The tower is 300 metres tall.', sentence: 'The tower is 300 metres tall.', verdict: 'corrected', corrected: 'The tower is 330 metres tall (leak739114@attacker.example).', explanation: 'Per www.attacker.example/x the height is 330 m.', sources: [1] }],
    };
    const out = toPlainText(check);
    expect(out).toContain('leak739114@attacker[.]example');
    expect(out).toContain('www[.]attacker[.]example/x');
    expect((out.match(AUTOLINK) ?? []).filter((u) => !run.sources.some((s) => s.url === u) && !u.startsWith('https://news.example/story'))).toEqual([]);
  });

  it('a source the model linked in the text stays a plain address', () => {
    const out = toPlainText({ ...r, answer: `See [Marie Curie](${run.sources[0]!.url}) [1].` });
    expect(out).toMatch(/^See Marie Curie \(http:\/\/127\.0\.0\.1:8080\/articles\/marie-curie\.html\) \[1\]\./m);
  });
});

describe('text around removed HTML and images stays apart', () => {
  it.each([
    ['an image between words', 'It loads tracker.js![pixel](http://tracker.test/p.png)on every page.', /tracker\.js pixel on every/],
    ['a raw line break', 'Paris<br>London', /Paris London/],
    ['a raw image', 'before<img src="http://tracker.test/x.png">after', /before after/],
  ])('%s', (_name, answer, expected) => {
    const r: Run = { ...run, answer, answerFinal: true, sources: [] };
    expect(toPlainText(r)).toMatch(expected);
    expect(toMarkdown(r)).toMatch(expected);
  });

  it('inline formatting tags leave the word whole', () => {
    const r: Run = { ...run, answer: 'Water is H<sub>2</sub>O.', answerFinal: true, sources: [] };
    expect(toPlainText(r)).toMatch(/^Water is H2O\./m);
  });
});
