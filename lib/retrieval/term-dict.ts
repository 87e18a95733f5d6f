/** The ranker's term dictionary: tokens become dense integer ids. One process-wide dictionary, so
 * cached analyses of pages stay valid across indexes. Plus the token-sequence helpers the ranker
 * uses to find names and phrases. */
const dict = new Map<string, number>();

export function termId(t: string): number {
  let id = dict.get(t);
  if (id === undefined) {
    id = dict.size;
    dict.set(t, id);
  }
  return id;
}

/** A token's id, or -1 when no indexed text has it. */
export const lookupTerm = (t: string): number => dict.get(t) ?? -1;

/** How many distinct terms the dictionary holds. */
export const termCount = (): number => dict.size;

/** Where `needle` first occurs contiguously in `hay`, or -1. */
export function indexOfSeq(hay: ArrayLike<number>, needle: ArrayLike<number>): number {
  const n = needle.length;
  if (n === 0 || n > hay.length) return -1;
  outer: for (let i = 0; i + n <= hay.length; i++) {
    if (hay[i] !== needle[0]) continue;
    for (let j = 1; j < n; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export const containsSeq = (hay: ArrayLike<number>, needle: ArrayLike<number>): boolean => indexOfSeq(hay, needle) >= 0;
