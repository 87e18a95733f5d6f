import { afterEach, describe, expect, it } from 'vitest';
import { curieLibrary, notBeside, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { RatifyDb } from '../store/db';
import { runStore, type RunStore } from '../store/runs';
import { executeRun } from '../pipeline/run';
import { newRun } from '../pipeline/run-state';
import type { Run } from '../core/run';
import { withDefaults, type Settings } from '../settings/schema';
import { followPanel } from '../../test/harness/panel-follower.ts';
import { RunManager, type ExecuteContext } from './run-manager';

const configured: Settings = withDefaults({ llm: { baseURL: 'http://127.0.0.1:1/v1', model: 'm' } });

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A manager over a fresh store whose executor is the real pipeline against the fake model. */
function setup(w: TestWorld, o: { settings?: Settings; execute?: (run: Run, ctx: ExecuteContext) => Promise<unknown>; store?: { put(run: Run): Promise<unknown> } & Pick<RunStore, 'get' | 'running' | 'list'> } = {}) {
  const store = o.store ?? runStore(new RatifyDb(`t-${Math.random()}`));
  let n = 0;
  const saveErrors: unknown[] = [];
  const manager = new RunManager({
    store,
    loadSettings: () => Promise.resolve(o.settings ?? configured),
    execute: o.execute ?? ((run, ctx) => executeRun({ run, llm: w.llm, library: curieLibrary(), settings: ctx.settings.pipeline, blocked: ctx.blocked, signal: ctx.signal, emit: ctx.emit })),
    onSaveError: (err) => saveErrors.push(err),
    newId: () => `run-${++n}`,
  });
  return { store, manager, saveErrors };
}

const steps = ['Marie Curie was born in 1867.', 'She married Pierre Curie.', 'She discovered radium.'];
const facts = [
  { step: 0, phrase: 'born 7 November 1867' },
  { step: 1, phrase: 'married Maria Skłodowska in 1895', revised: 'She married Pierre Curie in 1895.' },
  { step: 2, phrase: 'radium and polonium' },
];

describe('RunManager', () => {
  it('streams the pipeline’s events to subscribers and stores the run the pipeline reduced', async () => {
    world = await startWorld({ steps: steps.slice(0, 1), facts, finalAnswer: 'Born in 1867.' }, { latency: { firstTokenMs: 30 } });
    const { store, manager } = setup(world);
    const run = await manager.start('ask', { text: '  When was Marie Curie born?  ' });
    const { seen } = followPanel(manager);
    await manager.settled(run.id);
    const stored = await store.get(run.id);
    expect(stored?.status).toBe('done');
    expect(stored?.answer).toBe('Born in 1867. [1]');
    expect(stored?.input.text).toBe('When was Marie Curie born?');
    expect(seen[0]?.type).toBe('snapshot');
    const types = seen.flatMap((u) => (u.type === 'event' ? [u.event.type] : []));
    expect(types.at(-1)).toBe('done');
    // Causal order: the last step-done comes before the answer it produced.
    expect(types.lastIndexOf('step-done')).toBeLessThan(types.indexOf('answer'));
    expect((await store.list())[0]?.id).toBe(run.id);
  });

  it('keeps an empty, oversized or unconfigured request as an ended run with a clear error, without calling the model', async () => {
    world = await startWorld({});
    const { manager, store } = setup(world);
    const empty = await manager.start('verify', { text: '   ' });
    expect([empty.status, empty.error?.code]).toEqual(['error', 'empty-input']);
    const huge = await manager.start('verify', { text: 'word '.repeat(5000) });
    expect(huge.error?.code).toBe('too-long');
    expect(huge.error?.message).toMatch(/limit is 12,000/);
    await manager.settled(huge.id);
    expect((await store.get(huge.id))?.input.text.length).toBeGreaterThan(12_000);
    const question = await manager.start('ask', { text: 'x'.repeat(4001) });
    expect(question.error?.message).toMatch(/question has 4,001 characters; the limit is 4,000/);

    const unconfigured = setup(world, { settings: withDefaults({}) });
    const r = await unconfigured.manager.start('ask', { text: 'Who?' });
    expect([r.status, r.error?.code]).toEqual(['error', 'not-configured']);
    await unconfigured.manager.settled(r.id);
    expect((await unconfigured.store.get(r.id))?.error?.code).toBe('not-configured');
    expect(world.server.chatRequests()).toHaveLength(0);
  });

  it('cancels at once and ignores late output', async () => {
    world = await startWorld({ steps, facts }, { latency: { firstTokenMs: 2_000 } });
    const { manager, store } = setup(world);
    const run = await manager.start('ask', { text: 'Tell me about Marie Curie.' });
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    expect(manager.cancel(run.id)).toBe(true);
    await manager.settled(run.id);
    expect(Date.now() - t0).toBeLessThan(1000);
    const stored = await store.get(run.id);
    expect(stored?.status).toBe('cancelled');
    expect(stored?.answer).toBeUndefined();
  });

  it('Retry continues a failed run from its last checkpoint; Run again starts over', async () => {
    world = await startWorld({});
    const { manager, store } = setup(world, { settings: withDefaults({ llm: { baseURL: 'http://127.0.0.1:1/v1', model: 'm' }, pipeline: { speculate: false } }) });
    // The third revise call fails for good (the server's 500s outlast the client's retries).
    let revises = 0;
    const script = pipelineResponder({ steps, facts });
    world.server.setResponder((req) => (req.stage === 'revise' && ++revises >= 3 && revises <= 5 ? { fault: { kind: 'status', status: 500 } } : script(req)));
    const first = await manager.start('ask', { text: 'Tell me about Marie Curie.' });
    await manager.settled(first.id);
    const failed = (await store.get(first.id)) as Run;
    expect(failed.status).toBe('error');
    expect(failed.steps.map((s) => s.status)).toEqual(['unchanged', 'revised', 'running']);
    const before = world.server.chatRequests().length;

    const again = await manager.retry(failed);
    expect(again.id).toBe(first.id);
    await manager.settled(first.id);
    const done = (await store.get(first.id)) as Run;
    expect(done.status).toBe('done');
    expect(done.error).toBeUndefined();
    // Only the failed step was asked again: no gate, no draft, no steps 1–2.
    expect(world.server.chatRequests().slice(before).map((r) => r.stage)).toEqual(['revise']);

    const fresh = await manager.again(done);
    expect(fresh.id).not.toBe(first.id);
    await manager.settled(fresh.id);
    expect(world.server.chatRequests().slice(before + 1).map((r) => r.stage)).toEqual(['gate', 'draft', 'revise', 'revise', 'revise']);
  });

  it('reports a checkpoint that cannot be written instead of swallowing it', async () => {
    world = await startWorld({ steps: steps.slice(0, 1), facts });
    const real = runStore(new RatifyDb(`t-${Math.random()}`));
    let puts = 0;
    const flaky = { ...real, put: (run: Run) => (++puts === 3 ? Promise.reject(new Error('QuotaExceededError')) : real.put(run)) };
    const { manager, saveErrors } = setup(world, { store: flaky });
    const run = await manager.start('ask', { text: 'When was Marie Curie born?' });
    await manager.settled(run.id);
    expect(saveErrors.map(String)).toEqual(['Error: QuotaExceededError']);
    expect((await real.get(run.id))?.status).toBe('done');
  });

  it('records a failure to start the pipeline at all as an error', async () => {
    world = await startWorld({});
    const { manager, store } = setup(world, {
      execute: () => Promise.reject(new Error('boom')),
    });
    const run = await manager.start('ask', { text: 'q' });
    await manager.settled(run.id);
    const stored = await store.get(run.id);
    expect(stored?.status).toBe('error');
    expect(stored?.error?.message).toMatch(/boom/);
  });

  it('after a worker restart continues runs with a checkpoint and marks the others interrupted', async () => {
    world = await startWorld({ steps: steps.slice(0, 2), facts });
    const { manager, store } = setup(world);
    const fresh = newRun('a', 'ask', { text: 'q1' });
    // A checkpoint: gated, drafted, step 1 revised; step 2 to go.
    const withStep: Run = {
      ...newRun('b', 'ask', { text: 'Tell me about Marie Curie.' }),
      gate: { label: 'clear', beta: 0.1, betaThreshold: 0.5, retrieve: true },
      steps: [
        { index: 0, draft: steps[0] ?? '', revised: steps[0], status: 'unchanged', queries: [], citations: [] },
        { index: 1, draft: steps[1] ?? '', status: 'pending', queries: [{ round: 1, query: 'Pierre Curie married', passages: [] }], citations: [] },
      ],
    };
    await store.put({ ...fresh, steps: [{ index: 0, draft: 'd', status: 'pending', queries: [], citations: [] }] });
    await store.put(withStep);
    await manager.recover();
    await manager.settled('b');
    expect((await store.get('a'))?.status).toBe('interrupted');
    expect((await store.get('a'))?.error?.code).toBe('interrupted');
    const b = await store.get('b');
    expect(b?.status).toBe('done');
    expect(world.server.chatRequests().filter(notBeside).map((r) => r.stage)).toEqual(['revise']);
  });
});
