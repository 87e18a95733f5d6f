import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { findSentences, foldText } from './find-text';

const body = (html: string): HTMLElement => parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`).document.body;
const text = (segs: { node: Text; start: number; end: number }[] | undefined) => segs?.map((s) => s.node.data.slice(s.start, s.end));

describe('finding a sentence in the page', () => {
  it('finds it inside one text node, exactly at its bounds', () => {
    const root = body('<p>Intro. Marie Curie moved to Paris in 1891. Outro.</p>');
    expect(text(findSentences(root, ['Marie Curie moved to Paris in 1891.'])[0])).toEqual(['Marie Curie moved to Paris in 1891.']);
  });

  it('follows the text across inline elements and several text nodes', () => {
    const root = body('<p>She won the <a href="/n">Nobel <b>Prize</b></a> in <i>Physics</i> in 1903.<sup>[1]</sup> Next.</p>');
    expect(text(findSentences(root, ['She won the Nobel Prize in Physics in 1903.'])[0])).toEqual(['She won the ', 'Nobel ', 'Prize', ' in ', 'Physics', ' in 1903.']);
  });

  it('ignores whitespace, line breaks, case, typographic quotes and dashes', () => {
    const root = body('<p>The tower — “la dame de fer” —\n   is   330\u00a0metres tall.</p>');
    const [segs] = findSentences(root, ['the tower - "La Dame de Fer" - is 330 metres TALL.']);
    expect(text(segs)).toEqual(['The tower — “la dame de fer” —\n   is   330\u00a0metres tall.']);
  });

  it('works for scripts without spaces (Chinese)', () => {
    const root = body('<p>屠呦呦因发现<strong>青蒿素</strong>获得2015年诺贝尔奖。其他。</p>');
    expect(text(findSentences(root, ['屠呦呦因发现青蒿素获得2015年诺贝尔奖。'])[0])).toEqual(['屠呦呦因发现', '青蒿素', '获得2015年诺贝尔奖。']);
  });

  it('keeps the outer edges of a match tight', () => {
    const root = body('<p>Before. <b> Bold start </b> and end. After.</p>');
    expect(text(findSentences(root, ['Bold start and end.'])[0])).toEqual(['Bold start ', ' and end.']);
  });

  it('tolerates a missing or extra final full stop', () => {
    const root = body('<p>It was completed in 1889</p>');
    expect(text(findSentences(root, ['It was completed in 1889.'])[0])).toEqual(['It was completed in 1889']);
  });

  it('never matches text in scripts, styles, form fields, editors or hidden elements', () => {
    const root = body(`
      <script>var s = "Secret sentence here."</script><style>/* Secret sentence here. */</style>
      <textarea>Secret sentence here.</textarea><div contenteditable="true">Secret sentence here.</div>
      <div hidden>Secret sentence here.</div>`);
    expect(findSentences(root, ['Secret sentence here.'])).toEqual([undefined]);
  });

  it('asks the page whether an element is visible', () => {
    const root = body('<p class="gone">Visible sentence.</p><p>Visible sentence.</p>');
    const [segs] = findSentences(root, ['Visible sentence.'], { isVisible: (el) => !el.classList.contains('gone') });
    expect(segs?.[0]!.node.parentElement?.className).toBe('');
  });

  it('marks repeated sentences at successive occurrences, and reports what it cannot find', () => {
    const root = body('<p id="a">Same words.</p><p id="b">Same words.</p>');
    const [a, b, c] = findSentences(root, ['Same words.', 'Same words.', 'Not on the page.']);
    expect(a?.[0]!.node.parentElement?.id).toBe('a');
    expect(b?.[0]!.node.parentElement?.id).toBe('b');
    expect(c).toBeUndefined();
  });

  it('folds characters one to one so positions map back to the page', () => {
    expect(foldText('A  “B”—C\u00adD')).toBe('a"b"-cd');
    expect(foldText('İ').length).toBe(1);
  });
});
