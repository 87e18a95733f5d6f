/** The Refiner (IM-RAG, without training): merge what the rounds of one step found, drop
 * near-duplicates, rerank against the step and its query, keep the top k. Lexical, with the
 * library's own ranker over the candidates themselves (lib/retrieval: one tokenizer, one ranker),
 * so it costs no model call and works in any script. */
import { rankPassages } from '../retrieval/rank';
import { tokenize } from '../retrieval/tokenize';
import type { Passage } from '../core/passage';


function fingerprint(text: string): string {
  return tokenize(text).slice(0, 40).join(' ');
}

/** Top `k` of `candidates` for `focus` (query + step text). Keeps the library's order as a
 * tie-break and never returns a passage twice (by id or near-identical text). */
export function refine(candidates: Passage[], focus: string, k: number): Passage[] {
  const seenId = new Set<string>();
  const seenText = new Set<string>();
  const unique: Passage[] = [];
  for (const p of candidates) {
    const fp = fingerprint(p.text);
    if (seenId.has(p.id) || (fp && seenText.has(fp))) continue;
    seenId.add(p.id);
    seenText.add(fp);
    unique.push(p);
  }
  if (unique.length <= k) return unique;
  const scores = new Map(rankPassages(focus, unique).map((r) => [r.passage.id, r.score]));
  const top = Math.max(1e-9, ...scores.values());
  // The library's own rank still counts a little: it may know more (embeddings, other queries).
  const ranked = unique.map((p, i) => ({ p, s: (scores.get(p.id) ?? 0) / top + (0.01 * (unique.length - i)) / unique.length }));
  ranked.sort((a, b) => b.s - a.s);
  return ranked.slice(0, k).map((r) => r.p);
}
