import { describe, expect, it } from 'vitest';
import { applyEvent, canResume, endedWithError, newRun } from './run-state';
import type { Run, RunEvent, Source } from '../core/run';

const T0 = 1_000;
const SOURCE: Source = { n: 1, passageId: 'p1', url: 'https://a.example/', title: 'A', site: 'a.example', origin: 'web', quote: 'A.' };
const start = (): Run => newRun('r1', 'ask', { text: 'Who?' }, T0);
const apply = (run: Run, ...evs: RunEvent[]): Run => evs.reduce((r, ev, i) => applyEvent(r, ev, T0 + i + 1), run);
const drafted = () => apply(start(), { type: 'draft', steps: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });

describe('applyEvent', () => {
  it('stamps the run with the time of the event and leaves the old run as it was', () => {
    const before = start();
    const after = applyEvent(before, { type: 'draft-delta', text: 'Al' }, 5_000);
    expect(after.updatedAt).toBe(5_000);
    expect(after.draftText).toBe('Al');
    expect(before.draftText).toBeUndefined();
    expect(before.updatedAt).toBe(T0);
  });

  it('a draft replaces the steps; an appended draft adds steps with their own index, in index order', () => {
    const run = drafted();
    expect(run.steps.map((s) => [s.index, s.draft, s.status])).toEqual([
      [0, 'one', 'pending'],
      [1, 'two', 'pending'],
      [2, 'three', 'pending'],
    ]);
    const parts = apply(start(), { type: 'draft', append: true, steps: [{ text: 'b', index: 5, part: 1 }] }, { type: 'draft', append: true, steps: [{ text: 'a', index: 2, part: 0, sentence: 'A.' }] });
    expect(parts.steps.map((s) => [s.index, s.draft, s.part, s.sentence])).toEqual([
      [2, 'a', 0, 'A.'],
      [5, 'b', 1, undefined],
    ]);
  });

  it('a query replaces the one recorded for its round, rounds in order; passages land on their round', () => {
    const run = apply(
      drafted(),
      { type: 'query', index: 1, round: 2, query: 'second' },
      { type: 'query', index: 1, round: 1, query: 'first' },
      { type: 'query', index: 1, round: 1, query: 'first again' },
      { type: 'passages', index: 1, round: 2, passages: [], sufficient: true },
    );
    expect(run.steps[1]?.queries).toEqual([
      { round: 1, query: 'first again', passages: [] },
      { round: 2, query: 'second', passages: [], sufficient: true },
    ]);
    expect(run.steps[0]?.queries).toEqual([]);
  });

  it('a step streams its revision, then its step-done replaces what streamed', () => {
    const streaming = apply(drafted(), { type: 'step-started', index: 0 }, { type: 'revision-delta', index: 0, text: 'on' }, { type: 'revision-delta', index: 0, text: 'e!' });
    expect(streaming.steps[0]).toMatchObject({ status: 'running', revising: 'one!' });
    const done = apply(streaming, { type: 'step-done', index: 0, revised: 'One!', status: 'revised', citations: ['p1'], queriesPending: true });
    expect(done.steps[0]).toMatchObject({ status: 'revised', revised: 'One!', citations: ['p1'], queriesPending: true, revising: undefined });
  });

  it('next-queries clears the step pending and rewrites round 1 of the later steps', () => {
    const run = apply(
      drafted(),
      { type: 'query', index: 2, round: 1, query: 'planned' },
      { type: 'step-done', index: 0, revised: 'One!', status: 'revised', citations: [], queriesPending: true },
      { type: 'next-queries', index: 0, queries: [{ index: 1, query: 'new 1' }, { index: 2, query: 'new 2' }] },
    );
    expect(run.steps[0]?.queriesPending).toBeUndefined();
    expect(run.steps[1]?.queries).toEqual([{ round: 1, query: 'new 1', passages: [] }]);
    expect(run.steps[2]?.queries).toEqual([{ round: 1, query: 'new 2', passages: [] }]);
  });

  it('speculation marks the step accepted, or lists why it was discarded', () => {
    const run = apply(
      drafted(),
      { type: 'speculation', index: 1, outcome: 'accepted' },
      { type: 'speculation', index: 2, outcome: 'discarded', reason: 'earlier-changed' },
      { type: 'speculation', index: 2, outcome: 'discarded', reason: 'context-changed' },
    );
    expect(run.steps.map((s) => [s.speculative, s.discarded])).toEqual([
      [undefined, undefined],
      [true, undefined],
      [undefined, ['earlier-changed', 'context-changed']],
    ]);
  });

  it('part answers land at their part; an answer reset drops the streamed answer and its sources', () => {
    const run = apply(start(), { type: 'part-answer', part: 1, markdown: 'B', citations: ['p2'] }, { type: 'part-answer', part: 0, markdown: 'A', citations: [] });
    expect(run.partAnswers).toEqual([
      { markdown: 'A', citations: [] },
      { markdown: 'B', citations: ['p2'] },
    ]);
    const reset = apply(start(), { type: 'answer', markdown: 'old [1]', sources: [SOURCE] }, { type: 'answer-reset' });
    expect(reset).toMatchObject({ answer: undefined, answerFinal: false, sources: [] });
  });

  it('done keeps a cut-off answer without its [n] markers, and a final answer as written', () => {
    const cut = apply(start(), { type: 'answer-delta', text: 'Paris [1] is big [2][3].' }, { type: 'done', status: 'cancelled' });
    expect(cut).toMatchObject({ status: 'cancelled', answer: 'Paris is big.' });
    const whole = apply(start(), { type: 'answer', markdown: 'Paris [1].', sources: [] }, { type: 'done', status: 'done' });
    expect(whole.answer).toBe('Paris [1].');
  });

  it('done drops the streamed draft once it became steps; resume restarts a draft that had not', () => {
    const stepsDone = apply(drafted(), { type: 'draft-delta', text: 'x' }, { type: 'done', status: 'done' });
    expect(stepsDone.draftText).toBeUndefined();
    const noSteps = apply(start(), { type: 'draft-delta', text: 'half' }, { type: 'error', error: { code: 'server', message: 'boom' } }, { type: 'done', status: 'error' });
    expect(noSteps).toMatchObject({ status: 'error', draftText: 'half', error: { code: 'server' } });
    const resumed = apply(noSteps, { type: 'resume' });
    expect(resumed).toMatchObject({ status: 'running', error: undefined, draftText: undefined });
  });

  it('counts dropped citations and keeps the latest usage and thinking per stage', () => {
    const run = apply(
      start(),
      { type: 'citation-dropped', index: 0, passageId: 'x', reason: 'unknown' },
      { type: 'citation-dropped', index: 0, passageId: 'y', reason: 'unknown' },
      { type: 'thinking', stage: 'gate', chars: 10 },
      { type: 'thinking', stage: 'draft', chars: 3 },
      { type: 'thinking', stage: 'gate', chars: 40 },
    );
    expect(run.droppedCitations).toBe(2);
    expect(run.thinking).toEqual({ gate: 40, draft: 3 });
  });
});

describe('endedWithError and canResume', () => {
  it('a run ended with an error cannot be resumed', () => {
    const run = endedWithError(drafted(), { code: 'interrupted', message: 'gone' }, 'interrupted', T0);
    expect(run).toMatchObject({ status: 'interrupted', error: { code: 'interrupted' } });
    expect(canResume({ ...run, status: 'interrupted' })).toBe(false); // steps but no gate
    expect(canResume(apply(start(), { type: 'gate', decision: { label: 'clear', beta: 0.2, betaThreshold: 0.5, retrieve: true } }))).toBe(true);
  });
});
