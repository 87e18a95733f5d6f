/**
 * A scripted "model" for Ratify's pipeline: answers every pipeline stage (gate, searches, answer, draft,
 * revise, final-answer, claims, check, compose, page-claims, page-check — the response_format.json_schema.name of each call, see
 * lib/pipeline/stages.ts) from a small scenario, reading the prompt the way a real model would:
 * it finds the current step, the evidence blocks and their ids (`<<<DATA id="P2" …>>>`) in the
 * prompt text, and cites the passage whose text contains a phrase you name.
 *
 *   import { startFakeLlm } from './fake-llm.ts';
 *   import { pipelineResponder } from './pipeline-responder.ts';
 *
 *   const llm = await startFakeLlm({ responder: pipelineResponder({
 *     gate: { label: 'clear', confidence: 0.2 },          // 0.2 < β′ 0.5: retrieve
 *     steps: ['Marie Curie was born in 1867.', 'She won the Nobel Prize in Physics in 1903.'],
 *     facts: [
 *       { step: 0, phrase: 'born 7 November 1867' },       // cite it, keep the step
 *       { step: 1, phrase: 'Nobel Prize in Physics', revised: 'She shared the 1903 Nobel Prize in Physics.' },
 *     ],
 *     finalAnswer: 'Marie Curie (born 1867) shared the 1903 Nobel Prize in Physics.',
 *   }) });
 *
 * Verify mode and Check this page: `claims: [{ claim, sentence, phrase, verdict, corrected }]`. Anything not scripted
 * gets a plausible default (see PipelineScenario). A stage that has no scenario keeps working, so
 * one scenario drives a whole run. Works with the json_schema response format and with the
 * prompt-only fallback (the stage name is then read from the system message). It reads prompts by
 * their structure only (prompt-reader.ts), never by their wording.
 */
import type { LlmRequest, Reply, Responder } from './fake-llm.ts';
import { asksStepQueries, dataBlocks, laterItems, line, listUnder, MARK, markedNumber, positionOf, SECTION, sectionText, stageOf, standing, type DataBlock } from './prompt-reader.ts';

export { dataBlocks, stageOf, type DataBlock } from './prompt-reader.ts';

export type { Verdict } from '../../lib/core/verdicts.ts';
import type { Verdict } from '../../lib/core/verdicts.ts';

export interface Fact {
  /** 0-based step within its chain (default: any step whose evidence contains the phrase). */
  step?: number;
  /** Cite the passage whose text contains this (case-insensitive); quoted as it appears. */
  phrase: string;
  /** The step as revised (default: the draft, unchanged). */
  revised?: string;
}

export interface ScenarioClaim {
  claim: string;
  /** The sentence of the selection it comes from (default: the claim). */
  sentence?: string;
  /** Evidence phrase to cite. */
  phrase?: string;
  /** Default: 'supported' when the phrase is found, else 'unverifiable'. */
  verdict?: Verdict;
  corrected?: string;
  explanation?: string;
  /** Check this page: the claim's web query (default: the claim) and check-worthiness (0.8). */
  query?: string;
  worthiness?: number;
}

export interface PipelineScenario {
  /** Ask-mode gate. Default { label: 'clear', confidence: 0.2 }. */
  gate?: {
    label?: 'clear' | 'incomplete' | 'ambiguous';
    /** The rewrite (incomplete), or a function of the question and the prompt (e.g. to resolve a
     * follow-up from the conversation block, as a model would). */
    question?: string | ((question: string, prompt: string) => string);
    /** The question is about the page the user is on. */
    aboutPage?: boolean;
    subQuestions?: (string | { question: string; confidence?: number; dependsOnPrevious?: boolean })[];
    confidence?: number;
    /** The web searches it writes (default: the question, or its rewrite, as the one query). */
    search?: string[] | ((question: string, prompt: string) => string[]);
  };
  /** Verify mode's search plan (default: one query per sentence of the selection). */
  searches?: string[] | ((selection: string) => string[]);
  /** Direct answer (gate chose not to retrieve). Default "Direct answer to: <question>". */
  answer?: string | ((question: string) => string);
  /** Draft steps (default: one step restating the question). A function gets the (sub-)question. */
  steps?: string[] | ((question: string) => string[]);
  facts?: Fact[];
  /** Rounds until a step's evidence is judged sufficient: one number, or per step (default 1).
   * Before that, the step asks again with `retryQuery` (default: the fact's phrase). */
  roundsNeeded?: number | number[];
  retryQuery?: (step: number, round: number) => string;
  /** The query for a step: written by the draft (from the step's draft: `nextQuery('', draft)`),
   * or rewritten by an earlier step that changed (`nextQuery(revisedCurrent, laterDraft)`).
   * Default: both joined. Lets a test see which text a query was built from. */
  nextQuery?: (revisedCurrent: string, nextDraft: string) => string;
  /** The answer written with the last step (evidence markers are appended). Default: the revised
   * steps joined. */
  finalAnswer?: string;
  /** Verify mode: the claims (default: one claim per sentence of the selection). */
  claims?: ScenarioClaim[];
  /** Verify mode: the corrected passage (default: the selection with corrected sentences swapped). */
  correctedPassage?: string;
  /** Stages answered with broken JSON: every time, or for the first n calls of that stage. */
  malformed?: Partial<Record<string, number | 'always'>>;
  /** Extra citations with made-up ids or quotes, to exercise citation checks. */
  bogusCitations?: { id: string; quote: string }[];
}

function find(blocks: DataBlock[], phrase: string): { id: string; quote: string } | undefined {
  const p = phrase.toLowerCase();
  for (const b of blocks) {
    const at = b.text.toLowerCase().indexOf(p);
    if (at >= 0 && b.attrs.id) return { id: b.attrs.id, quote: b.text.slice(at, at + phrase.length) };
  }
  return undefined;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const BROKEN = '{"revised": "this reply is cut';

export function pipelineResponder(sc: PipelineScenario = {}): Responder {
  const seen: Record<string, number> = {};
  return (req: LlmRequest): Reply => {
    const stage = stageOf(req) ?? '';
    seen[stage] = (seen[stage] ?? 0) + 1;
    const bad = sc.malformed?.[stage];
    if (bad === 'always' || (typeof bad === 'number' && seen[stage] <= bad)) return { content: BROKEN };
    // A repair round (its reply shown back with what was wrong): like a real model, answer the
    // original task again, reading the prompt it was given.
    const repair = req.messages.at(-2)?.role === 'assistant';
    const user = repair ? (req.messages.filter((m) => m.role === 'user').at(-2)?.content ?? req.lastUser) : req.lastUser;
    const question = line(user, SECTION.question) ?? '';
    const blocks = dataBlocks(user);
    switch (stage) {
      case 'gate':
        return { json: gate(sc, question, user) };
      case 'searches': {
        const selection = blocks.find((b) => b.attrs.kind === 'selection')?.text ?? '';
        return { json: { search: typeof sc.searches === 'function' ? sc.searches(selection) : (sc.searches ?? sentences(selection)) } };
      }
      case 'answer':
        return { json: { answer: typeof sc.answer === 'function' ? sc.answer(question) : (sc.answer ?? `Direct answer to: ${question}`) } };
      case 'draft': {
        const steps = typeof sc.steps === 'function' ? sc.steps(question) : (sc.steps ?? [`Think about: ${question}`]);
        // As a model follows the prompt: a query with each step only when it is asked for one.
        const queries = asksStepQueries(req.system);
        // Without queries the schema asks for the steps as plain strings.
        return { json: { steps: queries ? steps.map((st) => ({ step: st, query: sc.nextQuery ? sc.nextQuery('', st) : st })) : steps } };
      }
      case 'revise':
        return { json: revise(sc, req.system, user) };
      case 'claims': {
        const selection = blocks.find((b) => b.attrs.kind === 'selection')?.text ?? '';
        const claims = sc.claims ?? sentences(selection).map((s) => ({ claim: s, sentence: s }));
        return { json: { label: 'clear', claims: claims.map((c) => ({ claim: c.claim, sentence: c.sentence ?? c.claim })), confidence: 0.5, query: (claims[0] && 'query' in claims[0] ? claims[0].query : undefined) ?? claims[0]?.claim ?? selection } };
      }
      case 'check':
        return { json: check(sc, req.system, user, blocks) };
      case 'page-claims': {
        // As a model reads the article: the scripted claims that come from it, most
        // check-worthy first, at most as many as asked.
        const article = blocks.find((b) => b.attrs.kind === 'page')?.text ?? '';
        const max = markedNumber(req.system, MARK.atMost) ?? 40;
        const claims = (sc.claims ?? sentences(article).map((x): ScenarioClaim => ({ claim: x, sentence: x }))).filter((c) => article.toLowerCase().includes((c.sentence ?? c.claim).toLowerCase()));
        const ranked = [...claims].sort((a, b) => (b.worthiness ?? 0.8) - (a.worthiness ?? 0.8)).slice(0, max);
        return { json: { claims: ranked.map((c) => ({ query: c.query ?? c.claim, claim: c.claim, sentence: c.sentence ?? c.claim, worthiness: c.worthiness ?? 0.8 })) } };
      }
      case 'page-check': {
        // A verdict settles the claim; until the evidence does, it is "unverifiable" and asks for
        // another round (unless this is the last).
        const { nextQueries: _later, sufficient, ...out } = check(sc, req.system, user, blocks);
        const last = standing(req.system).lastRound;
        const claim = line(user, SECTION.claim) ?? '';
        if (sufficient || last) return { json: { ...out, retryQuery: '' } };
        return { json: { citations: [], verdict: 'unverifiable', corrected: claim, explanation: 'The evidence so far does not settle it.', retryQuery: sc.claims?.find((x) => x.claim === claim)?.phrase ?? claim } };
      }
      case 'final-answer': {
        // The answer beside the last step's revision: as the revision would write it, from the
        // steps shown, citing the evidence that holds one of their facts.
        const all = blocks.filter((b) => b.attrs.id);
        const ids = [...new Set((sc.facts ?? []).flatMap((f) => find(all, f.phrase)?.id ?? []))];
        const body = sc.finalAnswer ?? listUnder(user, SECTION.allSteps).join(' ');
        return { json: { answer: `${body}${ids.length ? ` [${ids.join(', ')}]` : ''}` } };
      }
      case 'compose': {
        const ids = blocks.filter((b) => b.attrs.id).map((b) => b.attrs.id);
        const findings = sectionText(user, SECTION.findings, [SECTION.citableEvidence]) ?? sectionText(user, SECTION.checks, [SECTION.citableEvidence]) ?? '';
        const body = findings.replace(/^## .*$/gm, '').replace(/\(evidence: [^)]*\)/g, '').replace(/\s+/g, ' ').trim();
        return { json: { answer: `${sc.finalAnswer ?? body}${ids.length ? ` [${ids.join(', ')}]` : ''}` } };
      }
      default:
        return { content: `Echo: ${user}` };
    }
  };
}

function gate(sc: PipelineScenario, question: string, prompt: string) {
  const g = sc.gate ?? {};
  const label = g.label ?? 'clear';
  const rewrite = typeof g.question === 'function' ? g.question(question, prompt) : g.question;
  return {
    label,
    question: rewrite ?? (label === 'ambiguous' ? '' : question),
    aboutPage: g.aboutPage ?? false,
    subQuestions: (g.subQuestions ?? []).map((s) => (typeof s === 'string' ? { question: s, confidence: 0.2, dependsOnPrevious: false } : { question: s.question, confidence: s.confidence ?? 0.2, dependsOnPrevious: s.dependsOnPrevious ?? false })),
    confidence: g.confidence ?? 0.2,
    search: typeof g.search === 'function' ? g.search(question, prompt) : (g.search ?? [rewrite || question]),
  };
}

function roundsNeeded(sc: PipelineScenario, step: number): number {
  const r = sc.roundsNeeded ?? 1;
  return typeof r === 'number' ? r : (r[step] ?? 1);
}

function revise(sc: PipelineScenario, system: string, user: string) {
  // "Current step: 2 of 6", or "Current step: 2" in a prompt that shows the next step alone.
  const pos = positionOf(user, SECTION.currentStep);
  const step = pos ? pos.at - 1 : 0;
  const round = pos?.round ?? 1;
  const draft = line(user, SECTION.draft) ?? '';
  const later = laterItems(user);
  const marks = standing(system);
  // As the prompt asks: queries for the later steps when the step changed, or in any case.
  const always = marks.allLaterQueries;
  const evidenceText = user.split(`\n\n${SECTION.earlierEvidence}`)[0] ?? user;
  const evidence = dataBlocks(evidenceText).filter((b) => b.attrs.id && b.attrs.origin);
  const facts = (sc.facts ?? []).filter((f) => f.step === undefined || f.step === step);
  const hits = facts.map((f) => ({ f, c: find(evidence, f.phrase) })).filter((h) => h.c);
  const fact = hits[0]?.f ?? facts[0];
  const finalRound = marks.lastRound;
  const sufficient = round >= roundsNeeded(sc, step) && (hits.length > 0 || !facts.length);
  const revised = hits.length ? (fact?.revised ?? draft) : draft;
  const kept = revised === draft;
  const citations = [...hits.map((h) => h.c as { id: string; quote: string }), ...(sc.bogusCitations ?? [])];
  const forNext = sufficient || finalRound;
  const nextQueries = (!kept || always) && forNext ? later.map((d) => (sc.nextQuery ? sc.nextQuery(revised, d) : `${revised} ${d}`)) : [];
  const retryQuery = forNext ? '' : (sc.retryQuery?.(step, round) ?? fact?.phrase ?? draft);
  const out: Record<string, unknown> = { kept, revised: kept ? '' : revised, citations, sufficient, retryQuery, nextQueries };
  // A prompt that asks for no queries (the chain makes them from the steps' words) gets none.
  if (!system.includes('"nextQueries"')) delete out.nextQueries;
  if (marks.lastStep) {
    // No later steps: the last step's schema has no queries for them.
    delete out.nextQueries;
    const before = listUnder(user, SECTION.stepsSoFar);
    // In the answer, cite the evidence found for earlier steps that holds one of their facts.
    const allBlocks = dataBlocks(user).filter((b) => b.attrs.id);
    const earlierIds = (sc.facts ?? []).filter((f) => f.step !== undefined && f.step < step).flatMap((f) => find(allBlocks, f.phrase)?.id ?? []);
    const ids = [...new Set([...earlierIds, ...hits.map((h) => h.c?.id as string)])];
    const body = sc.finalAnswer ?? [...before, revised].join(' ');
    out.answer = forNext ? `${body}${ids.length ? ` [${ids.join(', ')}]` : ''}` : '';
  }
  return out;
}

function check(sc: PipelineScenario, system: string, user: string, blocks: DataBlock[]) {
  const pos = positionOf(user, SECTION.currentClaim);
  const claimText = line(user, SECTION.claim) ?? '';
  // A page's claim says nothing of its position: it is found by its text.
  const i = pos ? pos.at - 1 : Math.max(0, sc.claims?.findIndex((x) => x.claim === claimText) ?? 0);
  const round = pos ? pos.round : Number(line(user, SECTION.searchRound) ?? 1);
  const laterClaims = listUnder(user, SECTION.laterClaims);
  const marks = standing(system);
  const c = sc.claims?.find((x) => x.claim === claimText) ?? (pos ? sc.claims?.[i] : undefined);
  const evidence = blocks.filter((b) => b.attrs.id);
  const hit = c?.phrase ? find(evidence, c.phrase) : undefined;
  const verdict: Verdict = c?.verdict ?? (hit ? 'supported' : 'unverifiable');
  const finalRound = marks.lastRound;
  const sufficient = round >= roundsNeeded(sc, i) && (!!hit || !c?.phrase);
  const corrected = c?.corrected ?? claimText;
  const out: Record<string, unknown> = {
    verdict,
    corrected,
    explanation: c?.explanation ?? `${verdict} by the evidence`,
    citations: [...(hit ? [hit] : []), ...(sc.bogusCitations ?? [])],
    sufficient,
    retryQuery: sufficient || finalRound ? '' : (c?.phrase ?? claimText),
    nextQueries: (verdict === 'corrected' || verdict === 'refuted') && (sufficient || finalRound) ? laterClaims : [],
  };
  if (marks.lastClaim) {
    const selection = blocks.find((b) => b.attrs.kind === 'selection')?.text ?? '';
    let passage = sc.correctedPassage;
    if (passage === undefined) {
      passage = selection;
      for (const x of sc.claims ?? []) if ((x.verdict === 'corrected' || x.verdict === 'refuted') && x.corrected) passage = passage.replace(x.sentence ?? x.claim, x.corrected);
    }
    out.correctedPassage = sufficient || finalRound ? `${passage}${hit ? ` [${hit.id}]` : ''}` : '';
  }
  return out;
}
