/** The worker's side of the panel's subscription, over a real RunManager and the real request
 * handlers: every panel is told the same, the run shown is changed only by the worker (and kept for
 * the next worker), and a run started from anywhere reaches the panels as one run, then its events. */
import { describe, expect, it } from 'vitest';
import { followFeed, memoryActiveRun } from '../../test/harness/panel-follower.ts';
import { applyEvent, newRun } from '../pipeline/run-state';
import type { Run, RunEvent } from '../core/run';
import { withDefaults } from '../settings/schema';
import { createHandlers, type HandlerDeps } from './handlers';
import { RunManager, type ExecuteContext } from './run-manager';
import { createRunFeed } from './run-feed';

/** A manager whose runs stream an answer in two parts and end when `finish` is called. */
function setup(stored: Run[] = []) {
  const db = new Map(stored.map((r) => [r.id, r]));
  const finish = new Map<string, () => void>();
  let n = 0;
  const execute = async (run: Run, ctx: ExecuteContext) => {
    let r = run;
    const emit = (ev: RunEvent) => ctx.emit(ev, (r = applyEvent(r, ev)));
    emit({ type: 'answer-delta', text: 'Part one. ' });
    await new Promise<void>((ok) => finish.set(run.id, ok));
    emit({ type: 'answer-delta', text: 'Part two.' });
    emit({ type: 'done', status: 'done' });
  };
  const manager = new RunManager({
    store: { put: (r) => Promise.resolve(db.set(r.id, r)), get: (id) => Promise.resolve(db.get(id)), running: () => Promise.resolve([]) },
    loadSettings: () => Promise.resolve(withDefaults({ llm: { baseURL: 'http://127.0.0.1:1/v1', model: 'm' } })),
    execute,
    newId: () => `run-${++n}`,
  });
  const activeRun = memoryActiveRun();
  const feed = createRunFeed({ manager, getRun: (id) => Promise.resolve(db.get(id)), activeRun, ready: Promise.resolve() });
  const deps = { manager, getRun: (id: string) => Promise.resolve(db.get(id)), setActiveRun: (id: string | null) => feed.show(id) } as Partial<HandlerDeps>;
  const handle = createHandlers(deps as HandlerDeps);
  const panel = () => followFeed(feed);
  return { manager, feed, handle, activeRun, finish: (id: string) => finish.get(id)?.(), panel, connect: feed.connect };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the run feed', () => {
  it('a run started through the one handler reaches every panel as the run, then shown, then its events', async () => {
    const w = setup();
    const [a, b] = [w.panel(), w.panel()];
    await settle();
    const reply = await w.handle({ type: 'run/start', mode: 'ask', input: { text: 'Who was Marie Curie?' } });
    expect(reply.ok).toBe(true);
    w.finish('run-1');
    await w.manager.settled('run-1');
    await settle();
    for (const p of [a, b]) {
      expect(p.seen.map((u) => u.type)).toEqual(['snapshot', 'run', 'event', 'active', 'event', 'event']);
      expect(p.state().activeRunId).toBe('run-1');
      expect(p.run('run-1')).toMatchObject({ status: 'done', answer: 'Part one. Part two.' });
    }
    // The worker kept which run is shown, for the next worker.
    expect(w.activeRun.value()).toBe('run-1');
  });

  it('a panel that connects mid-run gets the run as it is now, then only what follows', async () => {
    const w = setup();
    await w.handle({ type: 'run/start', mode: 'ask', input: { text: 'Who was Marie Curie?' } });
    const late = w.panel();
    await settle();
    expect(late.seen[0]).toMatchObject({ type: 'snapshot', activeRunId: 'run-1', runs: [{ id: 'run-1', answer: 'Part one. ', status: 'running' }] });
    w.finish('run-1');
    await w.manager.settled('run-1');
    expect(late.run('run-1')?.answer).toBe('Part one. Part two.');
  });

  it('a stored run opened from History comes with its copy; New thread shows none; both for every panel', async () => {
    const old: Run = { ...newRun('old', 'ask', { text: 'How tall is Mount Fuji?' }, 1), status: 'done', answer: '3,776 m.' };
    const w = setup([old]);
    const [a, b] = [w.panel(), w.panel()];
    await settle();
    expect((await w.handle({ type: 'run/show', id: 'old' })).ok).toBe(true);
    await settle();
    for (const p of [a, b]) expect(p.run(p.state().activeRunId ?? '')).toEqual(old);
    await w.handle({ type: 'run/show', id: null });
    await settle();
    for (const p of [a, b]) expect(p.state().activeRunId).toBeNull();
    expect(w.activeRun.value()).toBeNull();
  });

  it('changes of the run shown arrive in the order they were asked for, each with a later version', async () => {
    const old: Run = { ...newRun('old', 'ask', { text: 'Q' }, 1), status: 'done' };
    const w = setup([old]);
    const p = w.panel();
    await settle();
    const [first, second, third] = await Promise.all([w.feed.show('old'), w.feed.show(null), w.feed.show('old')]);
    expect(first).toBeLessThan(second);
    expect(second).toBeLessThan(third);
    expect(p.seen.filter((u) => u.type === 'active').map((u) => (u.type === 'active' ? u.runId : ''))).toEqual(['old', null, 'old']);
    expect(p.state().activeRunId).toBe('old');
  });

  it('a panel that closed is told nothing more', async () => {
    const w = setup();
    const sent: string[] = [];
    const stop = await w.connect((u) => sent.push(u.type));
    stop();
    await w.handle({ type: 'run/start', mode: 'ask', input: { text: 'Q' } });
    expect(sent).toEqual(['snapshot']);
    w.finish('run-1');
  });
});
