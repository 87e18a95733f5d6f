/**
 * The labels and marker sentences that give Ratify's prompts their structure: the model reads
 * them as the prompt's headings ("Question: …", "Later steps (drafts):") and as the rules that say
 * where a call stands ("This is the last step."). The prompts (lib/pipeline/prompts.ts,
 * page-prompts.ts) write them from here, and the tests' scripted model (test/harness/prompt-reader.ts)
 * finds its place by the same constants, so a prompt reworded here is read the same way by both.
 */

/** Labels of the user message's lines (`${label}: value`) and headings of its lists and blocks
 * (`${label}:` on a line of its own). */
export const SECTION = {
  question: 'Question',
  /** The chain's position: "Current step: 2 of 6 (search round 2)" (see position()). */
  currentStep: 'Current step',
  draft: 'Draft of the current step',
  stepsSoFar: 'Steps so far (fixed)',
  laterSteps: 'Later steps (drafts)',
  /** A lean revision prompt shows the next step alone. */
  nextStep: 'Next step (draft)',
  currentClaim: 'Current claim',
  claim: 'Claim',
  claimsSoFar: 'Claims checked so far, as they now stand',
  laterClaims: 'Later claims',
  /** A page check's round, on a line of its own ("Search round: 2"). */
  searchRound: 'Search round',
  searchQuery: 'Search query used',
  evidence: 'Evidence',
  /** The compose call's evidence, which its answer may cite. */
  citableEvidence: 'Evidence (citable)',
  earlierEvidence: 'Evidence found for the earlier steps (citable in the answer)',
  /** The answer written beside the last step's revision: every step, as it stands. */
  allSteps: 'Steps',
  /** An answer's parts, for the compose call (ask), each under `## heading`. */
  findings: 'Findings',
  /** A verification's checks, for the compose call (verify), one per line. */
  checks: 'Checks',
} as const;

/** "2 of 6 (search round 2)": where a step or claim stands in its chain. The count is left out of
 * a lean prompt, the round before the second. */
export function position(at: number, total: number | undefined, round: number): string {
  return `${at}${total === undefined ? '' : ` ${POSITION.of} ${total}`}${round > 1 ? ` (${POSITION.round} ${round})` : ''}`;
}
/** The words of position(). */
export const POSITION = { of: 'of', round: 'search round' } as const;

/** Sentences of the system message that tell the model where this call stands. */
export const MARK = {
  /** A revision that also writes the final answer. */
  lastStep: 'This is the last step.',
  /** A claim's check that also writes the corrected passage. */
  lastClaim: 'This is the last claim.',
  /** No further search round follows this one (in the round rule of every check). */
  lastRound: '(this is the last search round)',
  /** The step before changed but wrote the next step's query only: this one writes all later ones. */
  allLaterQueries: 'whether or not this step changed',
  /** The draft writes a search query with each step (draft-queries.ts says when). */
  draftQuery: 'With each step, "query"',
  /** How many items a list may hold: "at most 12". */
  atMost: (n: number | string): string => `at most ${n}`,
  /** For endpoints without json_schema, the system message names the reply's schema (the stage). */
  schema: (name: string): string => `for the schema "${name}"`,
} as const;
