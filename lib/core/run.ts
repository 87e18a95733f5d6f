/** A run: what was asked, what the pipeline decided and found, and what it answered.
 * The same object is the stored record (IndexedDB), the checkpoint a restarted worker resumes
 * from, and what the side panel renders; `applyEvent` in ./run-state.ts is the only way it
 * changes while a run is live. */
import type { Passage, SourceStatus, Origin, ProviderError } from './passage';
import type { Usage } from './usage';
import type { Verdict } from './verdicts';

export type { Verdict };

/** ask: a question; verify: a selection checked claim by claim; page: the article of the page the
 * user is on, checked claim by claim ("Check this page"). */
export type RunMode = 'ask' | 'verify' | 'page';

/** Where a text came from (lib/pipeline/flow.ts): typed by the user, selected by the user, the
 * page the user is on, other open tabs (titles and addresses included), web results. A model's
 * output has the origins of everything its call saw. */
export type TextOrigin = 'typed' | 'selected' | 'page' | 'tab' | 'web';
export type RunStatus = 'running' | 'done' | 'error' | 'cancelled' | 'interrupted';

export interface PageContext {
  /** Ask mode: without query string or fragment (only the document's address reaches the model). */
  url: string;
  title: string;
  /** Text around the selection (verify) or the start of the page's readable text (ask). */
  surrounding?: string;
  tabId?: number;
  /** The tab shows a PDF (the browser's viewer): no marks can be drawn in it. */
  pdf?: boolean;
  /** Ask mode: what the user has selected in the tab, if anything. */
  selection?: string;
  /** Ask mode: the page's readable text (capped), the primary source when the gate finds the
   * question is about the page itself. */
  text?: string;
  lang?: string;
}

/** One earlier question of the thread and what it was answered (plain text, markers removed). */
export interface ThreadTurn {
  question: string;
  answer: string;
  /** Where the question's text came from (default: typed). */
  questionOrigins?: TextOrigin[];
  /** What the run that wrote the answer could read (default: anything). */
  answerOrigins?: TextOrigin[];
}

/** The conversation a question belongs to. `turns` are filled in by the worker from the store. */
export interface ThreadRef {
  id: string;
  turns?: ThreadTurn[];
}

/** Which open tabs a question may read: the page the user is on, the tabs of one window, all
 * windows, or tabs the user picked; and whether the web is searched. */
export type TabScope = 'page' | 'window' | 'all' | 'chosen';
export interface SourceScope {
  tabs: TabScope;
  /** 'window': the panel's window. */
  windowId?: number;
  /** 'page' and 'chosen': the tabs to read. */
  tabIds?: number[];
  web: boolean;
  /** The page the user is on, by its tab: `page: false` leaves it out (the composer's "this page"
   * chip removed), whatever the tabs choice says. */
  pageTabId?: number;
  page?: boolean;
}

export interface RunInput {
  /** The user's question (ask mode), the selected text (verify mode) or the page's visible
   * article text (page mode). */
  text: string;
  page?: PageContext;
  /** "Check with sources anyway": skip the confidence gate and always retrieve. */
  forceRetrieval?: boolean;
  thread?: ThreadRef;
  /** Ask mode: the sources chosen in the panel (default: the settings' tab scope and the web). */
  scope?: SourceScope;
  /** The user edited the gate's "Understood as" rewrite: `text` is the question as they want it
   * understood (not rewritten again), `asked` what they had typed. */
  asked?: string;
  /** Origins of `text` besides what the user typed: a rewrite the user edited keeps the origins
   * of the call that wrote it. */
  origins?: TextOrigin[];
  /** Verify: sentences of the selection hidden on the page (lib/retrieval/visible-selection.ts),
   * left out of `text`: neither checked nor marked. */
  hiddenSentences?: number;
}

export type ClarityLabel = 'clear' | 'incomplete' | 'ambiguous';

export interface SubDecision {
  question: string;
  beta: number;
  retrieve: boolean;
  /** Needs the answer of the sub-question before it (run after it, not in parallel). */
  dependsOnPrevious?: boolean;
}

export interface GateDecision {
  label: ClarityLabel;
  /** Set when the label is 'incomplete'. */
  rewritten?: string;
  /** Set when the label is 'ambiguous' (2–4 entries). */
  subQuestions?: string[];
  /** Confidence of the model in answering unaided, in [0, 1] (for a split question: the lowest). */
  beta: number;
  betaThreshold: number;
  retrieve: boolean;
  /** Per sub-question decisions, when split. */
  parts?: SubDecision[];
  /** The model's assessment could not be read: the question was taken as asked and checked
   * against sources. */
  unreadable?: boolean;
  /** Verify mode: the model found no separate claims, so the selection is checked as one. */
  wholeSelection?: boolean;
  /** The question is about the page the user is on: its text is read first (primary source). */
  aboutPage?: boolean;
  /** What the gate call saw (lib/core/flow.ts gateView): its rewrite carries these origins. */
  origins?: TextOrigin[];
  /** Page check: how many check-worthy claims the page gave (set once they are all listed; the
   * run's steps are the claims checked, at most the budget). */
  found?: number;
  /** Page check: the page text was longer than the claims were read from (characters read). */
  readChars?: number;
}


export interface WebPlan {
  queries: string[];
  /** What the call that wrote them saw. */
  origins: TextOrigin[];
}

/** Why a speculative revision was discarded. */
export type DiscardReason = 'earlier-changed' | 'context-changed' | 'server-queues' | 'server-limits';

/** Why speculative revision is off for a run (said in the trace). */
export type SpeculationOff = 'setting' | 'one-at-a-time' | 'queueing' | 'rate-limit';

export type StepStatus = 'pending' | 'running' | 'revised' | 'unchanged' | 'malformed';

export interface StepQuery {
  round: number;
  query: string;
  passages: Passage[];
  /** The progress tracker's judgement after this round. */
  sufficient?: boolean;
}

export interface StepState {
  index: number;
  /** Which sub-question this step belongs to, when the question was split. */
  part?: number;
  draft: string;
  revised?: string;
  /** Streaming text of the revision, while it runs. */
  revising?: string;
  status: StepStatus;
  queries: StepQuery[];
  /** Passage ids the revision cites (validated). */
  citations: string[];
  /** Validated quote per cited passage id, when the model gave one. */
  quotes?: Record<string, string>;
  /** Verify mode: the sentence of the selection this claim came from. */
  sentence?: string;
  verdict?: Verdict;
  note?: string;
  /** Committed as changed, while its reply still writes the later steps' queries. */
  queriesPending?: boolean;
  /** Revised speculatively (in parallel with the steps before it) and kept. */
  speculative?: boolean;
  /** Speculative revisions of this step that were discarded, with why. */
  discarded?: DiscardReason[];
}

/** A numbered source of the final answer, in order of first use. */
export interface Source {
  n: number;
  passageId: string;
  url: string;
  title: string;
  site: string;
  origin: Origin;
  quote: string;
  tabId?: number;
  start?: number;
  end?: number;
  /** PDF page of the passage (1-based): shown as "p. 3", opened with #page=3. */
  page?: number;
  /** Further quotes other steps took from the same passage (one number, several facts). */
  more?: SourceQuote[];
}

export type SourceQuote = Pick<Source, 'quote' | 'start' | 'end'>;

export interface ClaimResult {
  /** The self-contained claim that was checked. */
  claim: string;
  /** The sentence of the selection it came from (to mark it in the page). */
  sentence: string;
  verdict: Verdict;
  corrected?: string;
  explanation?: string;
  /** Source numbers (1-based) backing the verdict. */
  sources: number[];
  /** Page check: a hash of the sentence as the page showed it (./sentence-hash.ts), so a later
   * visit can tell which checked sentences are still there, unchanged. */
  sentenceHash?: string;
}

export type ErrorCode =
  | 'not-configured'
  | 'auth'
  | 'forbidden'
  | 'ollama-origin'
  /** Nothing answers at an Ollama address: Ollama is not running. */
  | 'ollama-down'
  /** The server answers but does not let an extension read its replies (no CORS headers). */
  | 'no-cors'
  | 'unreachable'
  /** An API endpoint answered with a redirect to another address, which Ratify does not follow. */
  | 'redirected'
  | 'rate-limit'
  | 'timeout'
  | 'server'
  | 'model-not-found'
  | 'bad-output'
  /** The prompt does not fit the model's context window (or the server's request size, 413). */
  | 'context-length'
  /** The base URL answers with a web page, not the API. */
  | 'not-an-api'
  /** The answer hit the output limit even with a larger budget. */
  | 'output-limit'
  /** The built-in model does not handle the input's language. */
  | 'unsupported-language'
  | 'empty-input'
  | 'too-long'
  | 'cancelled'
  | 'interrupted'
  | 'unknown';

export interface RunError {
  code: ErrorCode;
  /** Plain English; the UI shows a translated text by code and keeps this as detail. */
  message: string;
  /** HTTP status, when the error came from a server. */
  status?: number;
  /** Seconds the server asked us to wait (429). */
  retryAfter?: number;
  stage?: string;
  /** Input over its limit ('too-long'): its length and the limit, in characters. */
  length?: number;
  limit?: number;
}

export interface PartAnswer {
  markdown: string;
  citations: string[];
}

export interface Run {
  id: string;
  createdAt: number;
  updatedAt: number;
  mode: RunMode;
  input: RunInput;
  status: RunStatus;
  /** Model and endpoint host used, for the trace. */
  model?: string;
  /** What the run's calls after the gate may see (flow.ts contextOrigins): the answer carries it. */
  origins?: TextOrigin[];
  /** The web searches of the run, written by a call that saw only network-safe text. */
  webPlan?: WebPlan;
  gate?: GateDecision;
  /** Streaming text of the draft, while it runs. */
  draftText?: string;
  steps: StepState[];
  /** Everything the library looked at (tabs read/skipped, search results), for the trace. */
  library: SourceStatus[];
  providerErrors: ProviderError[];
  /** Streaming or final answer, Markdown with [n] citation markers. */
  answer?: string;
  /** The answer is complete (its `answer` event came). A run that stopped with a streamed but
   * unfinished answer keeps it without citation markers, and says it is unfinished. */
  answerFinal?: boolean;
  sources: Source[];
  /** Verify mode. */
  claims?: ClaimResult[];
  corrected?: string;
  /** Answers of the sub-questions of an ambiguous question, by part (plain text; `citations` are
   * the passage ids each one rests on). The composed answer is `answer`. */
  partAnswers?: PartAnswer[];
  droppedCitations: number;
  /** Set when speculative revision was off for a reason the user did not choose. */
  speculationOff?: SpeculationOff;
  usage?: Usage;
  /** Characters a thinking model thought, by stage (the latest call of that stage); never its
   * answer. The trace shows it folded, as "thinking…" with its length. */
  thinking?: Record<string, number>;
  error?: RunError;
}

/** The one event type a run emits. Events come in causal order: a step's step-done before the
 * answer its call produced; `error` (if any) right before `done`, which is always last. */
export type RunEvent =
  | { type: 'gate'; decision: GateDecision }
  | { type: 'draft-delta'; text: string }
  /** The draft's steps (verify: the claims). With `append`, the steps are added to those already
   * there (sub-questions draft in parallel) and carry their own `index`. */
  | { type: 'draft'; steps: { text: string; part?: number; index?: number; sentence?: string }[]; append?: boolean }
  | { type: 'library'; sources: SourceStatus[]; errors?: ProviderError[] }
  | { type: 'step-started'; index: number }
  /** What the run's later calls may see (set once, at the start). */
  | { type: 'flow'; origins: TextOrigin[] }
  /** The web searches, written by the gate (ask) or the search plan (verify). */
  | { type: 'web-plan'; plan: WebPlan }
  | { type: 'query'; index: number; round: number; query: string }
  | { type: 'passages'; index: number; round: number; passages: Passage[]; sufficient?: boolean }
  | { type: 'revision-delta'; index: number; text: string }
  | { type: 'step-done'; index: number; revised: string; status: StepStatus; citations: string[]; verdict?: Verdict; note?: string; quotes?: Record<string, string>; queriesPending?: true }
  /** Check this page: a claim's verdict, on validated citations, as soon as it has streamed (its
   * sentence is marked); its step-done, with the correction and the explanation, follows. */
  | { type: 'step-verdict'; index: number; verdict: Verdict; citations: string[] }
  /** A changed step's queries for the later steps, written after it was committed. */
  | { type: 'next-queries'; index: number; queries: { index: number; query: string }[] }
  | { type: 'citation-dropped'; index: number; passageId: string; reason: string }
  /** A speculative revision of a step was kept (its context was exact) or discarded. */
  | { type: 'speculation'; index: number; outcome: 'accepted' } | { type: 'speculation'; index: number; outcome: 'discarded'; reason: DiscardReason }
  | { type: 'speculation-off'; reason: SpeculationOff }
  | { type: 'answer-delta'; text: string }
  /** A half-streamed answer is dropped (it is about to be written again). */
  | { type: 'answer-reset' }
  /** The answer of one sub-question (ambiguous questions), before the composed answer. */
  | { type: 'part-answer'; part: number; markdown: string; citations: string[] }
  | { type: 'answer'; markdown: string; sources: Source[] }
  | { type: 'claims'; claims: ClaimResult[]; corrected: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'thinking'; stage: string; chars: number }
  | { type: 'error'; error: RunError }
  | { type: 'done'; status: Exclude<RunStatus, 'running'> }
  /** A stopped run (interrupted, error) continues from its checkpoint: status back to running. */
  | { type: 'resume' };
