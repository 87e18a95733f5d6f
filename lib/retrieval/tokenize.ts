/** Unicode-aware tokenization for the lexical ranker. Words are runs of letters, digits and marks;
 * scripts written without spaces (Chinese, Japanese, Thai, …) become overlapping character bigrams,
 * so a query needs no word segmenter to match. Latin words are lower-cased, folded to plain
 * letters (é → e) and lightly stemmed (plural endings), the same way for text and queries. */

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NO_SPACE_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc]+/gu;
const LATIN_EXT = /[\u00c0-\u024f\u1e00-\u1eff]/;

/** Function words that carry no topic (English, plus a few common French/German/Spanish ones). */
export const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her hers him his how i if in into is it its ' +
    'me my no nor not of on or our ours she so such than that the their theirs them then there these they this those to too us was we were what ' +
    'when where which while who whom whose why will with would you your yours also about after before both each either neither more most other ' +
    'some any all same one s t d ll m re ve o y ' +
    'le la les un une des du de et est en au aux der die das und ist ein eine el los las y del que'
  ).split(' '),
);

function stem(w: string): string {
  const n = w.length;
  if (n <= 3 || w.charCodeAt(n - 1) !== 115 /* s */) return w;
  if (w.endsWith('ies') && n > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (/(?:x|ch|sh|zz)es$/.test(w)) return w.slice(0, -2);
  return w.slice(0, -1);
}

function pushWord(w: string, out: string[], keepStopwords: boolean): void {
  if (LATIN_EXT.test(w)) w = w.normalize('NFD').replace(/\p{M}/gu, '');
  if (!keepStopwords && STOPWORDS.has(w)) return;
  out.push(stem(w));
}

/** Tokens in text order (stopwords left out unless asked for). */
export function tokenize(text: string, keepStopwords = false): string[] {
  return scan(text, keepStopwords);
}

const CAPITAL = /^[\p{Lu}\p{Lt}\p{N}]/u;

/** Tokens in text order, each with whether its word was written with a capital (or is a number):
 * in a question, a capitalised run is a name ("Symphony Center"), however common its words. */
export function tokenizeCased(text: string, keepStopwords = false): { tokens: string[]; caps: boolean[] } {
  const caps: boolean[] = [];
  return { tokens: scan(text, keepStopwords, caps), caps };
}

function scan(text: string, keepStopwords: boolean, caps?: boolean[]): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  // Offsets line up unless lower-casing changed the length (a few letters such as "İ" do).
  const cased = caps !== undefined && lower.length === text.length;
  for (const m of lower.matchAll(WORD)) {
    const w = m[0];
    if (!NO_SPACE_SCRIPT.test(w)) {
      pushWord(w, out, keepStopwords);
      if (caps) {
        const cap = cased && CAPITAL.test(text.slice(m.index, m.index + 2));
        while (caps.length < out.length) caps.push(cap);
      }
      continue;
    }
    for (const r of w.matchAll(NO_SPACE_RUN)) {
      const run = r[0];
      if (!NO_SPACE_SCRIPT.test(run)) {
        pushWord(run, out, keepStopwords);
        continue;
      }
      const chars = Array.from(run);
      if (chars.length === 1) out.push(run);
      // Overlapping character pairs (bigrams).
      for (let i = 1; i < chars.length; i++) out.push(chars[i - 1]! + chars[i]!);
    }
    // Scripts without case: no capital evidence.
    if (caps) while (caps.length < out.length) caps.push(false);
  }
  return out;
}

/** Variants of a page title worth matching as a phrase: without a parenthetical ("Ed Wood (film)"
 * → "Ed Wood"), without a site suffix ("Foo - Wikipedia" → "Foo"), before a comma ("Woodson,
 * Arkansas" → "Woodson"). */
export function titleVariants(title: string): string[] {
  const out = new Set<string>();
  const noParen = title.replace(/\s*[(（][^)）]*[)）]\s*/g, ' ').trim();
  const [site = ''] = noParen.split(/\s+[-|–—·:]\s+/).map((s) => s.trim());
  for (const t of [noParen, site]) {
    if (t) out.add(t);
    const [comma = ''] = t.split(/,\s+/).map((s) => s.trim());
    if (comma && comma !== t) out.add(comma);
  }
  return [...out];
}
