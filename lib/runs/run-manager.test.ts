import { describe, expect, it } from 'vitest';
import { RatifyDb } from '../store/db';
import { runStore } from '../store/runs';
import { withDefaults, type Settings } from '../settings/schema';
import { newRun } from '../pipeline/run-state';
import type { RunError } from '../pipeline/types';
import { RunManager, type ExecuteContext, type RunUpdate } from './run-manager';

const configured: Settings = withDefaults({ llm: { baseURL: 'http://127.0.0.1:1/v1', model: 'm' } });

function setup(execute: (run: import('../pipeline/types').Run, ctx: ExecuteContext) => Promise<void>, settings = configured) {
  const store = runStore(new RatifyDb(`t-${Math.random()}`));
  let n = 0;
  const manager = new RunManager({
    store,
    loadSettings: async () => settings,
    execute,
    canResume: (r) => r.steps.some((s) => s.status === 'revised'),
    classifyError: (err): RunError => ({ code: 'server', message: String(err) }),
    newId: () => `run-${++n}`,
  });
  return { store, manager };
}

describe('RunManager', () => {
  it('streams events to subscribers and stores the finished run', async () => {
    const { store, manager } = setup(async (_run, ctx) => {
      await new Promise((r) => setTimeout(r, 10)); // a panel subscribes while the model thinks
      ctx.emit({ type: 'answer-delta', text: 'Par' });
      ctx.emit({ type: 'answer-delta', text: 'is' });
      ctx.emit({ type: 'answer', markdown: 'Paris', sources: [] });
    });
    const run = await manager.start('ask', { text: '  Capital of France?  ' });
    const seen: RunUpdate[] = [];
    manager.subscribe(run.id, (u) => seen.push(u));
    await manager.settled(run.id);
    const stored = await store.get(run.id);
    expect(stored?.status).toBe('done');
    expect(stored?.answer).toBe('Paris');
    expect(stored?.input.text).toBe('Capital of France?');
    expect(seen[0].type).toBe('snapshot');
    expect(seen.filter((u) => u.type === 'event').map((u) => (u.type === 'event' ? u.event.type : ''))).toContain('done');
    expect((await store.list())[0].id).toBe(run.id);
  });

  it('keeps an empty, oversized or unconfigured request as a run with a clear error', async () => {
    const { manager, store } = setup(async () => {});
    const empty = await manager.start('verify', { text: '   ' });
    expect(empty.error?.code).toBe('empty-input');
    const huge = await manager.start('verify', { text: 'word '.repeat(5000) });
    expect(huge.error?.code).toBe('too-long');
    expect(huge.error?.message).toMatch(/limit is 12,000/);
    expect((await store.get(huge.id))?.input.text.length).toBeGreaterThan(12_000);

    const unconfigured = setup(async () => {}, withDefaults({}));
    const r = await unconfigured.manager.start('ask', { text: 'Who?' });
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('not-configured');
  });

  it('cancels at once and ignores late output', async () => {
    const { manager, store } = setup(
      (_run, ctx) =>
        new Promise<void>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            ctx.emit({ type: 'answer-delta', text: 'late' });
            setTimeout(resolve, 50);
          });
        }),
    );
    const run = await manager.start('ask', { text: 'q' });
    const t0 = Date.now();
    expect(manager.cancel(run.id)).toBe(true);
    await manager.settled(run.id);
    expect(Date.now() - t0).toBeLessThan(1000);
    const stored = await store.get(run.id);
    expect(stored?.status).toBe('cancelled');
    expect(stored?.answer).toBeUndefined();
  });

  it('records a failure of the executor as a classified error', async () => {
    const { manager, store } = setup(async () => {
      throw new Error('boom');
    });
    const run = await manager.start('ask', { text: 'q' });
    await manager.settled(run.id);
    const stored = await store.get(run.id);
    expect(stored?.status).toBe('error');
    expect(stored?.error).toEqual({ code: 'server', message: 'Error: boom' });
  });

  it('after a worker restart resumes runs with a checkpoint and marks the others interrupted', async () => {
    const resumed: string[] = [];
    const { manager, store } = setup(async (run) => {
      resumed.push(run.id);
    });
    const fresh = newRun('a', 'ask', { text: 'q1' });
    const withStep = { ...newRun('b', 'ask', { text: 'q2' }), steps: [{ index: 0, draft: 'd', revised: 'r', status: 'revised' as const, queries: [], citations: [] }] };
    await store.put(fresh);
    await store.put(withStep);
    await manager.recover();
    await manager.settled('b');
    expect(resumed).toEqual(['b']);
    expect((await store.get('a'))?.status).toBe('interrupted');
    expect((await store.get('a'))?.error?.code).toBe('interrupted');
    expect((await store.get('b'))?.status).toBe('done');
  });
});
