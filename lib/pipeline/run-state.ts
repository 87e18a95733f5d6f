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

/** The one reducer of a run's events: the pipeline applies it (its state is what the worker
 * stores and checkpoints), and the side panel applies it to the events it receives. */
export function applyEvent(run: Run, ev: RunEvent, now = Date.now()): Run {
  const r: Run = { ...run, updatedAt: now };
  switch (ev.type) {
    case 'gate':
      return { ...r, gate: ev.decision };
    case 'flow':
      return { ...r, origins: ev.origins };
    case 'web-plan':
      return { ...r, webPlan: ev.plan };
    case 'thinking':
      return { ...r, thinking: { ...r.thinking, [ev.stage]: ev.chars } };
    case 'draft-delta':
      return { ...r, draftText: (r.draftText ?? '') + ev.text };
    case 'draft': {
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
    case 'library':
      return { ...r, library: [...r.library, ...ev.sources], providerErrors: [...r.providerErrors, ...(ev.errors ?? [])] };
    case 'step-started':
      return { ...r, steps: updateStep(r, ev.index, (s) => ({ ...s, status: 'running', revising: undefined })) };
    case 'query':
      return {
        ...r,
        // Replaces a round already recorded, so a resumed step can restate its queries.
        steps: updateStep(r, ev.index, (s) => ({ ...s, queries: [...s.queries.filter((q) => q.round !== ev.round), { round: ev.round, query: ev.query, passages: [] }].sort((x, y) => x.round - y.round) })),
      };
    case 'passages':
      return {
        ...r,
        steps: updateStep(r, ev.index, (s) => ({
          ...s,
          queries: s.queries.map((q) => (q.round === ev.round ? { ...q, passages: ev.passages, sufficient: ev.sufficient } : q)),
        })),
      };
    case 'revision-delta':
      return { ...r, steps: updateStep(r, ev.index, (s) => ({ ...s, revising: (s.revising ?? '') + ev.text })) };
    case 'step-done':
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
    case 'step-verdict':
      // Not done: a run resumed before its step-done checks the claim again.
      return { ...r, steps: updateStep(r, ev.index, (s) => ({ ...s, verdict: ev.verdict, citations: ev.citations })) };
    case 'next-queries': {
      let steps = updateStep(r, ev.index, (s) => ({ ...s, queriesPending: undefined }));
      for (const q of ev.queries) steps = updateStep({ ...r, steps }, q.index, (s) => ({ ...s, queries: [...s.queries.filter((x) => x.round !== 1), { round: 1, query: q.query, passages: [] }].sort((x, y) => x.round - y.round) }));
      return { ...r, steps };
    }
    case 'speculation':
      return {
        ...r,
        steps: updateStep(r, ev.index, (s) => (ev.outcome === 'accepted' ? { ...s, speculative: true } : { ...s, discarded: [...(s.discarded ?? []), ev.reason] })),
      };
    case 'speculation-off':
      return { ...r, speculationOff: ev.reason };
    case 'citation-dropped':
      return { ...r, droppedCitations: r.droppedCitations + 1 };
    case 'answer-delta':
      return { ...r, answer: (r.answer ?? '') + ev.text, answerFinal: false };
    case 'part-answer': {
      const partAnswers = [...(r.partAnswers ?? [])];
      partAnswers[ev.part] = { markdown: ev.markdown, citations: ev.citations };
      return { ...r, partAnswers };
    }
    case 'answer-reset':
      return { ...r, answer: undefined, answerFinal: false, sources: [] };
    case 'answer':
      return { ...r, answer: ev.markdown, sources: ev.sources, answerFinal: true };
    case 'claims':
      return { ...r, claims: ev.claims, corrected: ev.corrected };
    case 'usage':
      return { ...r, usage: ev.usage };
    case 'error':
      return { ...r, error: ev.error };
    case 'resume':
      // A draft that had not finished streaming is written again from the start.
      return { ...r, status: 'running', error: undefined, draftText: r.steps.length ? r.draftText : undefined };
    case 'done': {
      // An answer cut off by an error or cancel keeps its text but no [n] that points nowhere.
      const cut = r.answer !== undefined && !r.answerFinal;
      return { ...r, status: ev.status, draftText: r.steps.length ? undefined : r.draftText, ...(cut ? { answer: stripNumberMarkers(r.answer ?? '') } : {}) };
    }
  }
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
