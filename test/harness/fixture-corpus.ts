/** The fixture site's articles as plain text: the single source the fake search providers answer
 * from, so every search hit points at a page that really exists on the fixture site and says
 * what the snippet says. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const SITE_DIR = fileURLToPath(new URL('../fixtures/site/', import.meta.url));

export interface FixtureDoc {
  title: string;
  /** Path on the fixture site, e.g. /articles/marie-curie.html */
  path: string;
  /** Plain text with MediaWiki explaintext section markers: "\n\n\n== Heading ==\n" (three
   * newlines before a heading, as the live API sends them). */
  text: string;
  lang: string;
}

/** A search-corpus document with an absolute URL. */
export interface SearchDoc {
  title: string;
  url: string;
  text: string;
  lang?: string;
}

interface PageSpec {
  path: string;
  lang: string;
  /** Where the readable text comes from: the page itself (its <article>), or, for copied real
   * pages, Readability's expected output stored beside them. */
  readable: string;
  /** Title override (real pages carry site suffixes in <title>). */
  title?: string;
}

const PAGES: PageSpec[] = [
  { path: '/articles/marie-curie.html', lang: 'en', readable: 'site/articles/marie-curie.html' },
  { path: '/articles/eiffel-tower.html', lang: 'en', readable: 'site/articles/eiffel-tower.html' },
  { path: '/articles/tu-youyou.html', lang: 'zh', readable: 'site/articles/tu-youyou.html' },
  { path: '/articles/louvre.html', lang: 'fr', readable: 'site/articles/louvre.html' },
  { path: '/articles/mount-fuji.html', lang: 'ja', readable: 'site/articles/mount-fuji.html' },
  { path: '/real/wikipedia-mozilla.html', lang: 'en', readable: 'real-readable/wikipedia-mozilla.html', title: 'Mozilla' },
  { path: '/real/qq-deepmind.html', lang: 'zh', readable: 'real-readable/qq-deepmind.html', title: 'DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶' },
];

/** Not in the default corpus (it would pollute ordinary searches); security tests add it. */
export const INJECTION_PAGE: PageSpec = { path: '/articles/injection.html', lang: 'en', readable: 'site/articles/injection.html' };

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** MediaWiki-style explaintext as the live API returns it: paragraphs separated by "\n", sections
 * introduced by "\n\n\n== H ==\n" (h2) or "\n\n\n=== H ===\n" (h3), footnote markers like [1]
 * removed. */
export function htmlToExplainText(html: string): { title: string; text: string } {
  // Readability output is a bare <div> fragment; linkedom needs a full document to give it a body.
  const { document } = parseHTML(/<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><body>${html}</body></html>`);
  const root = document.querySelector('article') ?? document.querySelector('main') ?? document.body ?? document.documentElement;
  const h1 = root.querySelector('h1');
  const title = clean(h1?.textContent ?? document.querySelector('title')?.textContent ?? '');
  let out = '';
  for (const el of root.querySelectorAll('h2, h3, p, li, blockquote, dd')) {
    const tag = el.tagName.toLowerCase();
    // A <p> inside an <li> or <blockquote> would be counted twice.
    if (tag !== 'h2' && tag !== 'h3' && el.parentElement?.closest('li, blockquote, dd')) continue;
    const t = clean((el.textContent ?? '').replace(/\[\d+\]/g, ''));
    if (!t) continue;
    if (tag === 'h2') out += `\n\n\n== ${t} ==\n`;
    else if (tag === 'h3') out += `\n\n\n=== ${t} ===\n`;
    else out += (out === '' || out.endsWith('\n') ? '' : '\n') + t;
  }
  return { title, text: out.replace(/^\n+/, '') };
}

function load(spec: PageSpec): FixtureDoc {
  const { title, text } = htmlToExplainText(readFileSync(FIXTURES_DIR + spec.readable, 'utf8'));
  return { title: spec.title ?? title, path: spec.path, text, lang: spec.lang };
}

let cache: FixtureDoc[] | undefined;

/** Every searchable fixture article (read once, then cached). */
export function fixtureDocs(): FixtureDoc[] {
  cache ??= PAGES.map(load);
  return cache;
}

export function injectionDoc(): FixtureDoc {
  return load(INJECTION_PAGE);
}

/** The fixture docs as search documents served from `origin` (the fixture site's). */
export function fixtureCorpus(origin: string, docs: FixtureDoc[] = fixtureDocs()): SearchDoc[] {
  return docs.map((d) => ({ title: d.title, url: new URL(d.path, origin).href, text: d.text, lang: d.lang }));
}
