import { afterEach, describe, expect, it } from 'vitest';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { applyEvent, newRun } from './run-state';
import { canResume, executeRun } from './run';
import { curieLibrary, pipelineSettings, runOnce, startWorld, type TestWorld, notBeside } from '../../test/harness/pipeline-world.ts';
import type { Run, RunEvent } from '../core/run';
import type { Library } from '../retrieval/types';

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const steps = ['Marie Curie was born in Krakow in 1870.', 'She married Pierre Curie.', 'She discovered radium.'];
const facts = [
  { step: 0, phrase: 'born 7 November 1867 in Warsaw', revised: 'Marie Curie was born in Warsaw in 1867.' },
  { step: 1, phrase: 'married Maria Skłodowska in 1895', revised: 'She married Pierre Curie in 1895.' },
  { step: 2, phrase: 'radium and polonium' },
];
const Q = { text: 'Tell me about Marie Curie.' };
/** Web sources only: the model writes the step queries, and a step that changes rewrites the later
 * ones (chain.ts), so a run can stop between a step and its queries. */
const webCurie = () => ({ ...curieLibrary(), reach: { tabs: false, web: true } });

/** A run's first life, sequential, checkpointed at step-done and next-queries as the worker
 * does, until `dies(event)`: the last checkpoint. */
async function firstLife(w: TestWorld, dies: (ev: RunEvent) => boolean, saves: (ev: RunEvent) => boolean = (ev) => ev.type === 'step-done' || ev.type === 'next-queries', library: Library = webCurie()): Promise<Run | undefined> {
  let checkpoint: Run | undefined;
  let live = newRun('r1', 'ask', Q, 0);
  const ctrl = new AbortController();
  await executeRun({
    run: live,
    llm: w.llm,
    library,
    settings: pipelineSettings({ speculate: false }),
    signal: ctrl.signal,
    emit: (ev: RunEvent) => {
      live = applyEvent(live, ev);
      if (saves(ev)) checkpoint = structuredClone(live);
      if (dies(ev)) ctrl.abort();
    },
  });
  return checkpoint;
}

describe('executeRun', () => {
  it('drafts, revises each step with citations, and answers with numbered sources', async () => {
    world = await startWorld({ steps: steps.slice(0, 2), facts, finalAnswer: 'Marie Curie, born in Warsaw in 1867, married Pierre Curie in 1895.' });
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.status).toBe('done');
    expect(r.stages.filter(notBeside)).toEqual(['gate', 'draft', 'revise', 'revise']);
    expect(r.run.steps.map((s) => s.status)).toEqual(['revised', 'revised']);
    expect(r.run.answer).toBe('Marie Curie, born in Warsaw in 1867, married Pierre Curie in 1895. [1][2]');
    expect(r.run.sources.map((s) => [s.n, s.url, s.origin, s.quote])).toEqual([
      [1, 'https://en.wikipedia.org/wiki/Marie_Curie', 'web', 'born 7 November 1867 in Warsaw'],
      [2, 'https://en.wikipedia.org/wiki/Pierre_Curie', 'web', 'married Maria Skłodowska in 1895'],
    ]);
    expect((r.run.usage?.calls ?? 0) - (r.run.usage?.byStage['final-answer']?.calls ?? 0)).toBe(4);
    expect(r.run.usage?.byStage.revise?.calls).toBe(2);
    expect(r.events.at(-1)).toEqual({ type: 'done', status: 'done' });
  });

  it('rejects empty input without calling the model', async () => {
    world = await startWorld({});
    const r = await runOnce(world, { text: '   ' }, curieLibrary());
    expect(r.run.status).toBe('error');
    expect(r.run.error?.code).toBe('empty-input');
    expect(r.stages).toEqual([]);
  });

  it('reports an auth failure as a run error with its code', async () => {
    world = await startWorld({});
    world.server.setResponder(() => ({ fault: { kind: 'status', status: 401 } }));
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'auth', status: 401, stage: 'gate' });
  });

  it('rides out a 429 with retry-after and a 500, then finishes', async () => {
    world = await startWorld({});
    const base = pipelineResponder({ steps: steps.slice(0, 1), facts });
    let n = 0;
    world.server.setResponder((req) => {
      n++;
      if (n === 1) return { fault: { kind: 'status', status: 429, retryAfter: 1 } };
      if (req.stage === 'revise' && n < 5) return { fault: { kind: 'status', status: 500 } };
      return base(req);
    });
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.status).toBe('done');
    expect(r.stages.filter(notBeside)).toEqual(['gate', 'gate', 'draft', 'revise', 'revise']);
    expect((r.run.usage?.calls ?? 0) - (r.run.usage?.byStage['final-answer']?.calls ?? 0)).toBe(5); // failed attempts count as calls
  });

  it('a stalled stream times out (after its retries) as a run error at that stage', async () => {
    world = await startWorld({}, { client: { idleMs: 100, maxRetries: 1 } });
    const base = pipelineResponder({ steps });
    world.server.setResponder((req) => (req.stage === 'draft' ? { fault: { kind: 'stall', afterChars: 10, content: '{"steps": ["one", "two"], "query": "q"}' } } : base(req)));
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'timeout', stage: 'draft' });
    expect(r.stages).toEqual(['gate', 'draft', 'draft']);
  });

  it('cancel stops in-flight work within 1 s and ends with done/cancelled', async () => {
    world = await startWorld({ steps, facts });
    const base = pipelineResponder({ steps, facts });
    world.server.setResponder((req) => (req.stage === 'revise' ? { fault: { kind: 'hang' } } : base(req)));
    const ctrl = new AbortController();
    let abortedAt = 0;
    const r = await runOnce(world, Q, curieLibrary(), {
      signal: ctrl.signal,
      onEvent: (ev) => {
        if (ev.type === 'step-started') setTimeout(() => ((abortedAt = Date.now()), ctrl.abort()), 100);
      },
    });
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(r.run.status).toBe('cancelled');
    expect(r.events.at(-1)).toEqual({ type: 'done', status: 'cancelled' });
    expect(r.run.error).toBeUndefined();
  });

  it('cancel also stops a slow library that ignores the signal', async () => {
    world = await startWorld({ steps, facts });
    const lib = curieLibrary();
    const slow = { ...lib, retrieve: () => new Promise<never>(() => {}) }; // never answers
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 300);
    const t0 = Date.now();
    const r = await runOnce(world, Q, slow, { signal: ctrl.signal });
    expect(r.run.status).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(1300);
  });

  it('resumes after a simulated worker restart from the last checkpoint, without redoing earlier calls', async () => {
    world = await startWorld({ steps, facts });
    // First life: checkpoints as the worker takes them; "die" once step 1 is done with its queries.
    const checkpoint = await firstLife(world, (ev) => ev.type === 'next-queries' && ev.index === 0);
    expect(checkpoint?.steps.map((s) => s.status)).toEqual(['unchanged', 'pending', 'pending'].map((x, i) => (i === 0 ? 'revised' : x)));
    const before = world.server.chatRequests().length;
    // Second life: the stored run was marked interrupted; continue it.
    const stored: Run = { ...(checkpoint as Run), status: 'interrupted' };
    expect(canResume(stored)).toBe(true);
    const lib = webCurie();
    const events: RunEvent[] = [];
    const done = await executeRun({ run: stored, llm: world.llm, library: lib, settings: pipelineSettings({ speculate: false }), emit: (ev) => void events.push(ev) });
    const stages = world.server.chatRequests().slice(before).map((q) => q.stage);
    expect(stages).toEqual(['revise', 'revise']); // steps 2 and 3 only: no gate, no draft, no step 1
    expect(events[0]).toEqual({ type: 'resume' });
    // Step 1 changed, so it rewrote step 2's query: the checkpoint held it, and it was used.
    expect(done.steps[1]?.queries[0]?.query).toContain('born in Warsaw in 1867');
    expect(lib.requests.map((q) => q.query)).toContain(done.steps[1]?.queries[0]?.query);
    expect(done.status).toBe('done');
    expect(done.steps.map((s) => s.revised)).toEqual(['Marie Curie was born in Warsaw in 1867.', 'She married Pierre Curie in 1895.', 'She discovered radium.']);
    expect(done.answer).toMatch(/\[1\]/);
    expect(done.sources.length).toBeGreaterThanOrEqual(2);
    expect(done.usage?.calls).toBe(5); // 3 before the restart + 2 after
  });

  it('a changed step is committed with its queries for the later steps', async () => {
    world = await startWorld({ steps, facts });
    const r = await runOnce(world, Q, webCurie(), { settings: { speculate: false } });
    const at = r.events.findIndex((ev) => ev.type === 'step-done' && ev.index === 0);
    expect(r.events[at + 1]).toMatchObject({ type: 'next-queries', index: 0 });
  });

  it('with open tabs as sources, a run resumed after a changed step makes the later queries from its revision (no queries pending)', async () => {
    world = await startWorld({ steps, facts });
    const checkpoint = await firstLife(world, (ev) => ev.type === 'step-done' && ev.index === 0, undefined, curieLibrary());
    expect(checkpoint?.steps[0]).toMatchObject({ status: 'revised', revised: 'Marie Curie was born in Warsaw in 1867.' });
    expect(checkpoint?.steps[0]?.queriesPending).toBeUndefined();
    const before = world.server.chatRequests().length;
    const lib = curieLibrary();
    const done = await executeRun({ run: { ...(checkpoint as Run), status: 'interrupted' }, llm: world.llm, library: lib, settings: pipelineSettings({ speculate: false }), emit: () => {} });
    expect(world.server.chatRequests().slice(before).map((q) => q.stage)).toEqual(['revise', 'revise']);
    expect(done.steps[1]?.queries[0]?.query).toMatch(/Warsaw 1867$/);
    expect(lib.requests.map((q) => q.query)).toContain(done.steps[1]?.queries[0]?.query);
    expect(done.steps.map((s) => s.revised)).toEqual(['Marie Curie was born in Warsaw in 1867.', 'She married Pierre Curie in 1895.', 'She discovered radium.']);
    expect(done.status).toBe('done');
  });

  it('a step saved as committed before its queries for the later steps is not asked again on resume; the later steps’ queries follow its revision', async () => {
    world = await startWorld({ steps, facts });
    // A run saved by an earlier version, whose revisions wrote those queries last: step 1 saved
    // as committed, step 2's query not written yet (the worker "died" in between).
    const checkpoint = await firstLife(world, (ev) => ev.type === 'step-done' && ev.index === 0, (ev) => ev.type === 'step-done');
    expect(checkpoint?.steps[0]).toMatchObject({ status: 'revised', queriesPending: true });
    expect(checkpoint?.steps[1]?.queries[0]?.query).not.toContain('Warsaw'); // still the draft's
    const before = world.server.chatRequests().length;
    const lib = webCurie();
    const done = await executeRun({ run: { ...(checkpoint as Run), status: 'interrupted' }, llm: world.llm, library: lib, settings: pipelineSettings({ speculate: false }), emit: () => {} });
    expect(world.server.chatRequests().slice(before).map((q) => q.stage)).toEqual(['revise', 'revise']);
    expect(done.steps[0]?.revised).toBe(checkpoint?.steps[0]?.revised);
    expect(done.steps[1]?.queries[0]?.query).toMatch(/Warsaw.*1867|1867.*Warsaw/);
    expect(done.steps.every((s) => !s.queriesPending)).toBe(true);
    expect(done.status).toBe('done');
  });

  it('resumes after the last step and only composes the missing answer', async () => {
    world = await startWorld({ steps: steps.slice(0, 1), facts });
    const first = await runOnce(world, Q, curieLibrary());
    const cut: Run = { ...first.run, status: 'interrupted', answer: undefined, answerFinal: undefined, sources: [] };
    const before = world.server.chatRequests().length;
    const again = await executeRun({ run: cut, llm: world.llm, library: curieLibrary(), settings: pipelineSettings(), emit: () => {} });
    expect(world.server.chatRequests().slice(before).map((q) => q.stage)).toEqual(['compose']);
    expect(again.answer).toMatch(/\[1\]$/);
  });

  it('an error mid-run keeps the revised steps, so "retry" continues from the failed step', async () => {
    world = await startWorld({});
    const base = pipelineResponder({ steps, facts });
    let fail = true;
    let revises = 0;
    world.server.setResponder((req) => (req.stage === 'revise' && ++revises === 2 && fail ? { fault: { kind: 'status', status: 401 } } : base(req)));
    const r = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.status).toBe('error');
    expect(r.run.steps.map((s) => s.status)).toEqual(['revised', 'running', 'pending']);
    fail = false;
    const before = world.server.chatRequests().length;
    const again = await executeRun({ run: r.run, llm: world.llm, library: curieLibrary(), settings: pipelineSettings({ speculate: false }), emit: () => {} });
    expect(again.status).toBe('done');
    expect(again.error).toBeUndefined();
    expect(world.server.chatRequests().slice(before).map((q) => q.stage)).toEqual(['revise', 'revise']);
  });

  it('canResume refuses checkpoints it cannot continue', () => {
    const run = newRun('x', 'ask', Q, 0);
    expect(canResume({ ...run, status: 'interrupted' })).toBe(true);
    expect(canResume({ ...run, status: 'done' })).toBe(false);
    expect(canResume({ ...run, status: 'interrupted', steps: [{ index: 0, draft: 'x', status: 'pending', queries: [], citations: [] }] })).toBe(false);
  });

  it('answers in the language of the question (the prompts ask for it)', async () => {
    world = await startWorld({ gate: { confidence: 0.9 }, answer: '居里夫人出生于华沙。' });
    const r = await runOnce(world, { text: '居里夫人出生在哪里？' }, curieLibrary());
    expect(r.run.answer).toBe('居里夫人出生于华沙。');
    const sys = (world.server.chatRequests()[1]!.body as { messages: { content: string }[] }).messages[0]!.content;
    expect(sys).toMatch(/language of the user's text/);
  });
});
