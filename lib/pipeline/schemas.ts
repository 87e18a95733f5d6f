/** The JSON each LLM call returns: schema (sent as response_format.json_schema, name = stage
 * name) and a tolerant parser that narrows it. Parsers coerce small slips (a number as a
 * string, a missing optional field) and throw only when the reply is unusable, which triggers
 * the client's single repair retry. Field order matters: readable fields come first so they can
 * stream, and each decision is written after what it depends on. */
import type { JsonSchema } from '../llm/types';
import type { ClarityLabel, Verdict } from './types';

/** Stable stage names, sent as response_format.json_schema.name (and as the usage stage): the
 * fake LLM server's byStage() and test/harness/pipeline-responder.ts key on these. */
export const SCHEMA = {
  gate: 'gate',
  claims: 'claims',
  answer: 'answer',
  draft: 'draft',
  revise: 'revise',
  check: 'check',
  compose: 'compose',
} as const;
export type Stage = (typeof SCHEMA)[keyof typeof SCHEMA];

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;
function obj(properties: Record<string, unknown>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}
const citations = { type: 'array', items: obj({ id: str, quote: str }) };

export const gateSchema = obj({
  label: { type: 'string', enum: ['clear', 'incomplete', 'ambiguous'] },
  question: str,
  subQuestions: { type: 'array', items: obj({ question: str, confidence: num, dependsOnPrevious: bool }) },
  confidence: num,
});

export const claimsSchema = obj({
  label: { type: 'string', enum: ['clear', 'incomplete', 'ambiguous'] },
  claims: { type: 'array', items: obj({ claim: str, sentence: str }) },
  confidence: num,
  query: str,
});

export const answerSchema = obj({ answer: str });
export const composeSchema = obj({ answer: str });

export const draftSchema = obj({ steps: { type: 'array', items: str }, query: str });

export function reviseSchema(withAnswer: boolean): JsonSchema {
  return obj({ revised: str, citations, sufficient: bool, nextQuery: str, ...(withAnswer ? { answer: str } : {}) });
}

export function checkSchema(withPassage: boolean): JsonSchema {
  return obj({
    verdict: { type: 'string', enum: ['supported', 'corrected', 'refuted', 'unverifiable'] },
    corrected: str,
    explanation: str,
    citations,
    sufficient: bool,
    nextQuery: str,
    ...(withPassage ? { correctedPassage: str } : {}),
  });
}

// ---- parsers ----

function record(v: unknown, what: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${what}: expected a JSON object`);
  return v as Record<string, unknown>;
}
function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
}
function confidence(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? parseFloat(v) : NaN;
  if (!Number.isFinite(n)) return 0; // unknown confidence: treat as not confident
  // Some models answer in percent.
  const x = n > 1 && n <= 100 ? n / 100 : n;
  return Math.min(1, Math.max(0, x));
}
function flag(v: unknown, dflt: boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no') return false;
  return dflt;
}
function label(v: unknown): ClarityLabel {
  const s = text(v).toLowerCase();
  if (s.startsWith('incomplete')) return 'incomplete';
  if (s.startsWith('ambiguous')) return 'ambiguous';
  if (s.startsWith('clear')) return 'clear';
  throw new Error(`label must be clear, incomplete or ambiguous, got ${JSON.stringify(v)}`);
}
function cites(v: unknown): { id: string; quote: string }[] {
  if (!Array.isArray(v)) return [];
  return v
    .map((c) => (typeof c === 'string' ? { id: c, quote: '' } : c && typeof c === 'object' ? { id: text((c as Record<string, unknown>).id), quote: text((c as Record<string, unknown>).quote) } : { id: '', quote: '' }))
    .filter((c) => c.id);
}

export interface GateOut {
  label: ClarityLabel;
  question: string;
  subQuestions: { question: string; confidence: number; dependsOnPrevious: boolean }[];
  confidence: number;
}
export function parseGate(v: unknown): GateOut {
  const o = record(v, 'gate');
  const subs = Array.isArray(o.subQuestions) ? o.subQuestions : [];
  return {
    label: label(o.label),
    question: text(o.question),
    subQuestions: subs
      .map((s) => (typeof s === 'string' ? { question: s.trim(), confidence: 0, dependsOnPrevious: false } : { question: text(record(s, 'subQuestion').question), confidence: confidence((s as Record<string, unknown>).confidence), dependsOnPrevious: flag((s as Record<string, unknown>).dependsOnPrevious, false) }))
      .filter((s) => s.question),
    confidence: confidence(o.confidence),
  };
}

export interface ClaimsOut {
  label: ClarityLabel;
  claims: { claim: string; sentence: string }[];
  confidence: number;
  query: string;
}
export function parseClaims(v: unknown): ClaimsOut {
  const o = record(v, 'claims');
  if (!Array.isArray(o.claims)) throw new Error('claims must be an array');
  let l: ClarityLabel = 'clear';
  try {
    l = label(o.label);
  } catch {
    /* the label is informative only in verify mode */
  }
  return {
    label: l,
    claims: o.claims
      .map((c) => (typeof c === 'string' ? { claim: c.trim(), sentence: c.trim() } : { claim: text(record(c, 'claim').claim), sentence: text((c as Record<string, unknown>).sentence) }))
      .filter((c) => c.claim),
    confidence: confidence(o.confidence),
    query: text(o.query),
  };
}

export function parseAnswer(v: unknown): { answer: string } {
  const o = record(v, 'answer');
  const answer = text(o.answer);
  if (!answer) throw new Error('answer is empty');
  return { answer };
}

export interface DraftOut {
  steps: string[];
  query: string;
}
export function parseDraft(v: unknown): DraftOut {
  const o = record(v, 'draft');
  if (!Array.isArray(o.steps)) throw new Error('steps must be an array of strings');
  const steps = o.steps.map((s) => (typeof s === 'string' ? s.trim() : s && typeof s === 'object' ? text((s as Record<string, unknown>).text ?? (s as Record<string, unknown>).step) : '')).filter(Boolean);
  if (!steps.length) throw new Error('steps is empty');
  return { steps, query: text(o.query) };
}

export interface ReviseOut {
  revised: string;
  citations: { id: string; quote: string }[];
  sufficient: boolean;
  nextQuery: string;
  answer: string;
}
export function parseRevise(v: unknown): ReviseOut {
  const o = record(v, 'revise');
  const revised = text(o.revised);
  if (!revised) throw new Error('revised is empty');
  return { revised, citations: cites(o.citations), sufficient: flag(o.sufficient, true), nextQuery: text(o.nextQuery), answer: text(o.answer) };
}

const VERDICTS: Verdict[] = ['supported', 'corrected', 'refuted', 'unverifiable'];
export interface CheckOut {
  verdict: Verdict;
  corrected: string;
  explanation: string;
  citations: { id: string; quote: string }[];
  sufficient: boolean;
  nextQuery: string;
  correctedPassage: string;
}
export function parseCheck(v: unknown): CheckOut {
  const o = record(v, 'check');
  const verdict = text(o.verdict).toLowerCase() as Verdict;
  if (!VERDICTS.includes(verdict)) throw new Error(`verdict must be one of ${VERDICTS.join(', ')}`);
  return {
    verdict,
    corrected: text(o.corrected),
    explanation: text(o.explanation),
    citations: cites(o.citations),
    sufficient: flag(o.sufficient, true),
    nextQuery: text(o.nextQuery),
    correctedPassage: text(o.correctedPassage),
  };
}
