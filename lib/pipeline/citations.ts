/** Citations: the model cites short passage aliases (P1, P2, …) that the prompt gave it; code
 * checks each one against the passages of that very call and each quoted span against the
 * passage text, then numbers the surviving sources in order of first use. */
import { answerSentence } from '../retrieval/answer-sentence';
import type { Passage } from '../core/passage';
import type { Source } from '../core/run';

/** Alias → passage for one LLM call. Short aliases keep ids cheap to write and easy to check. */
export type AliasMap = Map<string, Passage>;

export function aliasPassages(passages: Passage[], prefix = 'P'): AliasMap {
  const m: AliasMap = new Map();
  passages.forEach((p, i) => m.set(`${prefix}${i + 1}`, p));
  return m;
}

export interface CitedSpan {
  id: string;
  quote?: string;
}

export interface ValidCitation {
  passage: Passage;
  /** The quote as found in the passage text (empty when the model gave none). */
  quote: string;
}

export interface DroppedCitation {
  passageId: string;
  reason: 'unknown-id' | 'quote-not-found';
}

/** Keep citations whose id was given in this call and whose quote (if any) is in that passage. */
export function validateCitations(cited: CitedSpan[], given: AliasMap): { valid: ValidCitation[]; dropped: DroppedCitation[] } {
  const valid: ValidCitation[] = [];
  const dropped: DroppedCitation[] = [];
  const seen = new Set<string>();
  for (const c of cited) {
    const alias = normaliseAlias(c.id);
    const passage = given.get(alias) ?? [...given.values()].find((p) => p.id === c.id);
    if (!passage) {
      dropped.push({ passageId: c.id, reason: 'unknown-id' });
      continue;
    }
    const quote = (c.quote ?? '').trim();
    const found = quote ? findQuote(quote, passage.text) : '';
    if (quote && found === undefined) {
      dropped.push({ passageId: c.id, reason: 'quote-not-found' });
      continue;
    }
    if (seen.has(passage.id)) continue;
    seen.add(passage.id);
    valid.push({ passage, quote: found ?? '' });
  }
  return { valid, dropped };
}

function normaliseAlias(id: string): string {
  return id.trim().replace(/^\[|\]$/g, '').toUpperCase();
}

/** Loose text form for matching quotes: case, whitespace, curly quotes and dashes don't count. */
function loose(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b`´]/g, "'")
    .replace(/[\u201c\u201d\u201e«»]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The quote as it appears in `text` (for exact offsets), '' if only found loosely, or
 * undefined when it is not there. Ellipses split a quote into parts that must appear in order. */
export function findQuote(quote: string, text: string): string | undefined {
  const q = quote.trim().replace(/^["'“”‘’]+|["'“”‘’]+$/g, '').trim();
  if (!q) return '';
  if (text.includes(q)) return q;
  const parts = q
    .split(/\s*(?:\.\.\.|…)\s*/)
    .map((p) => loose(p).replace(/^[\s.,;:!?]+|[\s.,;:!?]+$/g, ''))
    .filter(Boolean);
  if (!parts.length) return undefined;
  const hay = loose(text);
  let from = 0;
  for (const p of parts) {
    const at = hay.indexOf(p, from);
    if (at < 0) return undefined;
    from = at + p.length;
  }
  return '';
}

const MARKER = /\[\s*([A-Za-z]\d+(?:\s*[,;]\s*[A-Za-z]\d+)*)\s*\]/g;

/** Replace alias markers ([P2], [P2, P5]) in model text with source numbers, dropping markers
 * whose alias is not allowed. `number` returns the source number of a passage. */
export function renumberMarkers(
  text: string,
  allowed: AliasMap,
  number: (p: Passage) => number,
  onDrop: (alias: string) => void,
): string {
  return text.replace(MARKER, (_m, list: string) => {
    const ns: number[] = [];
    for (const raw of list.split(/[,;]/)) {
      const alias = normaliseAlias(raw);
      const p = allowed.get(alias);
      if (!p) {
        onDrop(alias);
        continue;
      }
      const n = number(p);
      if (!ns.includes(n)) ns.push(n);
    }
    return ns.map((n) => `[${n}]`).join('');
  });
}

/** The model's own bracketed numbers ("[1]" copied from a Wikipedia paragraph, a bare "[7]") are
 * escaped as Markdown text, so only Ratify's validated markers ever render as citations. */
export function escapeBareNumbers(text: string): string {
  return text.replace(/(^|[^\\])\[(\d+(?:\s*,\s*\d+)*)\]/g, '$1\\[$2\\]');
}

/** Text for an export, which has no chips to tell them apart: bracketed numbers Ratify did not
 * write (those escapeBareNumbers escaped) are left out, so every "[n]" left is a listed source. */
export function dropBareNumbers(text: string): string {
  return text
    .replace(/\\\[\d+(?:\s*,\s*\d+)*\\\]/g, '')
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ');
}

/** Strip alias markers (for text that is shown without sources, e.g. a step's revision). */
export function stripMarkers(text: string): string {
  return text.replace(MARKER, '').replace(/[ \t]+([.,;:!?])/g, '$1').replace(/[ \t]{2,}/g, ' ').trim();
}

export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** Numbers sources in order of first use. */
export class SourceList {
  private byId = new Map<string, Source>();
  readonly list: Source[] = [];

  /** `focus` (the step and its query) locates the answering sentence when `quote` is unusable. */
  number(p: Passage, quote = '', focus = ''): number {
    const existing = this.byId.get(p.id);
    if (existing) {
      if (!existing.quote && quote) Object.assign(existing, quoteFields(p, quote, focus));
      // Another step's fact from the same passage: shown too, as a quote the passage holds.
      else if (quote && quote !== existing.quote && p.text.includes(quote) && !existing.more?.some((m) => m.quote === quote)) {
        (existing.more ??= []).push(quoteFields(p, quote, focus));
      }
      return existing.n;
    }
    const s: Source = {
      n: this.list.length + 1,
      passageId: p.id,
      url: p.url,
      title: p.title,
      site: siteOf(p.url),
      origin: p.origin,
      ...(p.tabId !== undefined ? { tabId: p.tabId } : {}),
      ...(p.page !== undefined ? { page: p.page } : {}),
      ...quoteFields(p, quote, focus),
    };
    this.byId.set(p.id, s);
    this.list.push(s);
    return s.n;
  }

  get(passageId: string): Source | undefined {
    return this.byId.get(passageId);
  }
}

/** The quote shown for a source and its offsets in the source text (for a #:~:text= link). */
function quoteFields(p: Passage, quote: string, focus: string): Pick<Source, 'quote' | 'start' | 'end'> {
  const at = quote ? p.text.indexOf(quote) : -1;
  if (at >= 0) return { quote, start: p.start + at, end: p.start + at + quote.length };
  // No usable quote: the sentence that answers, not the passage's opening.
  const sentence = answerSentence(p, `${focus} ${quote}`);
  if (sentence && sentence.text.length <= 400) return { quote: sentence.text, start: sentence.start, end: sentence.end };
  const text = p.text.length > 300 ? `${p.text.slice(0, 297).trimEnd()}…` : p.text;
  return { quote: text, start: p.start, end: p.end };
}
