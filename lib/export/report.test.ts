import { describe, expect, it } from 'vitest';
import { newRun } from '../pipeline/run-state';
import type { Run } from '../core/run';
import { reportMarkdown, reportPlainText, verdictSummary } from './report';

const page: Run = {
  ...newRun('p1', 'page', { text: 'The article.', page: { url: 'https://news.example/landmarks', title: 'Landmarks of Europe', tabId: 3 } }, Date.UTC(2026, 10, 24, 9, 30)),
  status: 'done',
  model: 'gpt-test',
  claims: [
    { claim: 'Marie Curie was born in Warsaw in 1867.', sentence: 'Marie Curie was born in Warsaw in 1867.', verdict: 'supported', sources: [1] },
    { claim: 'The Eiffel Tower was completed in 1899.', sentence: 'It was completed in 1899.', verdict: 'corrected', corrected: 'The Eiffel Tower was completed in 1889.', explanation: 'The source gives March 1889.', sources: [2] },
    { claim: 'Mount Fuji is in Kenya.', sentence: 'Mount Fuji is in Kenya.', verdict: 'refuted', corrected: 'Mount Fuji is in Japan.', sources: [2] },
    { claim: 'The tower has a secret fourth floor.', sentence: 'It has a secret fourth floor.', verdict: 'unverifiable', sources: [] },
  ],
  corrected: 'The whole corrected article.',
  answer: 'The whole corrected article.',
  answerFinal: true,
  sources: [
    { n: 1, passageId: 'a', url: 'https://en.wikipedia.org/wiki/Marie_Curie', title: 'Marie Curie', site: 'en.wikipedia.org', origin: 'web', quote: 'born 7 November 1867 in Warsaw' },
    { n: 2, passageId: 'b', url: 'http://127.0.0.1:8080/articles/eiffel-tower.html', title: 'Eiffel Tower', site: '127.0.0.1', origin: 'tab', quote: 'completed in March 1889' },
  ],
};

describe('a page check report', () => {
  it('Markdown: the page title and address, the date, the summary, every verdict, correction and source', () => {
    expect(reportMarkdown(page)).toBe(
      [
        '# Fact-check: Landmarks of Europe',
        '',
        'Page: `https://news.example/landmarks`  ',
        'Checked: 2026-11-24 09:30 UTC with Ratify (gpt-test)',
        '',
        '**4 claims: 1 supported · 1 corrected · 1 refuted · 1 unverifiable**',
        '',
        '1. ✓ Supported: Marie Curie was born in Warsaw in 1867. [1]',
        '2. ✎ Corrected: The Eiffel Tower was completed in 1899. → **The Eiffel Tower was completed in 1889.** [2]',
        '   The source gives March 1889.',
        '3. ✗ Refuted: Mount Fuji is in Kenya. → **Mount Fuji is in Japan.** [2]',
        '4. ? Unverifiable: The tower has a secret fourth floor.',
        '',
        '**Sources**',
        '',
        '1. [Marie Curie](https://en.wikipedia.org/wiki/Marie_Curie) — “born 7 November 1867 in Warsaw”',
        '2. [Eiffel Tower](http://127.0.0.1:8080/articles/eiffel-tower.html) — “completed in March 1889”',
        '',
      ].join('\n'),
    );
  });

  it('plain text carries the same, without Markdown', () => {
    const text = reportPlainText(page);
    expect(text).toBe(
      [
        'Fact-check: Landmarks of Europe',
        'Page: https://news.example/landmarks',
        'Checked: 2026-11-24 09:30 UTC with Ratify (gpt-test)',
        '',
        '4 claims: 1 supported · 1 corrected · 1 refuted · 1 unverifiable',
        '',
        '1. [Supported] Marie Curie was born in Warsaw in 1867. [1]',
        '2. [Corrected] The Eiffel Tower was completed in 1899. [2]',
        '   → The Eiffel Tower was completed in 1889.',
        '   The source gives March 1889.',
        '3. [Refuted] Mount Fuji is in Kenya. [2]',
        '   → Mount Fuji is in Japan.',
        '4. [Unverifiable] The tower has a secret fourth floor.',
        '',
        'Sources:',
        '[1] Marie Curie — https://en.wikipedia.org/wiki/Marie_Curie',
        '    “born 7 November 1867 in Warsaw”',
        '[2] Eiffel Tower — http://127.0.0.1:8080/articles/eiffel-tower.html',
        '    “completed in March 1889”',
        '',
      ].join('\n'),
    );
  });

  it('a link the model or page slipped into a claim is not a link in the export', () => {
    const evil = { ...page, claims: [{ ...page.claims![0]!, claim: 'See [the proof](https://attacker.example/?d=1).' }] };
    expect(reportMarkdown(evil)).not.toContain('](https://attacker.example');
  });

  it('the summary counts the verdicts', () => {
    expect(verdictSummary(page.claims!.slice(0, 1))).toBe('1 claim: 1 supported');
  });
});
