/**
 * The reviewed vendor patches (tools/build/vendor-patches.ts): each still matches the installed
 * dependency exactly as reviewed, a mismatch fails, and the Readability edits (the ones on a path
 * Ratify uses) give the same article as the original on real pages, including the two paths
 * they change: the page restored for another attempt, and an image unwrapped from <noscript>.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { BUNDLE_PATCHES, PDFJS_PATCHES, applyPatches } from '../../../tools/build/vendor-patches';

const require = createRequire(import.meta.url);
const READABILITY = require.resolve('@mozilla/readability/Readability.js');

interface Article {
  title: string | null;
  content: string | null;
  textContent: string | null;
}
type ReadabilityClass = new (doc: Document, opts?: object) => { parse(): Article | null; _attempts: unknown[] };

const dir = mkdtempSync(path.join(tmpdir(), 'ratify-patched-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function patchedReadability(): ReadabilityClass {
  const file = path.join(dir, 'Readability.cjs');
  writeFileSync(file, applyPatches(READABILITY, readFileSync(READABILITY, 'utf8'), BUNDLE_PATCHES));
  return require(file) as ReadabilityClass;
}
const Original = require(READABILITY) as ReadabilityClass;
const Patched = patchedReadability();

const doc = (html: string) => (parseHTML(html) as unknown as { document: Document }).document;

function read(R: ReadabilityClass, html: string) {
  const reader = new R(doc(html));
  const article = reader.parse();
  return { article: article && { title: article.title, content: article.content, text: article.textContent }, attempts: reader._attempts.length };
}

describe('vendor patches', () => {
  it('each patch matches the installed dependency as many times as reviewed', () => {
    for (const p of [...BUNDLE_PATCHES, ...PDFJS_PATCHES]) {
      const file = path.resolve('node_modules', p.file);
      const used = new Set<string>();
      applyPatches(file, readFileSync(file, 'utf8'), [p], used);
      expect(used.has(p.name), p.name).toBe(true);
    }
  });

  it('a file that no longer matches fails loudly instead of shipping unpatched', () => {
    const changed = readFileSync(READABILITY, 'utf8').replace('var pageCacheHtml = page.innerHTML;', 'var pageCacheHtml = page.outerHTML;');
    expect(() => applyPatches(READABILITY, changed, BUNDLE_PATCHES)).toThrow(/readability-page-cache: expected 1 occurrence/);
  });

  it('the patched Readability has no HTML parsing left', () => {
    const patched = applyPatches(READABILITY, readFileSync(READABILITY, 'utf8'), BUNDLE_PATCHES);
    expect(patched).not.toMatch(/\.innerHTML\s*=[^=]/);
  });

  it('Readability patched and original give the same article on real pages', () => {
    const pagesDir = path.resolve('test/fixtures/retrieval-dev/pages');
    const pages = readdirSync(pagesDir).filter((f) => f.endsWith('.html.gz'));
    expect(pages.length).toBeGreaterThan(40);
    let retried = 0;
    let compared = 0;
    for (const f of pages) {
      const html = gunzipSync(readFileSync(path.join(pagesDir, f))).toString('utf8');
      // Pages over 200 kB cost seconds each in linkedom and add no path the others lack.
      if (html.length > 200_000) continue;
      compared++;
      const a = read(Original, html);
      const b = read(Patched, html);
      expect(b.article, f).toEqual(a.article);
      expect(b.attempts, f).toBe(a.attempts);
      if (a.attempts > 0) retried++;
    }
    expect(compared).toBeGreaterThan(20);
    // The restore path (page put back for another attempt) is among what was compared.
    expect(retried).toBeGreaterThan(0);
  }, 60_000);

  it('a short page is put back for each further attempt, as before', () => {
    const html = `<html><head><title>Short</title></head><body><div class="sidebar">Menu</div><article><p>${'A short note about the tower. '.repeat(5)}</p></article></body></html>`;
    const a = read(Original, html);
    const b = read(Patched, html);
    expect(a.attempts).toBeGreaterThan(1);
    expect(b).toEqual(a);
  });

  it('an image inside <noscript> replaces its lazy placeholder, as before', () => {
    const para = '<p>The Eiffel Tower was completed in March 1889 for the World Fair, and it was the tallest structure in the world for four decades after.</p>';
    const html = `<html><body><article>${para.repeat(4)}<figure><img class="lazy" src="data:image/gif;base64,R0lGOD" data-x="placeholder.jpg"><noscript><img src="https://example.org/tower.jpg" alt="The tower"></noscript></figure>${para.repeat(3)}</article></body></html>`;
    const a = read(Original, html);
    const b = read(Patched, html);
    expect(a.article?.content).toContain('https://example.org/tower.jpg');
    expect(b).toEqual(a);
  });
});
