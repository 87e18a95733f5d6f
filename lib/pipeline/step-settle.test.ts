import { describe, expect, it } from 'vitest';
import { aliasPassages } from './citations';
import type { Chain, StepSettled } from './chain';
import { settle, UNBACKED_NOTE, type StopReason } from './step-settle';
import type { Passage } from '../core/passage';
import type { StepState } from '../core/run';

const passage = (id: string, text: string): Passage => ({ id, url: `https://${id}.example/`, title: id, origin: 'web', text, headingPath: [], start: 0, end: text.length });
const ALIASES = aliasPassages([passage('a', 'Marie Curie moved to Paris in 1891.'), passage('b', 'She won two Nobel prizes.')]);
const STEP: StepState = { index: 3, draft: 'Curie moved to Paris in 1890.', status: 'running', queries: [], citations: [] };
const settled = (o: Partial<StepSettled> = {}): StepSettled => ({ kept: false, revised: 'Curie moved to Paris in 1891.', citations: [{ id: 'P1', quote: 'in 1891' }], sufficient: true, retryQuery: '', ...o });
const chainOf = (verify: boolean) => ({ verify, modelQueries: true }) as Chain;

describe('settle: the step-done a settled reply gives', () => {
  it('keeps validated citations with their quotes and drops the rest, saying why', () => {
    const c = settle(chainOf(false), STEP, settled({ citations: [{ id: 'P1', quote: 'in 1891' }, { id: 'P9' }, { id: 'P2', quote: 'three prizes' }] }), ALIASES, 'sufficient', true, false);
    expect(c.event).toMatchObject({ type: 'step-done', index: 3, status: 'revised', revised: 'Curie moved to Paris in 1891.', citations: ['a'], quotes: { a: 'in 1891' }, queriesPending: true });
    expect(c.dropped).toEqual([
      { passageId: 'P9', reason: 'unknown-id' },
      { passageId: 'P2', reason: 'quote-not-found' },
    ]);
    expect(c.pending).toBe(true);
  });

  it('a verdict without validated evidence becomes unverifiable, the text stays as drafted, and the check says why', () => {
    const c = settle(chainOf(true), STEP, settled({ verdict: 'corrected', citations: [{ id: 'P7' }], note: 'Moved in 1891.' }), ALIASES, 'sufficient', false, false);
    expect(c.event).toMatchObject({ status: 'unchanged', revised: STEP.draft, verdict: 'unverifiable', note: UNBACKED_NOTE, citations: [] });
    expect(c.pending).toBe(false);
  });

  it('a step that stands (or differs only in spacing) is unchanged; its later queries are pending only if its prompt asked for them', () => {
    const kept = settle(chainOf(false), STEP, settled({ kept: true }), ALIASES, 'sufficient', true, false);
    expect(kept.event).toMatchObject({ status: 'unchanged', revised: STEP.draft });
    expect(kept.pending).toBe(false);
    const spaced = settle(chainOf(false), STEP, settled({ revised: ` ${STEP.draft.replace(' ', '  ')} ` }), ALIASES, 'sufficient', true, true);
    expect(spaced.event.status).toBe('unchanged');
    expect(spaced.pending).toBe(true);
  });

  it('says why searching stopped early, and nothing when it did not', () => {
    const note = (stop: StopReason) => settle(chainOf(false), STEP, settled(), ALIASES, stop, false, false).event.note;
    expect(note('repeated-query')).toMatch(/repeated an earlier one/);
    expect(note('no-new-evidence')).toMatch(/found nothing new/);
    expect(note('sufficient')).toBeUndefined();
    expect(note('max-rounds')).toBeUndefined();
  });
});
