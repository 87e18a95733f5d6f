/** The Refiner (IM-RAG, without training): merge what the rounds of one step found, drop
 * near-duplicates, keep k for the model. It never loses what the library ranked best for the
 * step's query: the library ranked with the whole library's statistics (and embeddings), which a
 * re-ranking of a few candidates cannot match, so half the places go to its top passages in its
 * order. The step's text adds evidence only through what it says beyond the query: a candidate
 * that holds most of those words (by weight) comes next, else the library's order goes on. No
 * model call; one tokenizer (lib/retrieval/tokenize.ts). */
import { tokenize } from '../retrieval/tokenize';
import type { Passage } from '../core/passage';

/** Share of the weight of the step's own words (those its query lacks) a passage must hold to be
 * taken for them ahead of the library's order. */
const COVER = 0.5;

function fingerprint(text: string): string {
  return tokenize(text).slice(0, 40).join(' ');
}

export interface RefineFocus {
  /** The query this round's passages were retrieved for. */
  query: string;
  /** The step's text (its draft). */
  draft: string;
  /** This round's passages in the library's order for `query` (round 1: all the candidates). */
  top: Passage[];
}

/** The k passages given to the model: the library's best for the query (⌈k/2⌉ of them), then the
 * candidates that hold at least COVER of the draft's own words (most first), then the library's
 * order (this round's passages, then earlier rounds'). Never a passage twice (by id or
 * near-identical text). */
export function refine(candidates: Passage[], focus: RefineFocus, k: number): Passage[] {
  const seenText = new Set<string>();
  const unique = new Map<string, Passage>();
  for (const p of [...focus.top, ...candidates]) {
    if (unique.has(p.id)) continue;
    const fp = fingerprint(p.text);
    if (fp && seenText.has(fp)) continue;
    seenText.add(fp);
    unique.set(p.id, p);
  }
  const order = [...unique.values()];
  if (order.length <= k) return order;
  const topIds = new Set(focus.top.map((p) => p.id));
  const keep = order.filter((p) => topIds.has(p.id)).slice(0, Math.ceil(k / 2));
  const kept = new Set(keep.map((p) => p.id));
  const rest = order.filter((p) => !kept.has(p.id));
  const covered = byCover(rest, order, ownWords(focus.query, focus.draft));
  const picked = new Set(covered.map((p) => p.id));
  return [...keep, ...covered, ...rest.filter((p) => !picked.has(p.id))].slice(0, k);
}

/** The draft's words that its query does not have (tokens). */
function ownWords(query: string, draft: string): Set<string> {
  const asked = new Set(tokenize(query));
  return new Set(tokenize(draft).filter((t) => !asked.has(t)));
}

/** The passages of `rest` holding at least COVER of `words`' weight, most first; a word weighs
 * more the fewer of `pool`'s passages have it. */
function byCover(rest: Passage[], pool: Passage[], words: Set<string>): Passage[] {
  if (!words.size) return [];
  const has = new Map(pool.map((p) => [p.id, new Set(tokenize(p.text))]));
  const df = new Map<string, number>();
  for (const toks of has.values()) for (const w of words) if (toks.has(w)) df.set(w, (df.get(w) ?? 0) + 1);
  const weight = (w: string) => Math.log(1 + pool.length / (1 + (df.get(w) ?? 0)));
  let mass = 0;
  for (const w of words) mass += weight(w);
  const cover = (p: Passage) => {
    const toks = has.get(p.id);
    let s = 0;
    for (const w of words) if (toks?.has(w)) s += weight(w);
    return s / mass;
  };
  return rest
    .map((p) => ({ p, c: cover(p) }))
    .filter((x) => x.c >= COVER)
    .sort((a, b) => b.c - a.c)
    .map((x) => x.p);
}
