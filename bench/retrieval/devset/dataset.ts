/** The retrieval development set over real tabs (issue 12, item 2): questions written for this
 * project over 44 real pages of Mozilla Readability's test suite (test/fixtures/retrieval-dev/,
 * README there), with gold spans, split into a tuning part and a held-out part.
 *
 * File: test/fixtures/retrieval-dev/questions.jsonl, one question per line:
 *   { "id": "d001", "category": "lexical" | "paraphrase" | "multi-page" | "cross-language",
 *     "lang": "en",                       // the question's language
 *     "question": "…",
 *     "gold": [ { "page": "cnet", "span": "…" }, … ],   // exact substrings of the page's readable text
 *     "part": "tune" | "held-out" }        // recorded; must equal splitParts() (see there)
 * Multi-page questions have gold on at least two pages. Several spans on one page are
 * alternatives (any of them answers). */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createNodePageReader } from '../../../lib/retrieval/node-reader';
import type { ReadablePage } from '../../../lib/retrieval/page';
import { tokenize } from '../../../lib/retrieval/tokenize';

const here = dirname(fileURLToPath(import.meta.url));
export const DEVSET_DIR = join(here, '..', '..', '..', 'test', 'fixtures', 'retrieval-dev');
export const QUESTIONS_FILE = join(DEVSET_DIR, 'questions.jsonl');
export const PAGES_DIR = join(DEVSET_DIR, 'pages');

/** The pages not in English (the data README, section 5b); every other page is English. */
export const PAGE_LANGS: Readonly<Record<string, string>> = { youth: 'zh', gmw: 'zh', 'videos-2': 'fr', 'cnet-svg-classes': 'es', 'nytimes-5': 'es' };
export const pageLang = (name: string): string => PAGE_LANGS[name] ?? 'en';

export const CATEGORIES = ['lexical', 'paraphrase', 'multi-page', 'cross-language'] as const;
export type Category = (typeof CATEGORIES)[number];
export type Part = 'tune' | 'held-out';
export const PARTS: readonly Part[] = ['tune', 'held-out'];

export interface GoldSpan {
  page: string;
  span: string;
}

export interface DevQuestion {
  id: string;
  category: Category;
  lang: string;
  question: string;
  gold: GoldSpan[];
  part: Part;
}

export interface DevPage {
  name: string;
  /** The address the page is opened at as a tab (its own host, so no two tabs share a site). */
  url: string;
  page: ReadablePage;
}

export function loadQuestions(file = QUESTIONS_FILE): DevQuestion[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as DevQuestion;
      } catch (e) {
        throw new Error(`${file}:${i + 1}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    });
}

export function pageNames(dir = PAGES_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.html.gz'))
    .map((f) => f.slice(0, -'.html.gz'.length))
    .sort();
}

export const pageUrl = (name: string): string => `https://${name}.pages.invalid/`;

export function pageHtml(name: string, dir = PAGES_DIR): string {
  return gunzipSync(readFileSync(join(dir, `${name}.html.gz`))).toString('utf8');
}

let cached: Promise<DevPage[]> | undefined;

/** Every page read the way a tab is read in Node: linkedom + extractReadable (Readability), the
 * same code the extension's tab reader runs. Read once per process (~10 s for the 44 pages). */
export function loadPages(): Promise<DevPage[]> {
  cached ??= (async () => {
    const reader = createNodePageReader();
    const out: DevPage[] = [];
    for (const name of pageNames()) {
      const url = pageUrl(name);
      out.push({ name, url, page: await reader.read(pageHtml(name), url) });
    }
    return out;
  })();
  return cached;
}

const idHash = (id: string): string => createHash('sha256').update(id).digest('hex');

/** The split: within each category, questions in id order are taken in pairs; of each pair the
 * one with the smaller sha256(id) goes to the tuning part and the other to the held-out part (an
 * odd last one goes by the parity of its hash's first byte). So the parts are balanced per
 * category, fixed by the ids alone, and adding questions never moves a paired one. */
export function splitParts(questions: Pick<DevQuestion, 'id' | 'category'>[]): Map<string, Part> {
  const out = new Map<string, Part>();
  for (const c of CATEGORIES) {
    const ids = questions.filter((q) => q.category === c).map((q) => q.id).sort();
    for (let i = 0; i < ids.length; i += 2) {
      const a = ids[i]!;
      const b = ids[i + 1];
      if (b === undefined) {
        out.set(a, parseInt(idHash(a).slice(0, 2), 16) % 2 === 0 ? 'tune' : 'held-out');
      } else {
        const aFirst = idHash(a) < idHash(b);
        out.set(a, aFirst ? 'tune' : 'held-out');
        out.set(b, aFirst ? 'held-out' : 'tune');
      }
    }
  }
  return out;
}

/** Where a gold span sits in its page's readable text: [start, end). */
export interface LocatedGold extends GoldSpan {
  start: number;
  end: number;
}

export function checkQuestions(questions: DevQuestion[], pages: DevPage[]): string[] {
  const problems: string[] = [];
  const byName = new Map(pages.map((p) => [p.name, p]));
  const split = splitParts(questions);
  const ids = new Set<string>();
  for (const q of questions) {
    const at = `${q.id}`;
    if (ids.has(q.id)) problems.push(`${at}: duplicate id`);
    ids.add(q.id);
    if (!CATEGORIES.includes(q.category)) problems.push(`${at}: unknown category ${q.category}`);
    if (!q.question?.trim()) problems.push(`${at}: empty question`);
    if (!q.lang) problems.push(`${at}: no lang`);
    if (!q.gold?.length) problems.push(`${at}: no gold span`);
    if (q.part !== split.get(q.id)) problems.push(`${at}: part ${q.part}, the split says ${split.get(q.id)}`);
    for (const g of q.gold ?? []) {
      const p = byName.get(g.page);
      if (!p) problems.push(`${at}: no page ${g.page}`);
      else if (!g.span.trim()) problems.push(`${at}: empty span on ${g.page}`);
      else if (!p.page.text.includes(g.span)) problems.push(`${at}: span not in ${g.page}'s readable text: ${g.span.slice(0, 60)}`);
    }
    const goldPages = new Set((q.gold ?? []).map((g) => g.page));
    if (q.category === 'multi-page' && goldPages.size < 2) problems.push(`${at}: multi-page with gold on ${goldPages.size} page`);
    if (q.category !== 'multi-page' && goldPages.size > 1) problems.push(`${at}: gold on ${goldPages.size} pages but not multi-page`);
    if (q.category === 'cross-language' && [...goldPages].some((p) => (pageLang(p) === 'en') === (q.lang === 'en'))) {
      problems.push(`${at}: cross-language, but a gold page is in the question's language`);
    }
  }
  return problems;
}

/** Every occurrence of every gold span (a span repeated in its page answers wherever it is). */
export function locateGold(q: DevQuestion, pages: Map<string, DevPage>): LocatedGold[] {
  return q.gold.flatMap((g) => {
    const text = pages.get(g.page)?.page.text ?? '';
    const out: LocatedGold[] = [];
    for (let at = text.indexOf(g.span); at >= 0; at = text.indexOf(g.span, at + 1)) out.push({ ...g, start: at, end: at + g.span.length });
    if (!out.length) throw new Error(`${q.id}: gold span not in ${g.page}`);
    return out;
  });
}

/** Characters either side of a gold span that count as its neighbourhood: about one passage
 * (1,500 characters by default) centred on the span. */
export const NEIGHBOURHOOD_CHARS = 750;

/** How many distinct content words (the ranker's own tokens: stopwords out, folded, plurals
 * stemmed) the question shares with the text around its best gold span. A mechanical property of
 * the question, the same for every ranker: a question sharing at most one word with its answer
 * cannot be found by matching words, whatever the ranker does. */
export function sharedWords(q: DevQuestion, pages: Map<string, DevPage>): number {
  const asked = new Set(tokenize(q.question));
  let best = 0;
  for (const g of locateGold(q, pages)) {
    const text = pages.get(g.page)?.page.text ?? '';
    const around = new Set(tokenize(text.slice(Math.max(0, g.start - NEIGHBOURHOOD_CHARS), g.end + NEIGHBOURHOOD_CHARS)));
    let n = 0;
    for (const t of asked) if (around.has(t)) n++;
    best = Math.max(best, n);
  }
  return best;
}

/** Questions sharing at least this many words with their answer can be found by words. */
export const LEXICALLY_REACHABLE = 2;
