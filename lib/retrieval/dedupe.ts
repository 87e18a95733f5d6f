/** Near-duplicate removal: the same paragraph open in two tabs, quoted by a search result, or
 * syndicated across sites should take one slot, not several. Word 3-gram shingles, compared by
 * Jaccard similarity and by containment (a short passage inside a longer one). */
import { tokenize } from './tokenize';
import { hashText } from '../core/text';

function shingles(text: string): Set<string> {
  const toks = tokenize(text, true);
  const out = new Set<string>();
  if (toks.length < 3) {
    out.add(toks.join(' '));
    return out;
  }
  for (let i = 0; i + 3 <= toks.length; i++) out.add(`${toks[i]} ${toks[i + 1]} ${toks[i + 2]}`);
  return out;
}

export function similarity(a: Set<string>, b: Set<string>): { jaccard: number; containment: number } {
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const s of small) if (large.has(s)) inter++;
  const union = a.size + b.size - inter;
  return { jaccard: union ? inter / union : 1, containment: small.size ? inter / small.size : 1 };
}

export interface DedupeOptions<T = unknown> {
  jaccard?: number;
  containment?: number;
  /** True when `a` should stand for its group instead of `b`, which ranked higher (e.g. the copy
   * in an open tab over the same text found on the web: the user sees it and a citation can
   * focus it). The group keeps `b`'s place in the order. */
  prefer?: (a: T, b: T) => boolean;
}

/** Keeps the first of each group of near-duplicates (callers pass the list best first), up to `k`. */
export function dedupe<T>(items: T[], text: (t: T) => string, k: number, opts: DedupeOptions<T> = {}): T[] {
  const jt = opts.jaccard ?? 0.6;
  const ct = opts.containment ?? 0.8;
  const kept: { item: T; sh: Set<string>; exact: string }[] = [];
  for (const item of items) {
    if (kept.length >= k) break;
    const t = text(item);
    const exact = hashText(t.replace(/\s+/g, ' ').trim().toLowerCase());
    const sh = shingles(t);
    const dup = kept.findIndex((x) => {
      if (x.exact === exact) return true;
      const s = similarity(sh, x.sh);
      // Containment only means something for passages with a few shingles of their own.
      return s.jaccard >= jt || (Math.min(sh.size, x.sh.size) >= 5 && s.containment >= ct);
    });
    const dupOf = kept[dup];
    if (dupOf) {
      if (opts.prefer?.(item, dupOf.item)) kept[dup] = { item, sh, exact };
      continue;
    }
    kept.push({ item, sh, exact });
  }
  return kept.map((x) => x.item);
}
