/** Each LLM stage's structured output, defined once in zod: the TypeScript type, the JSON schema
 * sent as response_format (name = stage), and the parser all come from here. Parsers accept the
 * small slips real models make (a number as a string or a percentage, "yes" for true, a list sent
 * as one string, objects where strings were asked) and throw only when the reply is unusable,
 * which triggers the client's single repair round. Field order matters: readable fields come
 * first so they can stream, and each decision is written after what it depends on. */
import { z } from 'zod';
import type { JsonSchema } from '../llm/types';
import { VERDICTS } from '../core/verdicts';
import { sentenceSpans } from '../retrieval/passages';

// ---- lenient field types ----

/** A list the model sent as one string: its numbered items when it is written "1. … 2. …" (an item
 * of several sentences stays one item), else its sentences (the retrieval core's segmenter). */
function splitSentences(s: string): string[] {
  return (
    numberedItems(s) ??
    sentenceSpans(s)
      .map(([a, b]) => s.slice(a, b).replace(/^\s*(?:\d+[.)]|[-*•])\s+/, '').trim())
      // A lone "1." the segmenter cut off is a marker, not an item.
      .filter((x) => x && !/^\d+[.)]$/.test(x))
  );
}

/** "1. a 2. b" or "1) a 2) b": the items, when the string starts with item 1 and the numbers that
 * follow count up from it (a "3." inside an item that does not come next is text). */
function numberedItems(s: string): string[] | undefined {
  const marker = /(^|\s)(\d{1,2})[.)]\s+/g;
  const cuts: { at: number; from: number }[] = [];
  for (const m of s.matchAll(marker)) {
    if (Number(m[2]) !== cuts.length + 1) continue;
    cuts.push({ at: m.index + m[1]!.length, from: m.index + m[0].length });
  }
  if (cuts.length < 2 || s.slice(0, cuts[0]!.at).trim()) return undefined;
  return cuts.map((c, i) => s.slice(c.from, cuts[i + 1]?.at ?? s.length).trim()).filter(Boolean);
}

const text = z.preprocess((v) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : v ?? ''), z.string());

/** Confidence in [0, 1]; some models answer in percent; unknown counts as not confident. */
const confidence = z.preprocess((v) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? parseFloat(v) : NaN;
  if (!Number.isFinite(n)) return 0;
  const x = n > 1 && n <= 100 ? n / 100 : n;
  return Math.min(1, Math.max(0, x));
}, z.number());

function flag(dflt: boolean) {
  return z.preprocess((v) => (typeof v === 'boolean' ? v : v === 'true' || v === 'yes' ? true : v === 'false' || v === 'no' ? false : dflt), z.boolean());
}

const label = z.preprocess((v) => {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return ['clear', 'incomplete', 'ambiguous'].find((l) => s.startsWith(l)) ?? v;
}, z.enum(['clear', 'incomplete', 'ambiguous']));

/** Array.isArray, typed: what the model sent is unknown, not `any`. */
const isList = (v: unknown): v is unknown[] => Array.isArray(v);

/** A list of strings. A list sent as one string is split into its sentences (not replaced), and
 * objects with a text-like field are read for it. */
function textList(keys: string[]) {
  return z.preprocess((v) => {
    const items = typeof v === 'string' ? splitSentences(v) : isList(v) ? v : v;
    if (!isList(items)) return items;
    return items
      .map((s) => (typeof s === 'string' ? s.trim() : s && typeof s === 'object' ? String(keys.map((k) => (s as Record<string, unknown>)[k]).find((x) => typeof x === 'string') ?? '').trim() : ''))
      .filter(Boolean);
  }, z.array(z.string()));
}

const hasText = (v: unknown): boolean => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number';

// Preprocessing (not transforms) keeps every schema representable as JSON Schema for the model.
const citations = z.preprocess(
  (v) => (isList(v) ? v.map((c) => (typeof c === 'string' ? { id: c, quote: '' } : c)).filter((c) => c && typeof c === 'object' && hasText((c as Record<string, unknown>).id)) : []),
  z.array(z.object({ id: text, quote: text })),
);

// ---- the stages ----

/** Web searches written by a call that saw only network-safe text (flow.ts): the gate's last
 * field, and verify's search plan. A query per item; a list sent as one string is split. */
const webSearches = z.preprocess((v) => (typeof v === 'string' ? (v.trim() ? v.split(/\s*(?:\n|;)\s*/) : []) : isList(v) ? v : []), textList(['query', 'text']));

export const gateStage = z.object({
  label,
  question: text,
  /** The question is about the page the user is on (its own content must be read). */
  aboutPage: flag(false),
  subQuestions: z.preprocess(
    (v) => (isList(v) ? v.map((s) => (typeof s === 'string' ? { question: s } : s)).filter((s) => s && typeof s === 'object' && hasText((s as Record<string, unknown>).question)) : []),
    z.array(z.object({ question: text, confidence, dependsOnPrevious: flag(false) })),
  ),
  confidence,
  /** Last: the decision fields above are complete once the model writes it. */
  search: webSearches,
});

/** Verify: the web searches for checking a selection, from the selection alone. */
export const searchesStage = z.object({ search: webSearches });

const claimItem = z.object({ claim: text, sentence: text });
export const claimsStage = z.object({
  label: z.preprocess((v) => (typeof v === 'string' && /^(clear|incomplete|ambiguous)/i.test(v.trim()) ? v : 'clear'), label),
  claims: z.preprocess((v) => {
    const list = typeof v === 'string' ? splitSentences(v) : v;
    if (!isList(list)) return v;
    return list.map((c) => (typeof c === 'string' ? { claim: c, sentence: c } : c)).filter((c) => c && typeof c === 'object' && hasText((c as Record<string, unknown>).claim));
  }, z.array(claimItem)),
  confidence,
  query: text,
});

export const answerStage = z.object({ answer: text.refine((a) => a.length > 0, 'answer is empty') });

/** A query per step; an older single `query` counts as the first step's. */
const queryList = z.preprocess((v) => (typeof v === 'string' ? [v] : isList(v) ? v : []), textList(['query', 'text']));

/** Steps with their queries, interleaved, so a step's evidence can be fetched while the draft is
 * still being written. Older shapes are read too: steps as strings (or one string) with a
 * `queries` list or a single `query` for the first step. */
export const draftStage = z.preprocess(
  (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    const list = typeof o.steps === 'string' ? splitSentences(o.steps) : o.steps;
    if (!isList(list)) return v;
    const queries = isList(o.queries) ? o.queries : typeof o.query === 'string' ? [o.query] : [];
    const steps = list
      .map((s, i) => {
        const rec = s && typeof s === 'object' ? (s as Record<string, unknown>) : {};
        const step = typeof s === 'string' ? s : [rec.step, rec.text, rec.thought].find((x) => typeof x === 'string');
        const query = typeof rec.query === 'string' ? rec.query : queries[i];
        return { step: typeof step === 'string' ? step : '', query: typeof query === 'string' ? query : '' };
      })
      .filter((s) => s.step.trim());
    return { ...o, steps };
  },
  z.object({ steps: z.array(z.object({ step: text, query: text })).refine((s) => s.length > 0, 'steps is empty') }),
);

/** The draft's schema as sent when it writes no queries (draft-queries.ts): the steps as plain
 * strings, since an object around each would be output tokens on the critical path for nothing
 * (about 4 per step); read with draftStage, which gives each step an empty query (the step's own
 * words are then its query). */
export const draftStepsOnly = z.object({ steps: z.array(text) });

/** `nextQuery` (one query, older replies) counts as the next step's; `retryQuery` falls back to
 * it when the step asked for another round. */
function withQueryFields(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const out = { ...o };
  const retry = o.sufficient === false || o.sufficient === 'false' || o.sufficient === 'no';
  if (!('nextQueries' in o) && typeof o.nextQuery === 'string') out.nextQueries = o.nextQuery && !retry ? [o.nextQuery] : [];
  if (!('retryQuery' in o) && typeof o.nextQuery === 'string' && retry) out.retryQuery = o.nextQuery;
  return out;
}

/** Field order is the order the model writes them: `kept` first, so a caller knows within a few
 * tokens whether the step stands (speculative revision schedules on it); then the revision and,
 * only if the step changed, fresh queries for the later steps: all the later steps need to start
 * again from the change, so they do not wait for what follows; last the citations and the
 * sufficiency judgement (with a query for another round), which the step is committed on. */
const reviseBase = {
  kept: flag(false),
  revised: text,
  nextQueries: queryList,
  citations,
  sufficient: flag(true),
  retryQuery: text,
};
export const reviseStage = z.preprocess(withQueryFields, z.object(reviseBase));
/** The last step has no later steps to write queries for, and also writes the answer. */
const { nextQueries: _none, ...lastBase } = reviseBase;
export const reviseFinalStage = z.preprocess(withQueryFields, z.object({ ...lastBase, answer: text }));
/** A step whose later steps' queries are made from their own words (chain.ts) writes none. */
export const reviseNoQueriesStage = z.preprocess(withQueryFields, z.object(lastBase));

const checkBase = {
  verdict: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(VERDICTS)),
  corrected: text,
  explanation: text,
  citations,
  sufficient: flag(true),
  retryQuery: text,
  nextQueries: queryList,
};
/** "corrected" means the claim is wrong in a detail the evidence fixes: without the fixed claim the
 * verdict says nothing the reader can use, so the reply goes back to the model (one repair round)
 * rather than end as a "Corrected" mark with no correction. */
function correctionWritten(o: { verdict: string; corrected: string }, ctx: z.RefinementCtx): void {
  if (o.verdict === 'corrected' && !o.corrected) ctx.addIssue({ code: 'custom', path: ['corrected'], message: 'verdict "corrected" needs the corrected claim in "corrected"' });
}
export const checkStage = z.preprocess(withQueryFields, z.object(checkBase).superRefine(correctionWritten));

/** What a step is committed on: its reply without the later steps' queries (and the final output). */
const reviseSettled = z.preprocess(withQueryFields, z.object(reviseBase).omit({ nextQueries: true }));
const checkSettled = z.preprocess(withQueryFields, z.object(checkBase).omit({ nextQueries: true }).superRefine(correctionWritten));

/** A streaming reply's settled part: every field the step is committed on has been written, and
 * the model has moved on to another field, so the last of them is complete. Read whatever order
 * the model wrote the fields in; undefined until then (defaults never stand in for a field). */
function settledOf<T>(schema: z.ZodType<T>, keys: string[]) {
  return (partial: unknown): T | undefined => {
    if (!partial || typeof partial !== 'object' || Array.isArray(partial)) return undefined;
    // Complete once the model has moved on past the last of them (a value still streams until then).
    const written = Object.keys(partial);
    if (!keys.every((k) => written.includes(k)) || !written.slice(Math.max(...keys.map((k) => written.indexOf(k))) + 1).length) return undefined;
    const r = schema.safeParse(partial);
    return r.success ? r.data : undefined;
  };
}
export const reviseSettledOf = settledOf(reviseSettled, ['kept', 'revised', 'citations', 'sufficient', 'retryQuery']);
export const checkSettledOf = settledOf(checkSettled, ['verdict', 'corrected', 'explanation', 'citations', 'sufficient', 'retryQuery']);
/** The last check also writes the corrected passage. */
export const checkFinalStage = z.preprocess(withQueryFields, z.object({ ...checkBase, correctedPassage: text }).superRefine(correctionWritten));

/** Check this page: the page's claims, most check-worthy first, each with the query that checks it
 * (written by a call that saw only the page). The query comes first: its evidence is fetched while
 * the model still writes the claim. A list sent as one string is read as claims. */
const pageClaimItem = z.object({ query: text, claim: text, sentence: text, worthiness: confidence });
export const pageClaimsStage = z.object({
  claims: z.preprocess((v) => {
    const list = typeof v === 'string' ? splitSentences(v) : v;
    if (!isList(list)) return v;
    return list.map((c) => (typeof c === 'string' ? { claim: c, sentence: c } : c)).filter((c) => c && typeof c === 'object' && hasText((c as Record<string, unknown>).claim));
  }, z.array(pageClaimItem)),
});

/** Check this page, one claim: as `check`, but claims are independent (no queries for later
 * claims) and the corrected text is built in code. The evidence first, then the verdict it gives,
 * then the correction: a claim's mark can be drawn as soon as those have streamed; the explanation
 * follows. A verdict other than "unverifiable" means the evidence settled the claim; only an
 * unverifiable one asks for another round (`retryQuery`, the open tabs only). */
const pageCheckBase = { citations, verdict: checkBase.verdict, corrected: text, explanation: text, retryQuery: text };
const withSufficient = (v: unknown): unknown => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const verdict = typeof o.verdict === 'string' ? o.verdict.trim().toLowerCase() : '';
  return { ...o, sufficient: verdict !== 'unverifiable' };
};
export const pageCheckStage = z.preprocess(withSufficient, z.object({ ...pageCheckBase, sufficient: z.boolean() }).superRefine(correctionWritten));
/** A page claim's verdict and the citations before it, once the verdict is whole (the correction
 * has started); undefined until then. */
export function pageCheckVerdictOf(partial: unknown): { verdict: (typeof VERDICTS)[number]; citations: z.output<typeof citations> } | undefined {
  if (!partial || typeof partial !== 'object' || Array.isArray(partial) || !('corrected' in partial)) return undefined;
  const r = z.object({ verdict: checkBase.verdict, citations }).safeParse(partial);
  return r.success ? r.data : undefined;
}

/** What the model is asked to write: without the derived `sufficient`. */
export const pageCheckSent = z.object(pageCheckBase).superRefine(correctionWritten);
/** What a claim of a page is committed on: its evidence, its verdict, and its correction when the
 * verdict changes the text (the explanation comes after). Undefined until the model has written
 * them and moved on. */
export function pageCheckSettledOf(partial: unknown): { citations: z.output<typeof citations>; verdict: (typeof VERDICTS)[number]; sufficient: boolean; corrected: string } | undefined {
  if (!partial || typeof partial !== 'object' || Array.isArray(partial)) return undefined;
  const o = partial as Record<string, unknown>;
  const verdict = typeof o.verdict === 'string' ? o.verdict.trim().toLowerCase() : '';
  const changes = verdict === 'corrected' || verdict === 'refuted';
  // The field after the last one needed has started: that one is complete.
  if (!('citations' in o) || !(changes ? 'explanation' in o : 'corrected' in o)) return undefined;
  const r = z.preprocess(withSufficient, z.object({ citations, verdict: checkBase.verdict, sufficient: z.boolean(), corrected: text }).superRefine(correctionWritten)).safeParse(o);
  return r.success ? r.data : undefined;
}

export type GateOut = z.output<typeof gateStage>;
export type AnswerOut = z.output<typeof answerStage>;
export type PageClaimsOut = z.output<typeof pageClaimsStage>;
export type SearchesOut = z.output<typeof searchesStage>;
export type ClaimsOut = z.output<typeof claimsStage>;
export type DraftOut = z.output<typeof draftStage>;
export type ReviseOut = z.output<typeof reviseFinalStage>;
export type CheckOut = z.output<typeof checkFinalStage>;

/** Stable stage names, sent as response_format.json_schema.name (and as the usage stage): the
 * fake LLM server's byStage() and the scripted responders key on these. */
export type StageName = 'gate' | 'searches' | 'claims' | 'answer' | 'draft' | 'revise' | 'final-answer' | 'check' | 'compose' | 'page-claims' | 'page-check';

/** What LlmClient.json needs for a stage: its name, JSON schema and parser. */
export interface StageSpec<T> {
  stage: StageName;
  schemaName: StageName;
  schema: JsonSchema;
  parse(value: unknown): T;
  /** The stages that are a final answer read a prose reply as that answer. */
  fromText?: (text: string) => T | undefined;
}

const specs = new Map<z.ZodType, JsonSchema>();

/** A reply that is plain prose (not a JSON object or list, not a code fence): a final answer the
 * model wrote without the JSON around it, perhaps labelled "Answer:". Broken JSON is not prose; it
 * gets the repair round. Thinking is the client's to take out: a reply still holding a think tag
 * is not read as an answer. */
export function proseAnswer(text: string): { answer: string } | undefined {
  const t = text.trim().replace(/^\**answer\**\s*:\s*/i, '');
  if (!t || /^[{[`]/.test(t) || /^"[\w-]+"\s*:/.test(t) || /<\/?think>/i.test(t)) return undefined;
  return { answer: t };
}

/** `sent`: the schema the model is given, when the parsed value adds fields derived in code. */
export function stage<S extends z.ZodType>(name: StageName, schema: S, o: { fromText?: (text: string) => z.output<S> | undefined; sent?: z.ZodType } = {}): StageSpec<z.output<S>> {
  const shape = o.sent ?? schema;
  let json = specs.get(shape);
  if (!json) {
    json = z.toJSONSchema(shape, { io: 'output', unrepresentable: 'any' });
    delete json.$schema; // strict structured outputs take the bare schema
    specs.set(shape, json);
  }
  return {
    stage: name,
    schemaName: name,
    schema: json,
    ...(o.fromText ? { fromText: o.fromText } : {}),
    parse(value) {
      const r = schema.safeParse(value);
      if (!r.success) throw new Error(z.prettifyError(r.error));
      return r.data;
    },
  };
}
