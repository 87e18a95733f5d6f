/** Which checked sentences a page still shows: a page check stores a hash of each claim's sentence
 * as the page showed it; on a later visit the page's visible text is cut into sentences the same
 * way and hashed again. A sentence whose text changed (a corrected figure, an edit) no longer
 * matches, so its old verdict is not drawn on new text. */
import { sentenceSpans } from '../retrieval/passages';
import { hashText } from '../core/text';
import { fold } from './corrected-text';

export function sentenceHash(sentence: string): string {
  return hashText(fold(sentence));
}

/** Hashes of the text's sentences, and of runs of up to `span` consecutive ones (a claim's
 * sentence may be two of the segmenter's: "Dr. Smith …"). */
export function sentenceHashes(text: string, span = 3): Set<string> {
  const spans = sentenceSpans(text);
  const out = new Set<string>();
  for (let i = 0; i < spans.length; i++)
    for (let j = i; j < Math.min(spans.length, i + span); j++) out.add(sentenceHash(text.slice((spans[i] as [number, number])[0], (spans[j] as [number, number])[1])));
  return out;
}
