/** Whether the draft writes a search query with each step.
 *
 * A query costs the draft about a third of its tokens (a short query and its field per step), and
 * the draft's length is most of the time to an answer. A model-written query is worth that only
 * where a step's own words cannot do its job: when the step's query may search the web (the run's
 * context is network-safe, flow.ts: a search engine needs a short query, not a sentence), or when
 * a source is in another language than the question (the query is written in both, prompts.ts
 * queryLanguageRule). Otherwise step queries only rank text on this computer (open tabs, and
 * the pages the gate's searches found), and the step's own words do that (prompts.ts
 * fallbackQuery); a step that changes then writes no queries either: the words its revision
 * brought in are added to the later steps' (prompts.ts causalQuery, chain.ts). */
import type { CatalogueEntry } from '../core/passage';
import { networkSafe, type TextOrigin } from '../core/flow';
import { guessLanguage } from '../core/text';

export function draftWritesQueries(origins: readonly TextOrigin[], question: string, catalogue: readonly CatalogueEntry[]): boolean {
  if (networkSafe(origins)) return true;
  // Latin script counts as English (guessLanguage): a French tab beside an English question, or
  // a German question, keeps its queries (the cautious side: only tokens are at stake).
  const asked = guessLanguage(question);
  return catalogue.some((c) => !!c.lang && primaryLanguage(c.lang) !== asked);
}

function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}
