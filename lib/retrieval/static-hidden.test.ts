import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractReadable } from './extract';
import { createNodePageReader } from './node-reader';
import { hidesElement, hidesText, parseDeclarations, parseRules } from './static-hidden';

const FIXTURE = readFileSync('test/fixtures/site/hidden/placements.html', 'utf8');
const tokens = (text: string, kind: 'HIDDEN' | 'VISIBLE') => [...new Set(text.match(new RegExp(`${kind}-\\d\\d`, 'g')) ?? [])].sort();

describe('hidden text in fetched pages (no layout)', () => {
  it('keeps out what the page’s own styles hide, and keeps every visible sentence', async () => {
    const page = await createNodePageReader().read(FIXTURE, 'https://blog.example/vault.html');
    // Without the filter (how fetched pages were read before) all 30 placements but `hidden` and
    // aria-hidden reached the text.
    const { document } = parseHTML(FIXTURE) as unknown as { document: Document };
    const unfiltered = tokens(extractReadable(document, 'https://blog.example/vault.html').text, 'HIDDEN');
    console.log(`fetched page: ${unfiltered.length}/36 hidden placements without the filter, ${tokens(page.text, 'HIDDEN').length}/36 with it`);
    expect(unfiltered.length).toBeGreaterThan(26);
    // Only what needs layout stays: a sibling painted over the text, and a box pushed below the
    // end of a page whose length is unknown without layout (the tab reader catches both).
    expect(tokens(page.text, 'HIDDEN')).toEqual(['HIDDEN-01', 'HIDDEN-33']);
    expect(tokens(page.text, 'VISIBLE')).toEqual(Array.from({ length: 11 }, (_, i) => `VISIBLE-${String(i + 1).padStart(2, '0')}`));
  });

  it('judges declarations the way the hiding idioms write them', () => {
    const hides = (css: string) => hidesElement(parseDeclarations(css));
    for (const css of ['display:none', 'visibility: hidden !important', 'opacity:0.05', 'transform: scale(0)', 'position:absolute;left:-10000px', 'clip: rect(0 0 0 0); position:absolute', 'clip-path: inset(100%)', 'height:0;overflow:hidden', 'filter: opacity(0)'])
      expect(hides(css), css).toBe(true);
    for (const css of ['display:block', 'opacity:0.6', 'transform: scale(1.1)', 'position:absolute;left:-10px', 'height:0', 'clip-path: inset(10%)'])
      expect(hides(css), css).toBe(false);
    // Far right and beyond a fixed viewport (a box's own width stretches the page's scroll width).
    for (const css of ['position:absolute;left:99999px', 'position:relative;left:5000px', 'margin-left:99999px', 'position:fixed;top:99999px', 'position:fixed;left:0;bottom:-99999px'])
      expect(hides(css), css).toBe(true);
    for (const css of ['position:absolute;left:640px', 'position:relative;left:40px', 'margin-left:300px', 'position:fixed;bottom:0', 'position:fixed;top:500px', 'position:absolute;top:99999px'])
      expect(hides(css), css).toBe(false);
    // One of each remaining way.
    for (const css of ['content-visibility: hidden', 'visibility: collapse', 'transform: translateX(-900px)', 'margin-top:-999px', 'clip-path: circle(0)', 'max-width:1px;overflow-x:clip', 'filter: opacity(5%)'])
      expect(hides(css), css).toBe(true);
    for (const css of ['transform: translateX(-90px)', 'margin-top:-9px', 'clip-path: circle(40%)', 'max-width:1px', 'filter: opacity(50%)'])
      expect(hides(css), css).toBe(false);
    expect(hidesText(parseDeclarations('font-size:2px'))).toBe(true);
    expect(hidesText(parseDeclarations('color:#fff;background:#FFFFFF'))).toBe(true);
    expect(hidesText(parseDeclarations('color:#fff;background:#000'))).toBe(false);
    expect(hidesText(parseDeclarations('text-indent:-999em'))).toBe(true);
  });

  it('reads rules inside @media for a desktop screen, skips comments and never throws on odd CSS', () => {
    const rules = parseRules('/* .x{display:none} */ @media screen { .a, .b { display: none } } @media (max-width: 600px) { .m { display: none } } @media print { .p { display: none } } @font-face { font-family: X } .c { color: red }');
    expect(rules.map((r) => r.selector)).toEqual(['.a, .b', '.c']);
    expect(parseRules('.a { display: none')).toHaveLength(1);
  });

  it('lets the cascade decide: a later, a more specific or an inline declaration shows the text again', async () => {
    const html = `<style>.x { display: none } .x { display: block } #y { display: block } p.z { display: none } .z { display: block }
      @media (max-width: 700px) { .w { display: none } } .v { display: block !important } .v { display: none }</style>
      <p class="x">SHOWN-1</p><p id="y" class="q">SHOWN-2</p><style>.q { display: none }</style><p class="z">GONE-1</p>
      <p class="w">SHOWN-3</p><p class="v">SHOWN-4</p><p class="u" style="display: block">SHOWN-5</p><style>.u { display: none }</style>`;
    const text = (await createNodePageReader().read(`<html><body><main>${html}</main></body></html>`, 'https://x.example/')).text;
    expect(text.match(/SHOWN-\d|GONE-\d/g)).toEqual(['SHOWN-1', 'SHOWN-2', 'SHOWN-3', 'SHOWN-4', 'SHOWN-5']);
  });
});
