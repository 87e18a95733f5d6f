import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { createPageMarks, sanitizeMarks, MARK_ATTR } from './page-marks';

const MARK = `[${MARK_ATTR}]`;
import type { PageMark } from './types';

// linkedom has no shadow DOM or layout: these tests cover what marks do to the page's DOM; the
// tooltip and styles are covered end to end in Chromium (test/e2e/marks.spec.ts).
function page(html: string) {
  const { document, Text } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
  // linkedom lacks Text.splitText; this follows the DOM spec (browsers have it natively).
  if (!('splitText' in Text.prototype)) {
    Object.defineProperty(Text.prototype, 'splitText', {
      value(this: Text, offset: number): Text {
        const rest = this.ownerDocument.createTextNode(this.data.slice(offset));
        this.data = this.data.slice(0, offset);
        this.parentNode?.insertBefore(rest, this.nextSibling);
        return rest;
      },
    });
  }
  return document;
}

const mark = (sentence: string, verdict: PageMark['verdict'] = 'supported'): PageMark => ({ sentence, verdict });

const HTML = '<p id="p">Intro text. Marie Curie moved to <a href="/paris">Paris</a> in 1891. She won it in 1903. End.</p><p id="q">The tower is 300 metres tall.</p>';

describe('marks in the page DOM', () => {
  it('wraps only the matched text, piece by piece across inline elements', () => {
    const doc = page(HTML);
    const res = createPageMarks(doc).show([mark('Marie Curie moved to Paris in 1891.'), mark('The tower is 300 metres tall.', 'refuted'), mark('Not here.')]);
    expect(res).toEqual({ shown: 2, missing: ['Not here.'] });
    const marks = [...doc.querySelectorAll(MARK)];
    expect(marks.map((m) => m.textContent)).toEqual(['Marie Curie moved to ', 'Paris', ' in 1891.', 'The tower is 300 metres tall.']);
        // The link keeps its place and its text; the mark is inside it.
    expect(doc.querySelector('a')?.getAttribute('href')).toBe('/paris');
    expect(doc.querySelector('a')?.firstElementChild?.hasAttribute(MARK_ATTR)).toBe(true);
    expect(doc.getElementById('p')?.textContent).toBe('Intro text. Marie Curie moved to Paris in 1891. She won it in 1903. End.');
  });

  it('gives each mark one tab stop named with its verdict and the page’s own sentence, nothing more', () => {
    const doc = page(HTML);
    // Extra fields a caller might send (a correction, sources) are dropped before the page sees them.
    const extra = { correction: 'She moved in late 1891.', sources: [{ n: 1, title: 'Other tab', url: 'https://intranet/x' }] };
    createPageMarks(doc).show([{ ...mark('Marie Curie moved to Paris in 1891.', 'corrected'), ...extra }]);
    const marks = [...doc.querySelectorAll(MARK)];
    expect(marks.map((m) => m.getAttribute('tabindex'))).toEqual(['0', null, null]);
    expect(marks[0]!.getAttribute('role')).toBe('button');
    expect(marks[0]!.getAttribute('aria-label')).toBe('Ratify: Corrected. Marie Curie moved to Paris in 1891. Details are in the Ratify side panel.');
    expect(doc.documentElement.outerHTML).not.toMatch(/late 1891|Other tab|intranet|data-verdict/);
  });

  it('clear puts back the original text nodes, not merged with the page’s own neighbours', () => {
    const doc = page(HTML);
    const p = doc.getElementById('p') as HTMLElement;
    p.appendChild(doc.createTextNode(' Page-added node.')); // a separate node the page made itself
    const before = p.innerHTML;
    const firstText = p.firstChild;
    const nodesBefore = p.childNodes.length;
    const marks = createPageMarks(doc);
    marks.show([mark('Intro text.'), mark('Marie Curie moved to Paris in 1891.'), mark('She won it in 1903.'), mark('End. Page-added node.')]);
    expect(marks.count()).toBe(4);
    marks.clear();
    expect(p.innerHTML).toBe(before);
    expect(p.childNodes.length).toBe(nodesBefore);
    expect(p.firstChild).toBe(firstText); // the page's references to its nodes still hold
    expect(doc.querySelectorAll(MARK).length).toBe(0);
    expect(marks.count()).toBe(0);
  });

  it('showing again replaces the marks instead of nesting them', () => {
    const doc = page(HTML);
    const before = doc.body.innerHTML;
    const marks = createPageMarks(doc);
    marks.show([mark('Marie Curie moved to Paris in 1891.')]);
    marks.show([mark('Marie Curie moved to Paris in 1891.', 'refuted'), mark('She won it in 1903.')]);
    expect([...doc.querySelectorAll(`${MARK}[tabindex]`)].map((m) => m.getAttribute('aria-label')?.split('.')[0])).toEqual(['Ratify: Refuted', 'Ratify: Supported']);
    expect(doc.querySelector(`${MARK} ${MARK}`)).toBeNull();
    marks.clear();
    expect(doc.body.innerHTML).toBe(before);
  });

  it('the same marks shown again (a run\'s last verdict, then its end, in page order) stay the same elements', () => {
    const doc = page(HTML);
    const marks = createPageMarks(doc);
    const list = [mark('Marie Curie moved to Paris in 1891.'), mark('The tower is 300 metres tall.', 'refuted')];
    marks.show(list, { runId: 'r1' });
    const first = [...doc.querySelectorAll(MARK)];
    expect(marks.show(list.map((m) => ({ ...m })).reverse(), { runId: 'r1' })).toEqual({ shown: 2, missing: [] });
    expect([...doc.querySelectorAll(MARK)]).toEqual(first);
    expect(first.every((el) => el.isConnected)).toBe(true);
    // A verdict that changed is drawn again.
    marks.show([list[0]!, mark('The tower is 300 metres tall.', 'corrected')], { runId: 'r1' });
    expect(doc.querySelectorAll(`${MARK}[tabindex]`)[1]?.getAttribute('aria-label')).toMatch(/^Ratify: Corrected/);
  });

  it('drops malformed marks', () => {
    expect(sanitizeMarks([null, { sentence: 'x y', verdict: 'bogus' }, { sentence: 'A b.', verdict: 'refuted', correction: 'C.', sources: [{ n: 1, title: 't', url: 'javascript:alert(1)' }] }])).toEqual([
      { sentence: 'A b.', verdict: 'refuted' },
    ]);
    expect(sanitizeMarks('nope')).toEqual([]);
  });
});
