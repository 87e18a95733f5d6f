/** A run the browser cut off by stopping the worker is continued by the next worker from its last
 * checkpoint (RunManager.recover): what a panel following it sees shows each text once, and no
 * work already in the checkpoint is asked of the model again. The "dead" worker is a manager whose
 * calls hang; the new worker is a second manager over a copy of the stored checkpoint. Real
 * pipeline, real client, fake server, real store. */
import { afterEach, describe, expect, it } from 'vitest';
import { curieLibrary, notBeside, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { pipelineResponder, type PipelineScenario } from '../../test/harness/pipeline-responder.ts';
import type { LlmRequest, Reply } from '../../test/harness/fake-llm.ts';
import { RatifyDb } from '../store/db';
import { runStore, type RunStore } from '../store/runs';
import { executeRun } from '../pipeline/run';
import type { Run, RunMode } from '../core/run';
import { withDefaults } from '../settings/schema';
import { followPanel } from '../../test/harness/panel-follower.ts';
import { RunManager } from './run-manager';

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function worker(w: TestWorld, store: RunStore) {
  return new RunManager({
    store,
    loadSettings: () => Promise.resolve(withDefaults({ llm: { baseURL: 'http://127.0.0.1:1/v1', model: 'm' } })),
    execute: (run, ctx) => executeRun({ run, llm: w.llm, library: curieLibrary(), settings: ctx.settings.pipeline, blocked: ctx.blocked, signal: ctx.signal, emit: ctx.emit }),
    newId: () => 'run-1',
  });
}

/** Starts a run on a worker whose model stops answering at `dies`, waits until the stored
 * checkpoint satisfies `ready`, and hands a copy of it to a new worker, which recovers it. */
async function restartAt(sc: PipelineScenario, mode: RunMode, text: string, dies: (req: LlmRequest, scripted: Reply) => Reply | undefined, ready: (stored: Run) => boolean, tokensPerSec = 80) {
  // Streamed slowly enough for the worker's once-a-second checkpoints of streaming text.
  world = await startWorld(sc, { latency: { tokensPerSec } });
  const base = pipelineResponder(sc);
  let dead = true;
  world.server.setResponder(async (req) => {
    const scripted = await base(req);
    return (dead && dies(req, scripted)) || scripted;
  });
  const oldStore = runStore(new RatifyDb(`old-${Math.random()}`));
  const old = worker(world, oldStore);
  const run = await old.start(mode, { text });
  await expect.poll(async () => ready((await oldStore.get(run.id)) as Run), { timeout: 10_000, interval: 100 }).toBe(true);
  const checkpoint = (await oldStore.get(run.id)) as Run;
  expect(checkpoint.status).toBe('running');
  old.cancel(run.id); // the old worker is gone; its late writes go to its own store
  await old.settled(run.id);
  dead = false;
  world.server.setLatency({});
  const store = runStore(new RatifyDb(`new-${Math.random()}`));
  await store.put(checkpoint);
  const fresh = worker(world, store);
  const before = world.server.chatRequests().length;
  const [recovered] = await fresh.recover();
  // A panel that connects (its one store of runs): the snapshot, then every event applied with
  // the one reducer.
  const panel = followPanel(fresh);
  const atDraft: (string | undefined)[] = [];
  panel.onUpdate((u) => {
    if (u.type === 'event' && u.event.type === 'draft') atDraft.push(panel.run(run.id)?.draftText);
  });
  await fresh.settled(run.id);
  const after = world.server.chatRequests().slice(before).filter(notBeside);
  return { checkpoint, recovered, panel: () => panel.run(run.id), atDraft, after, done: (await store.get(run.id)) as Run };
}

const stepOf = (req: { body: unknown }): number | undefined => {
  const last = (req.body as { messages: { content: string }[] }).messages.at(-1)?.content ?? '';
  const m = /^Current (?:step|claim): (\d+)\b/m.exec(last);
  return m ? Number(m[1]) : undefined;
};

describe('after the worker restarts', () => {
  it('verify: claims that were streaming are streamed again from their start, shown once', async () => {
    const selection = 'Marie Curie was born in Krakow in 1870. She married Pierre Curie in 1895.';
    const sc: PipelineScenario = {
      claims: [
        { claim: 'Marie Curie was born in Krakow in 1870.', phrase: 'born 7 November 1867 in Warsaw', verdict: 'corrected', corrected: 'Marie Curie was born in Warsaw in 1867.' },
        { claim: 'She married Pierre Curie in 1895.', phrase: 'married Maria Skłodowska in 1895', verdict: 'supported' },
      ],
    };
    const r = await restartAt(
      sc,
      'verify',
      selection,
      (req) => {
        if (req.stage !== 'claims') return undefined;
        const content = JSON.stringify({ label: 'clear', claims: sc.claims!.map((c) => ({ claim: c.claim, sentence: c.claim })), confidence: 0.2, query: 'Marie Curie' });
        return { fault: { kind: 'stall', afterChars: content.indexOf('She married') + 8, content } };
      },
      (stored) => (stored.draftText ?? '').length > 0,
      30,
    );
    expect(r.checkpoint.draftText).toMatch(/^1\. Marie/);
    expect(r.atDraft).toEqual(['1. Marie Curie was born in Krakow in 1870.\n2. She married Pierre Curie in 1895.']);
    expect(r.done.status).toBe('done');
    expect(r.panel()?.claims?.map((c) => c.verdict)).toEqual(['corrected', 'supported']);
  });

  for (const mode of ['ask', 'verify'] as const) {
    it(`${mode}: a step the checkpoint has as revised is not asked again`, async () => {
      const sc: PipelineScenario =
        mode === 'ask'
          ? {
              steps: ['Marie Curie was born in Krakow in 1870.', 'She married Pierre Curie.', 'She won two Nobel Prizes.'],
              facts: [
                { step: 0, phrase: 'born 7 November 1867 in Warsaw', revised: 'Marie Curie was born in Warsaw in 1867.' },
                { step: 1, phrase: 'married Maria Skłodowska in 1895' },
                { step: 2, phrase: 'Nobel Prize in Chemistry 1911' },
              ],
            }
          : {
              claims: [
                { claim: 'Marie Curie was born in Krakow in 1870.', phrase: 'born 7 November 1867 in Warsaw', verdict: 'corrected', corrected: 'Marie Curie was born in Warsaw in 1867.' },
                { claim: 'She married Pierre Curie in 1895.', phrase: 'married Maria Skłodowska in 1895', verdict: 'supported' },
                { claim: 'She won the 1911 Nobel Prize in Chemistry.', phrase: 'Nobel Prize in Chemistry 1911', verdict: 'supported' },
              ],
            };
      const text = mode === 'ask' ? 'Tell me about Marie Curie.' : sc.claims!.map((c) => c.claim).join(' ');
      const r = await restartAt(
        sc,
        mode,
        text,
        // The worker dies after step 1 is committed. A check writes the later claims' queries
        // last, and dies while it does; a revision writes them before it is committed (with them),
        // so the worker dies while step 2 is being revised.
        mode === 'verify'
          ? (req, scripted) => {
              if (stepOf(req) !== 1 || !('json' in scripted)) return undefined;
              const content = JSON.stringify(scripted.json);
              return { fault: { kind: 'stall', afterChars: content.indexOf('"nextQueries"') + 18, content } };
            }
          : (req, scripted) => (stepOf(req) === 2 && 'json' in scripted ? { fault: { kind: 'stall', afterChars: 5, content: JSON.stringify(scripted.json) } } : undefined),
        (stored) => stored.steps[0]?.status === 'revised' && stored.steps[0].queriesPending === (mode === 'verify' ? true : undefined),
      );
      expect(r.checkpoint.steps[0]?.revised).toBe('Marie Curie was born in Warsaw in 1867.');
      expect(r.after.map(stepOf).sort()).toEqual([2, 3]);
      expect(r.done.status).toBe('done');
      expect(r.done.steps.map((s) => s.status)).toEqual(['revised', 'unchanged', 'unchanged']);
    });
  }
});
