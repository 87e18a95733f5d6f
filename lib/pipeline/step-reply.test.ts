import { describe, expect, it } from 'vitest';
import { aliasPassages, type AliasMap } from './citations';
import type { Chain, StepCallArgs, StepCallResult, StepSettled } from './chain';
import type { Ctx } from './context';
import { ReplyStream, type RevisingStep, type StepHooks } from './step-reply';
import { settle, type Committed, type StopReason } from './step-settle';
import { AnswerShow } from './answer-beside';
import type { Passage } from '../core/passage';
import type { RunEvent, StepState } from '../core/run';

const passage = (id: string, text: string): Passage => ({ id, url: `https://${id}.example/`, title: id, origin: 'web', text, headingPath: [], start: 0, end: text.length });
const P = [passage('a', 'Marie Curie moved to Paris in 1891.'), passage('b', 'She won two Nobel prizes.')];
const ALIASES = aliasPassages(P);
const STEP: StepState = { index: 3, draft: 'Curie moved to Paris in 1890.', status: 'running', queries: [], citations: [] };
const settled = (o: Partial<StepSettled> = {}): StepSettled => ({ kept: false, revised: 'Curie moved to Paris in 1891.', citations: [{ id: 'P1', quote: 'in 1891' }], sufficient: true, retryQuery: '', ...o });
const chainOf = (verify: boolean) => ({ verify, modelQueries: true }) as Chain;

/** A step as its reply sees it, recording what it is told. */
function revising(hooks: StepHooks = {}) {
  const events: RunEvent[] = [];
  const prefetched: string[] = [];
  const step: RevisingStep = {
    ctx: { emit: (ev: RunEvent) => events.push(ev), run: () => ({ answer: undefined }) } as unknown as Ctx,
    hooks,
    index: STEP.index,
    draft: STEP.draft,
    early: undefined,
    commit(out: StepSettled, aliases: AliasMap, why: StopReason): Committed {
      const c = settle(chainOf(false), STEP, out, aliases, why, true, false);
      events.push(c.event);
      return c;
    },
    prefetch: (q) => prefetched.push(q),
  };
  return { step, events, prefetched };
}

const args = (o: Partial<StepCallArgs> = {}): StepCallArgs => ({ passages: ALIASES, earlier: new Map(), finalRound: false, rewriteLater: false, ...o }) as StepCallArgs;
const result = (o: Partial<StepCallResult> = {}): StepCallResult => ({ ...settled(), nextQueries: [], final: '', ...o });
const types = (events: RunEvent[]) => events.map((e) => e.type);

describe('ReplyStream: one round of a step reply as it streams', () => {
  it('streams the revision as deltas and says once whether the step stands', () => {
    const said: boolean[] = [];
    const { step, events } = revising({ onKept: (k) => said.push(k) });
    const s = new ReplyStream(step, { args: args(), round: 1, given: P });
    s.onPartial({ kept: false });
    s.onPartial({ kept: false, revised: 'Curie moved' });
    s.onPartial({ kept: false, revised: 'Curie moved to Paris' });
    s.end(result({ kept: false }));
    expect(said).toEqual([false]);
    expect(events.filter((e) => e.type === 'revision-delta').map((e) => (e as { text: string }).text)).toEqual(['Curie moved', ' to Paris']);
  });

  it('shows a verdict at once only when validated citations back it', () => {
    const { step, events } = revising();
    const s = new ReplyStream(step, { args: args(), round: 1, given: P });
    s.onPartial({ verdict: { verdict: 'corrected', citations: [{ id: 'P5' }] } });
    expect(types(events)).toEqual([]);
    s.onPartial({ verdict: { verdict: 'corrected', citations: [{ id: 'P1', quote: 'in 1891' }] } });
    s.onPartial({ verdict: { verdict: 'corrected', citations: [{ id: 'P1', quote: 'in 1891' }] } });
    expect(events).toEqual([{ type: 'step-verdict', index: 3, verdict: 'corrected', citations: ['a'] }]);
  });

  it('fetches each later query once it is complete (the next has started, or the list has closed)', () => {
    const { step, prefetched } = revising();
    const s = new ReplyStream(step, { args: args(), round: 1, given: P });
    s.onPartial({ nextQueries: ['first que'] });
    expect(prefetched).toEqual([]);
    s.onPartial({ nextQueries: ['first query', 'sec'] });
    s.onPartial({ nextQueries: ['first query', 'second query'], queriesDone: true });
    s.onPartial({ nextQueries: ['first query', 'second query'], queriesDone: true });
    expect(prefetched).toEqual(['first query', 'second query']);
  });

  it('a changed step in round 1 says its revised text and queries so far, then all of them at the end', () => {
    const ready: { revised: string; queries: string[]; complete: boolean }[] = [];
    const { step } = revising({ onReady: (r) => ready.push(r) });
    const s = new ReplyStream(step, { args: args(), round: 1, given: P });
    s.onPartial({ kept: false, settled: settled({ sufficient: false }) });
    expect(ready).toEqual([]); // its queries have not started
    s.onPartial({ kept: false, settled: settled({ sufficient: false }), nextQueries: ['q1', 'q'] });
    s.end(result({ kept: false, sufficient: false, nextQueries: ['q1', 'q2'] }));
    expect(ready).toEqual([
      { revised: 'Curie moved to Paris in 1891.', queries: ['q1'], complete: false },
      { revised: 'Curie moved to Paris in 1891.', queries: ['q1', 'q2'], complete: true },
    ]);
  });

  it('commits the step as soon as it is settled and sufficient, before the later queries; the end adds no second passages event', () => {
    const { step, events } = revising();
    const s = new ReplyStream(step, { args: args(), round: 2, given: P });
    s.onPartial({ settled: settled({ sufficient: false }) });
    expect(types(events)).toEqual([]);
    s.onPartial({ settled: settled() });
    expect(types(events)).toEqual(['passages', 'step-done']);
    expect(step.early?.event.status).toBe('revised');
    s.end(result());
    expect(types(events)).toEqual(['passages', 'step-done']);
  });

  it('without an early commit the end records the round passages and whether they sufficed', () => {
    const { step, events } = revising();
    const s = new ReplyStream(step, { args: args(), round: 1, given: P });
    s.end(result({ sufficient: false }));
    expect(events).toEqual([{ type: 'passages', index: 3, round: 1, passages: P, sufficient: false }]);
  });

  it('the last step streams its answer with source numbers once it is final, flushing the rest at the end', () => {
    const { step, events } = revising();
    const s = new ReplyStream(step, { args: args({ finalRound: true }), round: 1, given: P, answer: new AnswerShow(step.ctx, ALIASES, 'revision') });
    s.onPartial({ final: 'Paris [P' });
    s.onPartial({ final: 'Paris [P2] and' });
    s.end(result({ final: 'Paris [P2] and' }));
    const answer = events.filter((e) => e.type === 'answer-delta').map((e) => (e as { text: string }).text);
    expect(answer.join('')).toBe('Paris [1] and');
  });
});
