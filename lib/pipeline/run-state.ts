import type { Run, RunError, RunEvent, RunInput, RunMode, StepState } from '../core/run';

/** [1], [2][3] markers of a streamed answer (their sources are only known when it is final). */
function stripNumberMarkers(text: string): string {
  return text.replace(/\[\d+\]/g, '').replace(/[ \t]+([.,;:!?])/g, '$1').replace(/[ \t]{2,}/g, ' ').trimEnd();
}

export function newRun(id: string, mode: RunMode, input: RunInput, now = Date.now()): Run {
  return {
    id,
    createdAt: now,
    updatedAt: now,
    mode,
    input,
    status: 'running',
    steps: [],
    library: [],
    providerErrors: [],
    sources: [],
    droppedCitations: 0,
  };
}

function updateStep(run: Run, index: number, f: (s: StepState) => StepState): StepState[] {
  return run.steps.map((s) => (s.index === index ? f(s) : s));
}

type EventOf<K extends RunEvent['type']> = Extract<RunEvent, { type: K }>;
/** How one kind of event changes the run (`r` is already stamped with the event's time). */
type Handlers = { [K in RunEvent['type']]: (r: Run, ev: EventOf<K>) => Run };

/** A round-`round` query for a step, replacing one already recorded for that round (so a resumed
 * step can restate its queries), rounds in order. */
function withQuery(s: StepState, round: number, query: string): StepState {
  return { ...s, queries: [...s.queries.filter((q) => q.round !== round), { round, query, passages: [] }].sort((x, y) => x.round - y.round) };
}

/** The draft's steps: added to those there with `append` (sub-questions draft in parallel), else
 * in their place; in index order. */
function withDraft(r: Run, ev: EventOf<'draft'>): Run {
  const base = ev.append ? r.steps : [];
  const added: StepState[] = ev.steps.map((s, i) => ({
    index: s.index ?? base.length + i,
    part: s.part,
    draft: s.text,
    status: 'pending',
    queries: [],
    citations: [],
    ...(s.sentence !== undefined ? { sentence: s.sentence } : {}),
  }));
  return { ...r, steps: [...base, ...added].sort((a, b) => a.index - b.index) };
}

function withStepDone(r: Run, ev: EventOf<'step-done'>): Run {
  return {
    ...r,
    steps: updateStep(r, ev.index, (s) => ({
      ...s,
      revised: ev.revised,
      revising: undefined,
      status: ev.status,
      citations: ev.citations,
      verdict: ev.verdict,
      note: ev.note,
      quotes: ev.quotes,
      queriesPending: ev.queriesPending,
    })),
  };
}

/** A changed step's queries for the later steps: its own are no longer pending, theirs replace
 * round 1. */
function withNextQueries(r: Run, ev: EventOf<'next-queries'>): Run {
  let steps = updateStep(r, ev.index, (s) => ({ ...s, queriesPending: undefined }));
  for (const q of ev.queries) steps = updateStep({ ...r, steps }, q.index, (s) => withQuery(s, 1, q.query));
  return { ...r, steps };
}

function withPartAnswer(r: Run, ev: EventOf<'part-answer'>): Run {
  const partAnswers = [...(r.partAnswers ?? [])];
  partAnswers[ev.part] = { markdown: ev.markdown, citations: ev.citations };
  return { ...r, partAnswers };
}

/** The run's end. An answer cut off by an error or cancel keeps its text but no [n] that points
 * nowhere; a draft that never became steps keeps its streamed text. */
function withDone(r: Run, ev: EventOf<'done'>): Run {
  const cut = r.answer !== undefined && !r.answerFinal;
  return { ...r, status: ev.status, draftText: r.steps.length ? undefined : r.draftText, ...(cut ? { answer: stripNumberMarkers(r.answer ?? '') } : {}) };
}

const HANDLERS: Handlers = {
  gate: (r, ev) => ({ ...r, gate: ev.decision }),
  flow: (r, ev) => ({ ...r, origins: ev.origins }),
  'web-plan': (r, ev) => ({ ...r, webPlan: ev.plan }),
  thinking: (r, ev) => ({ ...r, thinking: { ...r.thinking, [ev.stage]: ev.chars } }),
  'draft-delta': (r, ev) => ({ ...r, draftText: (r.draftText ?? '') + ev.text }),
  draft: withDraft,
  library: (r, ev) => ({ ...r, library: [...r.library, ...ev.sources], providerErrors: [...r.providerErrors, ...(ev.errors ?? [])] }),
  'step-started': (r, ev) => ({ ...r, steps: updateStep(r, ev.index, (s) => ({ ...s, status: 'running', revising: undefined })) }),
  query: (r, ev) => ({ ...r, steps: updateStep(r, ev.index, (s) => withQuery(s, ev.round, ev.query)) }),
  passages: (r, ev) => ({
    ...r,
    steps: updateStep(r, ev.index, (s) => ({ ...s, queries: s.queries.map((q) => (q.round === ev.round ? { ...q, passages: ev.passages, sufficient: ev.sufficient } : q)) })),
  }),
  'revision-delta': (r, ev) => ({ ...r, steps: updateStep(r, ev.index, (s) => ({ ...s, revising: (s.revising ?? '') + ev.text })) }),
  'step-done': withStepDone,
  // Not done: a run resumed before its step-done checks the claim again.
  'step-verdict': (r, ev) => ({ ...r, steps: updateStep(r, ev.index, (s) => ({ ...s, verdict: ev.verdict, citations: ev.citations })) }),
  'next-queries': withNextQueries,
  speculation: (r, ev) => ({
    ...r,
    steps: updateStep(r, ev.index, (s) => (ev.outcome === 'accepted' ? { ...s, speculative: true } : { ...s, discarded: [...(s.discarded ?? []), ev.reason] })),
  }),
  'speculation-off': (r, ev) => ({ ...r, speculationOff: ev.reason }),
  'citation-dropped': (r) => ({ ...r, droppedCitations: r.droppedCitations + 1 }),
  'answer-delta': (r, ev) => ({ ...r, answer: (r.answer ?? '') + ev.text, answerFinal: false }),
  'part-answer': withPartAnswer,
  'answer-reset': (r) => ({ ...r, answer: undefined, answerFinal: false, sources: [] }),
  answer: (r, ev) => ({ ...r, answer: ev.markdown, sources: ev.sources, answerFinal: true }),
  claims: (r, ev) => ({ ...r, claims: ev.claims, corrected: ev.corrected }),
  usage: (r, ev) => ({ ...r, usage: ev.usage }),
  error: (r, ev) => ({ ...r, error: ev.error }),
  // A draft that had not finished streaming is written again from the start.
  resume: (r) => ({ ...r, status: 'running', error: undefined, draftText: r.steps.length ? r.draftText : undefined }),
  done: withDone,
};

/** The handler of an event's kind, typed for that kind (TypeScript does not relate a handler
 * picked by `ev.type` to `ev` on its own). */
function handlerOf<K extends RunEvent['type']>(type: K): (r: Run, ev: EventOf<K>) => Run {
  return HANDLERS[type];
}

/** The one reducer of a run's events: the pipeline applies it (its state is what the worker
 * stores and checkpoints), and the side panel applies it to the events it receives. */
export function applyEvent(run: Run, ev: RunEvent, now = Date.now()): Run {
  return handlerOf(ev.type)({ ...run, updatedAt: now }, ev);
}

/** A run that can never start or continue: its error, then done. The one place besides
 * executeRun's end that ends a run (the worker marks runs it cannot resume). */
export function endedWithError(run: Run, error: RunError, status: 'error' | 'interrupted' = 'error', now = Date.now()): Run {
  return applyEvent(applyEvent(run, { type: 'error', error }, now), { type: 'done', status }, now);
}


/** False for a checkpoint that cannot be continued (mark it interrupted and offer a re-run). */
export function canResume(run: Run): boolean {
  if (run.status === 'done') return false;
  if (run.steps.length && !run.gate) return false;
  if (run.mode === 'ask' && run.gate?.label === 'ambiguous' && !run.gate.parts?.length) return false;
  return run.steps.every((s) => s.draft !== undefined);
}
