/** The panel's one store of runs: a snapshot, then updates applied with the one reducer; a fresh
 * snapshot after the worker went away; two runs at once; the run shown changed only by the worker. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyEvent, newRun } from '../pipeline/run-state';
import type { Run, RunEvent } from '../core/run';
import { activeRun, createPanelRunStore, type PanelRunStore } from './panel-runs';
import type { PanelUpdate } from './run-feed';

afterEach(() => {
  vi.useRealTimers();
});

/** A scripted worker at the other end: `send` delivers an update, `drop` closes the connection. */
function worker() {
  const connections: { onUpdate: (u: PanelUpdate) => void; onClose: () => void; closed: boolean }[] = [];
  const asked: (string | null)[] = [];
  let reply: (id: string | null) => Promise<number> = () => Promise.resolve(1);
  const connect = (onUpdate: (u: PanelUpdate) => void, onClose: () => void) => {
    const c = { onUpdate, onClose, closed: false };
    connections.push(c);
    return () => void (c.closed = true);
  };
  const current = () => connections.at(-1)!;
  return {
    connections,
    asked,
    store: (): PanelRunStore =>
      createPanelRunStore(connect, (id) => {
        asked.push(id);
        return reply(id);
      }),
    send: (u: PanelUpdate) => current().onUpdate(u),
    drop: () => current().onClose(),
    answerShow: (f: (id: string | null) => Promise<number>) => void (reply = f),
  };
}

const question = newRun('q1', 'ask', { text: 'Who was Marie Curie?' }, 1);
const check = newRun('p1', 'page', { text: 'Article.', page: { url: 'https://example.org/a', title: 'A', tabId: 4 } }, 2);
const delta = (text: string): RunEvent => ({ type: 'answer-delta', text });

describe('the panel’s store of runs', () => {
  it('holds nothing until the worker’s snapshot, then its runs with each event applied by the one reducer', () => {
    const w = worker();
    const store = w.store();
    const seen: number[] = [];
    store.subscribe(() => seen.push(1));
    expect(w.connections).toHaveLength(1); // one subscription, opened by the first reader
    store.subscribe(() => {});
    expect(w.connections).toHaveLength(1);
    expect(store.getSnapshot().ready).toBe(false);

    w.send({ type: 'snapshot', activeRunId: 'q1', version: 0, runs: [question] });
    w.send({ type: 'event', runId: 'q1', event: delta('Marie Curie ') });
    w.send({ type: 'event', runId: 'q1', event: delta('was a physicist.') });
    const s = store.getSnapshot();
    expect(s.ready).toBe(true);
    expect(activeRun(s)?.answer).toBe(applyEvent(applyEvent(question, delta('Marie Curie ')), delta('was a physicist.')).answer);
    expect(activeRun(s)?.answer).toBe('Marie Curie was a physicist.');
    expect(seen).toHaveLength(3); // readers are told of each change
    // An event of a run the panel does not hold changes nothing.
    w.send({ type: 'event', runId: 'gone', event: delta('x') });
    expect(store.getSnapshot()).toBe(s);
  });

  it('two runs at once: a page check goes on while a question is answered, each with its own events', () => {
    const w = worker();
    const store = w.store();
    store.subscribe(() => {});
    w.send({ type: 'snapshot', activeRunId: 'p1', version: 0, runs: [check] });
    // A question asked meanwhile: the worker starts it, then shows it.
    w.send({ type: 'run', run: question });
    w.send({ type: 'active', runId: 'q1', version: 5 });
    w.send({ type: 'event', runId: 'p1', event: { type: 'draft', steps: [{ text: 'Claim one.' }] } });
    w.send({ type: 'event', runId: 'q1', event: delta('She was a physicist.') });
    const s = store.getSnapshot();
    expect(s.activeRunId).toBe('q1');
    expect(activeRun(s)?.answer).toBe('She was a physicist.');
    expect(s.runs.get('p1')?.steps.map((x) => x.draft)).toEqual(['Claim one.']);
    expect(s.runs.get('p1')?.answer).toBeUndefined();
  });

  it('a stored run opened from History comes with the change; New thread shows none', () => {
    const w = worker();
    const store = w.store();
    store.subscribe(() => {});
    w.send({ type: 'snapshot', activeRunId: null, version: 0, runs: [] });
    const old: Run = { ...question, id: 'old', status: 'done', answer: 'Stored.' };
    w.send({ type: 'active', runId: 'old', version: 2, run: old });
    expect(activeRun(store.getSnapshot())).toEqual(old);
    w.send({ type: 'active', runId: null, version: 3 });
    expect(activeRun(store.getSnapshot())).toBeUndefined();
  });

  it('reconnects when the worker goes away, and the fresh snapshot replaces what it held', async () => {
    vi.useFakeTimers();
    const w = worker();
    const store = w.store();
    store.subscribe(() => {});
    w.send({ type: 'snapshot', activeRunId: 'q1', version: 0, runs: [question, check] });
    w.send({ type: 'event', runId: 'q1', event: delta('Half an ans') });

    w.drop(); // the browser stopped the worker
    await vi.advanceTimersByTimeAsync(100);
    expect(w.connections).toHaveLength(2);
    // The new worker resumed the question from its checkpoint; the page check was cut off (stored
    // as interrupted, so no longer live).
    const resumed = { ...question, answer: 'Half an' };
    w.send({ type: 'snapshot', activeRunId: 'q1', version: 0, runs: [resumed] });
    w.send({ type: 'event', runId: 'q1', event: delta(' answer.') });
    const s = store.getSnapshot();
    expect(activeRun(s)?.answer).toBe('Half an answer.');
    expect(s.runs.has('p1')).toBe(false);
  });

  it('tries a worker that cannot start a few times, each a little later, then stops; a message resets the count', async () => {
    vi.useFakeTimers();
    const w = worker();
    const store = w.store();
    const stop = store.subscribe(() => {});
    w.send({ type: 'snapshot', activeRunId: null, version: 0, runs: [] });
    w.drop();
    await vi.advanceTimersByTimeAsync(100);
    w.send({ type: 'snapshot', activeRunId: null, version: 0, runs: [] }); // it came back
    for (let i = 0; i < 8; i++) {
      w.drop();
      await vi.advanceTimersByTimeAsync(100 * 2 ** i);
    }
    // After the first drop it came back; then five more tries, and no sixth.
    expect(w.connections).toHaveLength(2 + 5);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.connections).toHaveLength(2 + 5);
    stop();
  });

  it('closes the subscription when the last reader goes, and does not reconnect then', async () => {
    vi.useFakeTimers();
    const w = worker();
    const store = w.store();
    const stop = store.subscribe(() => {});
    stop();
    expect(w.connections[0]?.closed).toBe(true);
    w.drop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(w.connections).toHaveLength(1);
  });
});

describe('the run the panel shows', () => {
  it('is changed by asking the worker: the panel waits until the worker’s change has arrived', async () => {
    const w = worker();
    const store = w.store();
    store.subscribe(() => {});
    w.send({ type: 'snapshot', activeRunId: 'q1', version: 0, runs: [question] });
    w.answerShow(() => Promise.resolve(7));
    let shown = false;
    const asked = store.show(null).then(() => (shown = true));
    const settled = store.settled();
    await new Promise((r) => setTimeout(r, 10));
    expect(w.asked).toEqual([null]);
    // The worker answered, but its change has not arrived: the panel still shows the question.
    expect(shown).toBe(false);
    expect(store.getSnapshot().activeRunId).toBe('q1');
    w.send({ type: 'active', runId: null, version: 7 });
    await asked;
    expect((await settled).activeRunId).toBeNull();
  });

  it('a change that arrived before the worker’s answer counts; so does a fresh snapshot', async () => {
    const w = worker();
    const store = w.store();
    store.subscribe(() => {});
    w.send({ type: 'snapshot', activeRunId: 'q1', version: 0, runs: [question] });
    w.answerShow(() => {
      w.send({ type: 'active', runId: null, version: 3 });
      return Promise.resolve(3);
    });
    await store.show(null);
    expect(store.getSnapshot().activeRunId).toBeNull();

    w.answerShow(() => Promise.resolve(9));
    const again = store.show('q1');
    await new Promise((r) => setTimeout(r, 0));
    w.send({ type: 'snapshot', activeRunId: 'q1', version: 0, runs: [question] }); // a restarted worker
    await again;
    expect(store.getSnapshot().activeRunId).toBe('q1');
  });
});
