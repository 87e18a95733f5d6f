/** The sentence of a passage that answers: where a citation's quote and its text-fragment link
 * point when the model gave no usable quote. Passages are sized to hold an answer with its
 * context, so the passage's opening is rarely the answer itself. */
import { sentenceSpans } from './passages';
import { tokenize } from './tokenize';
import type { Passage } from '../core/passage';

export interface LocatedSentence {
  text: string;
  /** Offsets in the source's readable text. */
  start: number;
  end: number;
}

/** The passage's sentence sharing the most of `focus`'s words (the step, its query, the
 * question), rarer words counting more within the passage; undefined when none shares any. */
export function answerSentence(p: Passage, focus: string): LocatedSentence | undefined {
  const want = new Set(tokenize(focus));
  if (!want.size) return undefined;
  const spans = sentenceSpans(p.text);
  const toks = spans.map(([s, e]) => tokenize(p.text.slice(s, e)));
  const df = new Map<string, number>();
  for (const t of toks) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
  let best = -1;
  let bestScore = 0;
  toks.forEach((t, i) => {
    let score = 0;
    for (const w of new Set(t)) if (want.has(w)) score += Math.log(1 + spans.length / (df.get(w) ?? 1));
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  const span = spans[best];
  if (!span) return undefined;
  return { text: p.text.slice(span[0], span[1]), start: p.start + span[0], end: p.start + span[1] };
}
