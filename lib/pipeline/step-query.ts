/** Search queries made in code, without the model: a step's own words when the model wrote no
 * query, and the words the revisions before a step brought in (causal queries where the model
 * writes none: chain.ts `modelQueries`). */
import { STOPWORDS } from '../retrieval/tokenize';

/** A search query made without the model (when the model's own query is missing): the step's
 * words first, then the question's, trimmed to what a search box takes. */
export function fallbackQuery(step: string, question: string, maxWords = 16): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of [...queryWords(step), ...queryWords(question)]) {
    const k = wordKey(w);
    if (seen.has(k) || STOPWORDS.has(k)) continue;
    seen.add(k);
    out.push(w.replace(/^[\p{P}]+|[\p{P}]+$/gu, ''));
    if (out.length >= maxWords) break;
  }
  return out.join(' ') || question.slice(0, 200);
}

const queryWords = (s: string) => s.replace(/\[[A-Za-z]?\d+\]/g, ' ').split(/\s+/).filter((w) => w.replace(/[\p{P}\p{S}]/gu, '').length > 0);
const wordKey = (w: string) => w.toLowerCase().replace(/[\p{P}\p{S}]/gu, '');

/** Words a step's query takes from the revisions before it. */
const CORRECTION_WORDS = 8;

/** The part of a revision still streaming that the later steps' queries can already be made
 * from: its complete words, once it has brought in a word its draft had not and then gone on with
 * a content word its draft had (the correction is written; what follows is the drafted text again,
 * so the words a later query takes from it are unlikely to grow), with the words it brought in.
 * Undefined before that. */
export function settledRevision(draft: string, partial: string): { text: string; brought: string } | undefined {
  const end = /\s\S*$/.exec(partial)?.index ?? -1;
  if (end <= 0) return undefined;
  const text = partial.slice(0, end);
  const drafted = new Set(queryWords(draft).map(wordKey));
  let brought = false;
  let lastDrafted = false;
  for (const w of queryWords(text)) {
    const k = wordKey(w);
    if (!k || STOPWORDS.has(k)) continue;
    lastDrafted = drafted.has(k);
    brought ||= !lastDrafted;
  }
  return brought && lastDrafted ? { text, brought: causalQuery('', [{ draft, revised: text }]).trim() } : undefined;
}

/** A step's planned query (`base`: the draft's, or made from the step's own words), followed by
 * what the revisions of the steps before it brought in: the words a revised step has and its
 * draft had not, the latest revision's first. So a correction reaches the later steps' searches
 * (causal queries, RAT Algorithm 1) without the model writing them; with nothing revised before
 * it, the planned query itself (and the same again if `base` already has them). */
export function causalQuery(base: string, before: readonly { draft: string; revised?: string }[]): string {
  const seen = new Set(queryWords(base).map(wordKey));
  const extra: string[] = [];
  for (const s of [...before].reverse()) {
    if (s.revised === undefined) continue;
    const drafted = new Set(queryWords(s.draft).map(wordKey));
    for (const w of queryWords(s.revised)) {
      const k = wordKey(w);
      if (extra.length >= CORRECTION_WORDS || !k || seen.has(k) || drafted.has(k) || STOPWORDS.has(k)) continue;
      seen.add(k);
      extra.push(w.replace(/^[\p{P}]+|[\p{P}]+$/gu, ''));
    }
  }
  return extra.length ? `${base} ${extra.join(' ')}` : base;
}
