/** The prompts of "Check this page": listing the page's claims (a call that sees the page and
 * nothing else, so its queries may go to web search), and checking one claim against evidence. */
import type { ChatMessage } from '../llm/types';
import type { CatalogueEntry } from '../retrieval/types';
import type { AliasMap } from './citations';
import { catalogueBlock, dataBlock, passageBlocks, roundRule, system } from './prompts';

export interface PageClaimsInput {
  /** The page's visible article text (as much as is read). */
  text: string;
  title: string;
  url: string;
  maxClaims: number;
}

/** What the claims call is told. It sees the page the user chose to check and nothing else: no
 * other tab, no catalogue, no earlier answer. */
export function pageClaimsMessages(x: PageClaimsInput): ChatMessage[] {
  return [
    system(
      `The user wants the article on the page they are reading fact-checked. List its check-worthy, verifiable factual claims, at most ${x.maxClaims}, the most check-worthy first.`,
      'A claim is verifiable when sources could confirm or refute it: events, dates, numbers, names, places, records, who did or said what. Opinions, questions, predictions, advice, jokes and the site\'s own notices are not claims; leave them out. Merge claims that say the same thing.',
      'Write each "claim" as one self-contained sentence: replace pronouns and vague references ("it", "she", "the company", "the tower") with what they refer to, turn relative dates into absolute ones using the article, and add nothing the article does not say.',
      '"sentence": the sentence of the article the claim comes from, copied exactly. "worthiness" (0 to 1): how much it matters whether the claim is true: specific figures, dates and events central to the article are high, background trivia low. "query": a short, specific web search query (key names and terms) that would find evidence for this claim.',
    ),
    { role: 'user', content: `The article:\n${dataBlock({ kind: 'page', title: x.title, url: x.url }, x.text, x.text.length + 10)}` },
  ];
}

export interface PageCheckInput {
  claim: string;
  /** The page's sentence it was drawn from, as context. */
  sentence: string;
  title: string;
  query: string;
  round: number;
  finalRound: boolean;
  passages: AliasMap;
  catalogue?: CatalogueEntry[];
}

/** One claim of the page against its evidence. Its "retryQuery" searches the open tabs only (this
 * call has read them): the web is searched with the claims call's queries alone. */
export function pageCheckMessages(x: PageCheckInput): ChatMessage[] {
  return [
    system(
      'You fact-check one claim from an article the user is reading, against retrieved evidence. The article itself is not evidence.',
      '"verdict": "supported" if the evidence confirms the claim; "corrected" if a detail is wrong and the evidence shows the right one; "refuted" if the evidence contradicts the claim as a whole; "unverifiable" if the evidence does not settle it (absence of evidence is not refutation).',
      '"corrected": the claim as it should read given the evidence, changing only what is wrong (the claim unchanged when supported or unverifiable). "explanation": one short sentence saying why.',
      '"citations": the evidence you relied on, each with its id (P1, P2, …) and "quote", a short span (at most 25 words) copied exactly from that passage.',
      roundRule(x.finalRound, 'claim'),
    ),
    {
      role: 'user',
      content:
        `Claim: ${x.claim}\n\nIn the article:\n${dataBlock({ kind: 'page', title: x.title }, x.sentence, 1000)}\n\n` +
        `${x.round > 1 ? `Search round: ${x.round}\n\n` : ''}Search query used: ${x.query}\n\nEvidence:\n${passageBlocks(x.passages)}${catalogueBlock(x.catalogue)}`,
    },
  ];
}
