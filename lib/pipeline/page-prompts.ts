/** The prompts of "Check this page": listing the page's claims (a call that sees the page and
 * nothing else, so its queries may go to web search), and checking one claim against evidence. */
import type { ChatMessage } from '../llm/types';
import type { AliasMap } from './citations';
import { dataBlock, passageBlocks, system } from './prompts';
import { MARK, SECTION } from '../core/prompt-sections';

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
      `The user wants the article on the page they are reading fact-checked. List its check-worthy, verifiable factual claims, ${MARK.atMost(x.maxClaims)}, the most check-worthy first.`,
      'A claim is verifiable when sources could confirm or refute it: events, dates, numbers, names, places, records, who did or said what. Opinions, questions, predictions, advice, jokes and the site\'s own notices are not claims; leave them out. Merge claims that say the same thing.',
      'Write each "claim" as one self-contained sentence: replace pronouns and vague references ("it", "she", "the company", "the tower") with what they refer to, turn relative dates into absolute ones using the article, and add nothing the article does not say.',
      'For each claim, first "query": a short, specific web search query (key names and terms) that would find evidence for it; then "claim"; then "sentence": the sentence of the article it comes from, copied exactly; then "worthiness" (0 to 1): how much it matters whether the claim is true: specific figures, dates and events central to the article are high, background trivia low.',
    ),
    { role: 'user', content: `The article:\n${dataBlock({ kind: 'page', title: x.title, url: x.url }, x.text, x.text.length + 10)}` },
  ];
}

/** Characters of each passage a claim's check reads, around the sentence that matches the claim:
 * a page is many checks, and each one's prompt is the time to its verdict (bench part 6). */
const EVIDENCE_CHARS = 900;

export interface PageCheckInput {
  claim: string;
  /** The page's sentence it was drawn from, as context. */
  sentence: string;
  title: string;
  query: string;
  round: number;
  finalRound: boolean;
  passages: AliasMap;
}

/** One claim of the page against its evidence. Its "retryQuery" searches the open tabs only (this
 * call has read them): the web is searched with the claims call's queries alone. It is not shown
 * the tabs' catalogue: it writes no query that leaves the machine. */
export function pageCheckMessages(x: PageCheckInput): ChatMessage[] {
  return [
    system(
      'You fact-check one claim from an article the user is reading, against retrieved evidence. The article itself is not evidence.',
      'First "citations": the evidence you rely on, each with its id (P1, P2, …) and "quote", a short span (at most 15 words) copied exactly from that passage.',
      'Then "verdict": "supported" if the evidence confirms the claim; "corrected" if a detail is wrong and the evidence shows the right one; "refuted" if the evidence contradicts the claim as a whole; "unverifiable" if the evidence does not settle it (absence of evidence is not refutation).',
      'Then "corrected": the claim as it should read given the evidence, changing only what is wrong (the claim unchanged when supported or unverifiable); and "explanation": one short sentence saying why.',
      x.finalRound ? `"retryQuery": "" ${MARK.lastRound}.` : '"retryQuery": only when the verdict is "unverifiable", a different query that would find what is still missing for this claim; else "".',
    ),
    {
      role: 'user',
      content:
        `${SECTION.claim}: ${x.claim}\n\nIn the article:\n${dataBlock({ kind: 'page', title: x.title }, x.sentence, 1000)}\n\n` +
        `${x.round > 1 ? `${SECTION.searchRound}: ${x.round}\n\n` : ''}${SECTION.searchQuery}: ${x.query}\n\n${SECTION.evidence}:\n${passageBlocks(x.passages, { focus: `${x.claim} ${x.query}`, max: EVIDENCE_CHARS })}`,
    },
  ];
}
