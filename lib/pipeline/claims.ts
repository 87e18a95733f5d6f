/** Check this page, step one: the page's check-worthy claims, from one call that sees the page's
 * visible article text and nothing else (no other tab, no tab catalogue, no earlier answer). The
 * user chose that text by asking for the check, so these claims and the queries written with them
 * may go to web search (SECURITY.md). Claims stream: each is handed on as soon as the model has
 * written it, so its evidence is fetched and its check starts while the list is still written.
 *
 * Code keeps only what the page says: each claim is placed on the page sentence it came from (the
 * model's copy, found in the text and widened to whole sentences; else the sentence holding most of
 * the claim's words and all of its numbers); a claim found nowhere in the page is dropped, as are
 * repeats. */
import { sentenceSpans } from '../retrieval/passages';
import { tokenize } from '../retrieval/tokenize';
import type { Ctx } from './context';
import { fold, locate } from './corrected-text';
import { pageClaimsMessages } from './page-prompts';
import { fallbackQuery } from './step-query';
import { pageClaimsStage, stage } from './stages';
import type { PageContext } from '../core/run';

/** Characters of the page the claims are read from: enough for a long article, within what a
 * small model's context holds. */
export const CLAIMS_READ_CHARS = 30_000;

export interface PageClaim {
  claim: string;
  /** The page's own sentence(s) the claim comes from, exactly as in its text. */
  sentence: string;
  /** Where that sentence starts in the page text (page order). */
  at: number;
  query: string;
  worthiness: number;
}

type Span = [number, number];

const numbersOf = (s: string): string[] => s.match(/\d+(?:[.,]\d+)*/g)?.map((n) => n.replace(/,/g, '')) ?? [];

/** The page sentence a claim comes from, or undefined when the page does not hold it. */
export function placeClaim(text: string, spans: Span[], claim: string, copied: string): { sentence: string; at: number } | undefined {
  const widen = ([a, b]: Span) => {
    const cover = spans.filter(([s, e]) => s < b && a < e);
    if (!cover.length) return undefined;
    const from = (cover[0] as Span)[0];
    return { sentence: text.slice(from, (cover[cover.length - 1] as Span)[1]), at: from };
  };
  for (const needle of [copied, claim]) {
    const span = needle.trim().length >= 8 ? locate(text, needle) : undefined;
    if (span) return widen(span);
  }
  // The sentence with most of the claim's words and every one of its numbers.
  const words = [...new Set(tokenize(claim))];
  const nums = numbersOf(claim);
  if (words.length < 2) return undefined;
  let best: { span: Span; share: number } | undefined;
  for (const span of spans) {
    const s = text.slice(span[0], span[1]);
    if (nums.some((n) => !numbersOf(s).includes(n))) continue;
    const have = new Set(tokenize(s));
    const share = words.filter((w) => have.has(w)).length / words.length;
    if (!best || share > best.share) best = { span, share };
  }
  return best && best.share >= 0.5 ? widen(best.span) : undefined;
}

export interface ExtractOptions {
  text: string;
  page: PageContext | undefined;
  /** How many claims to check at most. */
  budget: number;
  /** Each usable claim, in the order the model ranks them (most check-worthy first). */
  onClaim(c: PageClaim): void;
  /** A claim's query, as soon as it has streamed (before the claim itself, whose evidence it
   * finds; the claim may still turn out not to be the page's). */
  onQuery?(query: string): void;
}

/** Lists the page's claims (streamed to `onClaim`). Returns how many the page gave, and how much
 * of its text was read when it was longer than that. */
export async function extractPageClaims(ctx: Ctx, o: ExtractOptions): Promise<{ found: number; readChars?: number }> {
  const read = o.text.length > CLAIMS_READ_CHARS ? cutAtSentence(o.text, CLAIMS_READ_CHARS) : o.text;
  const spans = sentenceSpans(read, o.page?.lang);
  const seen = new Set<string>();
  let taken = 0;
  let handled = 0;
  let queried = 0;
  const take = (raw: unknown) => {
    const item = pageClaimsStage.shape.claims.safeParse([raw]);
    const c = item.success ? item.data[0] : undefined;
    if (!c?.claim) return;
    const key = fold(c.claim);
    if (seen.has(key)) return;
    const placed = placeClaim(read, spans, c.claim, c.sentence);
    if (!placed) return;
    seen.add(key);
    if (taken >= o.budget) return;
    taken++;
    o.onClaim({ claim: c.claim, sentence: placed.sentence, at: placed.at, query: c.query || fallbackQuery(c.claim, ''), worthiness: c.worthiness });
  };
  const out = await ctx.llm.json({
    ...stage('page-claims', pageClaimsStage),
    messages: pageClaimsMessages({ text: read, title: o.page?.title ?? '', url: o.page?.url ?? '', maxClaims: o.budget }),
    temperature: 0,
    maxTokens: 200 + 110 * o.budget,
    signal: ctx.signal,
    onUsage: ctx.onUsage,
    onPartial: (p) => {
      const list = (p as Record<string, unknown> | undefined)?.claims;
      if (!Array.isArray(list)) return;
      // A query is whole once the claim after it has started; an item once the next one has.
      const last = list[list.length - 1] as Record<string, unknown> | undefined;
      const upTo = list.length - (last && typeof last === 'object' && 'claim' in last ? 0 : 1);
      for (; queried < Math.min(upTo, o.budget); queried++) {
        const q = (list[queried] as Record<string, unknown> | undefined)?.query;
        if (typeof q === 'string' && q.trim()) o.onQuery?.(q.trim());
      }
      // A claim is ready once its sentence is (its worthiness, the last field, only ranks it).
      const ready = list.length - (last && typeof last === 'object' && 'worthiness' in last ? 0 : 1);
      for (; handled < ready; handled++) take(list[handled]);
    },
  });
  for (; handled < out.claims.length; handled++) take(out.claims[handled]);
  return { found: seen.size, ...(read.length < o.text.length ? { readChars: read.length } : {}) };
}

function cutAtSentence(text: string, max: number): string {
  const cut = text.slice(0, max);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('\n'), cut.lastIndexOf('。'));
  return end > max / 2 ? cut.slice(0, end + 1) : cut;
}
