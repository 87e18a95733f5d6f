/** The query guard: no string that occurs only in the user's open tabs leaves for the web.
 *
 * Every query that goes to a search provider was written by the model, and from the first
 * revision on the model has read passages of the user's open tabs, which a hostile page may have
 * told it to copy into its next search. So each query is checked before it leaves, against where
 * its terms could honestly have come from (SECURITY.md, "Search queries"):
 *
 *  - allowed sources: what the user typed (question or selection, and the thread's earlier
 *    questions), the page the question came from, the web results of this run (already public),
 *    and model text written before any tab text was shown to the model (the gate's rewrite and
 *    the draft, when no earlier answer was in their prompt: `vouch`);
 *  - tab text: the tab passages of this run (what the model has read).
 *
 * A term is withheld from the web query when it is
 *  - a plain word that occurs in tab text and in no allowed source;
 *  - a number, unless the same digits occur in an allowed source;
 *  - an opaque token (letters mixed with digits, inner capitals as in base64, a URL, an e-mail
 *    address, a domain, anything 24+ characters long) that is not found in an allowed source: an
 *    encoding of tab data (hex, base64, a URL carrying it) need not occur in the tabs to carry it;
 *  - part of a run of three or more single digits or number words ("7 3 9", "seven three nine"),
 *    unless the run occurs in an allowed source.
 * Tab retrieval is local and uses the query as written; only the web sees the checked one. */
import type { Run } from '../core/run';

const NUMBER_WORDS = new Set(['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']);
const NUMERIC = /\d+(?:[.,:/-]\d+)*/g;
const WORD_PIECE = /[\p{L}\p{M}]+/gu;

const digitsOf = (s: string): string[] => [...s.matchAll(NUMERIC)].flatMap((m) => [m[0].replace(/\D/g, ''), ...m[0].split(/\D+/)]).filter(Boolean);
const wordsOf = (s: string): string[] => [...s.toLowerCase().matchAll(WORD_PIECE)].map((m) => m[0]);
const core = (t: string): string => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}=/]+$/gu, '');

function opaque(t: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t) || t.includes('@') || t.includes('/')) return true;
  if (/^[\p{L}\d-]+(\.[\p{L}\d-]+)+$/u.test(t) && /\.[\p{L}]{2,}$/u.test(t) && !/^\d/.test(t)) return true; // a domain
  if (/[A-Za-z]/.test(t) && /\d/.test(t)) return true;
  if (/[a-z][A-Z]/.test(t) || t.includes('=')) return true;
  return [...t].length >= 24;
}

const singleDigitish = (t: string): boolean => /^\d{1,2}$/.test(t) || NUMBER_WORDS.has(t.toLowerCase());

export interface CheckedQuery {
  /** The query as it may go to the web ('' when nothing is left). */
  query: string;
  /** How many terms were withheld. */
  withheld: number;
}

interface Index {
  text: string;
  words: Set<string>;
  digits: Set<string>;
}

function index(texts: string[]): Index {
  const text = texts.join('\n').toLowerCase().replace(/\s+/g, ' ');
  return { text, words: new Set(wordsOf(text)), digits: new Set(digitsOf(text)) };
}

export class QueryGuard {
  private vouched: string[] = [];

  /** `run`: the run as it stands when a query is checked (its passages and inputs). */
  constructor(private readonly run: () => Run) {}

  /** The prompts so far held no model text written after reading tabs: neither an earlier
   * answer of the thread nor (for a sub-question) the answer of the one before. */
  cleanContext(): boolean {
    return !(this.run().input.thread?.turns ?? []).some((t) => t.answer.trim());
  }

  /** Model text written before any tab text was shown to it (see the class comment). */
  vouch(...texts: (string | undefined)[]): void {
    for (const t of texts) if (t?.trim()) this.vouched.push(t);
  }

  private sources(): { allowed: Index; tab: Index } {
    const r = this.run();
    const page = r.input.page;
    const allowed = [r.input.text, r.input.asked ?? '', ...(r.input.thread?.turns ?? []).map((t) => t.question), page?.title ?? '', page?.url ?? '', page?.selection ?? '', page?.surrounding ?? '', page?.text ?? '', ...this.vouched];
    const tab: string[] = [];
    for (const s of r.library) if (s.origin === 'web') allowed.push(s.title, s.url);
    for (const step of r.steps)
      for (const q of step.queries)
        for (const p of q.passages) {
          // The page the question came from is an allowed source even when cut as a tab.
          if (p.origin === 'web' || (page && p.url === page.url)) allowed.push(p.title, p.url, p.text);
          else tab.push(p.title, p.url, p.text, ...p.headingPath);
        }
    return { allowed: index(allowed), tab: index(tab) };
  }

  check(query: string): CheckedQuery {
    const raw = query.split(/\s+/).filter(Boolean);
    if (!raw.length) return { query: '', withheld: 0 };
    const { allowed, tab } = this.sources();
    const keep = raw.map(() => true);
    // Runs of single digits or number words spell a number out.
    for (let i = 0; i < raw.length; ) {
      let j = i;
      while (j < raw.length && singleDigitish(core(raw[j] as string))) j++;
      if (j - i >= 3 && !allowed.text.includes(raw.slice(i, j).map(core).join(' ').toLowerCase())) for (let x = i; x < j; x++) keep[x] = false;
      i = Math.max(j, i + 1);
    }
    raw.forEach((t, i) => {
      if (!keep[i]) return;
      const c = core(t);
      if (!c) return;
      if (opaque(c)) {
        keep[i] = allowed.text.includes(c.toLowerCase());
        return;
      }
      if (digitsOf(c).some((d) => !allowed.digits.has(d))) keep[i] = false;
      else if (wordsOf(c).some((w) => tab.words.has(w) && !allowed.words.has(w))) keep[i] = false;
    });
    return { query: raw.filter((_, i) => keep[i]).join(' '), withheld: keep.filter((k) => !k).length };
  }
}
