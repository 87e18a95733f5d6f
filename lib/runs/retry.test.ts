/** Retry continues a run that stopped part-way from its last checkpoint, under the same id; Run
 * again starts over. What a panel following the run sees is checked too: the events it receives,
 * applied to the snapshot it was given, show each text once and no citation that points nowhere.
 * Real pipeline, real client, fake server, real store. */
import { afterEach, describe, expect, it } from 'vitest';
import { curieLibrary, notBeside, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { pipelineResponder, type PipelineScenario } from '../../test/harness/pipeline-responder.ts';
import type { Reply } from '../../test/harness/fake-llm.ts';
import { RatifyDb } from '../store/db';
import { runStore } from '../store/runs';
import { executeRun } from '../pipeline/run';
import type { Run } from '../core/run';
import { withDefaults, type PipelineSettings } from '../settings/schema';
import { followPanel, type PanelFollower } from '../../test/harness/panel-follower.ts';
import { RunManager } from './run-manager';

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const steps = ['Marie Curie was born in Krakow in 1870.', 'She married Pierre Curie.', 'She discovered radium.', 'She won two Nobel Prizes.'];
const facts = [
  { step: 0, phrase: 'born 7 November 1867 in Warsaw', revised: 'Marie Curie was born in Warsaw in 1867.' },
  { step: 1, phrase: 'married Maria Skłodowska in 1895' },
  { step: 2, phrase: 'radium and polonium' },
  { step: 3, phrase: 'Nobel Prize in Chemistry 1911' },
];
const scenario: PipelineScenario = { steps, facts, finalAnswer: 'Marie Curie, born in Warsaw, discovered radium and won two Nobel Prizes.' };

function setup(w: TestWorld, pipeline: Partial<PipelineSettings> = {}) {
  const store = runStore(new RatifyDb(`t-${Math.random()}`));
  let n = 0;
  const manager = new RunManager({
    store,
    loadSettings: () => Promise.resolve(withDefaults({ llm: { baseURL: 'http://127.0.0.1:1/v1', model: 'm' }, pipeline })),
    execute: (run, ctx) => executeRun({ run, llm: w.llm, library: curieLibrary(), settings: ctx.settings.pipeline, blocked: ctx.blocked, signal: ctx.signal, emit: ctx.emit }),
    newId: () => `run-${++n}`,
  });
  return { store, manager };
}

/** A panel (its one store of runs, fed by the worker's run feed): the snapshot it is given, then
 * every event applied with the one reducer. */
function follow(manager: RunManager, id: string): { run(): Run | undefined; ready(): boolean; seen: PanelFollower['seen']; onUpdate: PanelFollower['onUpdate'] } {
  const panel = followPanel(manager);
  return { run: () => panel.run(id), ready: () => panel.state().ready, seen: panel.seen, onUpdate: panel.onUpdate };
}

const isStep = (req: { lastUser: string }, i: number) => new RegExp(`^Current step: ${i}\\b`, 'm').test(req.lastUser);
const stagesSince = (w: TestWorld, from: number) => w.server.chatRequests().slice(from).filter(notBeside).map((r) => r.stage);

describe('Retry', () => {
  it('after a failure at step 4 continues there: no gate, draft or steps 1–3 are asked again', async () => {
    world = await startWorld(scenario);
    let failing = true;
    const base = pipelineResponder(scenario);
    world.server.setResponder((req) => (failing && req.stage === 'revise' && isStep(req, 4) ? { fault: { kind: 'status', status: 500 } } : base(req)));
    const { manager, store } = setup(world); // speculative revision on, as by default
    const first = await manager.start('ask', { text: 'Tell me about Marie Curie.' });
    await manager.settled(first.id);
    const failed = (await store.get(first.id)) as Run;
    expect(failed.status).toBe('error');
    expect(failed.error).toMatchObject({ code: 'server', stage: 'revise' });
    expect(failed.steps.map((s) => s.status)).toEqual(['revised', 'unchanged', 'unchanged', 'running']);
    expect(stagesSince(world, 0).filter((s) => s !== 'revise')).toEqual(['gate', 'draft']);

    failing = false;
    const before = world.server.chatRequests().length;
    const resumed = await manager.retry(failed);
    expect(resumed.id).toBe(first.id);
    const panel = follow(manager, first.id);
    await manager.settled(first.id);
    expect(stagesSince(world, before)).toEqual(['revise']);
    expect(world.server.chatRequests().slice(before).filter(notBeside).every((r) => isStep({ lastUser: (r.body as { messages: { content: string }[] }).messages.at(-1)?.content ?? '' }, 4))).toBe(true);
    const done = (await store.get(first.id)) as Run;
    expect(done.status).toBe('done');
    expect(done.error).toBeUndefined();
    expect(done.answer).toMatch(/^Marie Curie, born in Warsaw, discovered radium and won two Nobel Prizes\. (\[\d\])+$/);
    expect(done.sources.length).toBeGreaterThanOrEqual(2);
    expect(panel.run()?.answer).toBe(done.answer);

    // Run again starts over, as a new run.
    const after = world.server.chatRequests().length;
    const fresh = await manager.again(done);
    expect(fresh.id).not.toBe(first.id);
    await manager.settled(fresh.id);
    expect(stagesSince(world, after).slice(0, 2)).toEqual(['gate', 'draft']);
    // (Step 1 changes, so speculative revisions of the later steps are redone: 4 or more.)
    expect(stagesSince(world, after).filter((s) => s === 'revise').length).toBeGreaterThanOrEqual(4);
  });

  it('after a cancel continues from the checkpoint too', async () => {
    world = await startWorld(scenario);
    const base = pipelineResponder(scenario);
    let hang = true;
    world.server.setResponder((req) => (hang && req.stage === 'revise' && isStep(req, 3) ? { fault: { kind: 'hang' } } : base(req)));
    const { manager, store } = setup(world, { speculate: false });
    const run = await manager.start('ask', { text: 'Tell me about Marie Curie.' });
    const watch = follow(manager, run.id);
    await expect.poll(() => watch.run()?.steps[2]?.status, { timeout: 10_000 }).toBe('running');
    manager.cancel(run.id);
    await manager.settled(run.id);
    const cancelled = (await store.get(run.id)) as Run;
    expect(cancelled.status).toBe('cancelled');
    hang = false;
    const before = world.server.chatRequests().length;
    await manager.retry(cancelled);
    await manager.settled(run.id);
    expect(stagesSince(world, before)).toEqual(['revise', 'revise']); // steps 3 and 4
    expect((await store.get(run.id))?.status).toBe('done');
  });
});

describe('half-streamed text', () => {
  /** The reply cut off after `at` of its characters (every try), until `healed`. */
  const cut = (r: Reply, at: number): Reply => {
    const content = JSON.stringify('json' in r ? r.json : {});
    return { fault: { kind: 'truncate', afterChars: Math.floor(content.length * at), content } };
  };

  it('an answer cut off by an error keeps no marker, says it is unfinished, and Retry writes it once', async () => {
    const sc: PipelineScenario = { steps: steps.slice(0, 2), facts, finalAnswer: 'Marie Curie, born in Warsaw in 1867, married Pierre Curie in 1895.' };
    world = await startWorld(sc);
    const base = pipelineResponder(sc);
    let healed = false;
    world.server.setResponder(async (req) => {
      const r = await base(req);
      // The last step's reply breaks off in the middle of its answer, after a citation marker.
      return !healed && req.stage === 'revise' && isStep(req, 2) ? cut(r, 0.97) : r;
    });
    const { manager, store } = setup(world, { speculate: false });
    const run = await manager.start('ask', { text: 'Tell me about Marie Curie.' });
    const panel = follow(manager, run.id);
    await manager.settled(run.id);
    const failed = (await store.get(run.id)) as Run;
    expect(failed.status).toBe('error');
    expect(failed.error?.stage).toBe('revise');
    expect(failed.answerFinal).toBe(false);
    expect(failed.answer).toMatch(/^Marie Curie, born in Warsaw in 1867, married Pierre Curie in 1895\./);
    expect(failed.answer).not.toMatch(/\[\d+\]/);
    expect(failed.sources).toEqual([]);
    expect(panel.run()?.answer).toBe(failed.answer);

    healed = true;
    const before = world.server.chatRequests().length;
    // A panel open when Retry is clicked: it is sent the continued run, then its events.
    const again = follow(manager, run.id);
    await expect.poll(() => again.ready()).toBe(true);
    await manager.retry(failed);
    await manager.settled(run.id);
    // The last step was committed before its answer broke off (its verdict, text and citations
    // had all streamed): Retry only writes the missing answer.
    expect(stagesSince(world, before)).toEqual(['compose']);
    const done = (await store.get(run.id)) as Run;
    expect(done.answer).toBe('Marie Curie, born in Warsaw in 1867, married Pierre Curie in 1895. [1][2]');
    expect(done.answerFinal).toBe(true);
    // The panel saw the answer dropped and written once, not appended to the unfinished one.
    expect(again.seen.some((u) => u.type === 'event' && u.event.type === 'answer-reset')).toBe(true);
    expect(again.run()?.answer).toBe(done.answer);
  });

  it('a draft cut off by an error is streamed again from its start on Retry, never twice', async () => {
    world = await startWorld(scenario);
    const base = pipelineResponder(scenario);
    let healed = false;
    world.server.setResponder(async (req) => {
      const r = await base(req);
      return !healed && req.stage === 'draft' ? cut(r, 0.6) : r;
    });
    const { manager, store } = setup(world, { speculate: false });
    const run = await manager.start('ask', { text: 'Tell me about Marie Curie.' });
    await manager.settled(run.id);
    const failed = (await store.get(run.id)) as Run;
    expect(failed.error?.stage).toBe('draft');
    expect(failed.draftText).toMatch(/^1\. Marie Curie was born in Krakow in 1870\.\n2\./);

    healed = true;
    await manager.retry(failed);
    const panel = follow(manager, run.id);
    let atDraft: string | undefined;
    panel.onUpdate((u) => {
      if (u.type === 'event' && u.event.type === 'draft') atDraft = panel.run()?.draftText;
    });
    await manager.settled(run.id);
    expect(atDraft).toBe(steps.map((s, i) => `${i + 1}. ${s}`).join('\n'));
    expect((await store.get(run.id))?.status).toBe('done');
  });
});
