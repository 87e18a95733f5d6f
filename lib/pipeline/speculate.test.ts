/** Speculative revision keeps RAT causal: property tests over random patterns of kept and changed
 * steps, with a scripted model whose every answer depends on the context it is given, against the
 * sequential schedule. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LlmRequest, Reply, Responder } from '../../test/harness/fake-llm.ts';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { laterItems, listUnder, positionOf, SECTION, standing } from '../../test/harness/prompt-reader.ts';
import { newInstallClient, pipelineSettings, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { executeRun } from './run';
import { newRun } from './run-state';
import { resetSpeculationPolicy } from './speculation-policy';
import { createMemoryLibrary } from '../../test/harness/memory-library';
import type { Run, RunEvent } from '../core/run';
import type { Library } from '../retrieval/types';

const WORDS = ['amber', 'basalt', 'cobalt', 'dolomite', 'emerald', 'feldspar'];
const N = WORDS.length;
const draftOf = (i: number) => `Step ${i + 1} concerns ${WORDS[i]}.`;
const DOCS = WORDS.map((w, i) => ({ url: `https://example.org/${w}`, title: w, text: `${w} is mineral number ${i + 1}. The ${w} record is kept in the archive.` }));

/** A small, fixed hash: which context a text was written in. */
function h(s: string): string {
  let x = 2166136261;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 16777619);
  return (x >>> 0).toString(36);
}

/** What each step must read as when every step before it saw exactly the revised steps before
 * it: a kept step its draft, a changed one a text stamped with the hash of its context. */
function exactTexts(changed: boolean[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < changed.length; i++) out.push(changed[i] ? `Step ${i + 1} is revised <${h(out.join('|'))}>.` : draftOf(i));
  return out;
}

/** A deterministic model whose reply depends on the context: a step revised with a stale view of
 * the steps before it comes out as "STALE", so a wrongly kept speculation cannot go unnoticed. */
function contextModel(changed: boolean[], rounds: number[]) {
  const exact = exactTexts(changed);
  const base = pipelineResponder({ steps: WORDS.map((_, i) => draftOf(i)) });
  return async (req: LlmRequest): Promise<Reply> => {
    // Replies arrive in a shuffled order.
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 25)));
    const user = req.lastUser;
    // The answer beside the last step: stamped, like the revision's, with the steps it was written from.
    if (req.stage === 'final-answer') return { json: { answer: `Answer <${h(listUnder(user, SECTION.allSteps).join('|'))}> [P1]` } };
    if (req.stage !== 'revise') return base(req);
    // "Current step: 2 of 6", or "Current step: 2" in a lean prompt (it shows the next step alone).
    const pos = positionOf(user, SECTION.currentStep);
    const i = (pos?.at ?? NaN) - 1;
    const round = pos?.round ?? 1;
    const before = listUnder(user, SECTION.stepsSoFar);
    const later = laterItems(user);
    const marks = standing(req.system);
    // Queries for the later steps when the step changed, or when the prompt asks for them anyway
    // (the step after the first changed one, in a pipelined chain).
    const always = marks.allLaterQueries;
    const stale = before.some((b, j) => b !== exact[j]);
    const sufficient = round >= (rounds[i] ?? 1) || round === 3;
    const revised = stale ? `STALE step ${i + 1}` : changed[i] ? `Step ${i + 1} is revised <${h(before.join('|'))}>.` : '';
    const kept = !stale && !changed[i];
    const out: Record<string, unknown> = {
      kept,
      revised,
      // A query depends on the later step's draft and the latest change before it, whichever
      // step writes it.
      nextQueries: (kept && !always) || !sufficient ? [] : later.map((l) => `${l} after ${h(revised || [...before].reverse().find((b, j) => b !== draftOf(before.length - 1 - j)) || '')}`),
      citations: [{ id: 'P1', quote: '' }],
      sufficient,
      retryQuery: sufficient ? '' : `${WORDS[i]} archive round ${round + 1}`,
    };
    if (marks.lastStep) out.answer = sufficient ? `Answer <${h([...before, revised || exact[i]].join('|'))}> [P1]` : '';
    return { json: out };
  };
}

let world: TestWorld;
beforeAll(async () => {
  world = await startWorld({}, { latency: { firstTokenMs: 5 } });
});
afterAll(async () => {
  await world.close();
});

interface Ran {
  run: Run;
  revises: number;
  events: RunEvent[];
  /** When the draft's steps reached the run (Date.now()), if they did. */
  draftAt?: number;
  /** The revise requests the server saw: arrival time, arrival order among all the server's
   * requests (times can tie within a millisecond), and the step they were for (1-based). */
  reviseRequests: { time: number; order: number; step: number }[];
  /** Every request the server saw for this run. */
  sent: ReturnType<TestWorld['server']['chatRequests']>;
}

/** The sources: open tabs (each step's query is made from its words and the revisions before it),
 * or the web only (the model writes the queries: chain.ts). */
type Sources = 'tabs' | 'web';

async function run(changed: boolean[], rounds: number[], speculate: boolean, o: { model?: Responder; signal?: AbortSignal; sources?: Sources; retrieveMs?: (query: string) => number } = {}): Promise<Ran> {
  resetSpeculationPolicy();
  world.server.setResponder(o.model ?? contextModel(changed, rounds));
  const before = world.server.chatRequests().length;
  const events: RunEvent[] = [];
  let draftAt: number | undefined;
  const memory = createMemoryLibrary(DOCS);
  const library: Library = {
    ...(o.sources === 'web' ? { reach: { tabs: false, web: true } } : {}),
    retrieve: async (req) => {
      await new Promise((res) => setTimeout(res, o.retrieveMs?.(req.query) ?? 0));
      return memory.retrieve(req);
    },
  };
  const r = await executeRun({
    run: newRun('p', 'ask', { text: 'What is in the mineral archive?' }, 0),
    // Each run the first on its endpoint: the draft waits for the gate's first word, as the
    // timings below expect.
    llm: newInstallClient(world),
    library,
    settings: pipelineSettings({ maxSteps: N, maxRounds: 2, speculate }),
    signal: o.signal,
    emit: (ev) => {
      if (ev.type === 'draft') draftAt = Date.now();
      events.push(ev);
    },
  });
  const all = world.server.chatRequests();
  const reviseRequests = all
    .slice(before)
    .filter((q) => q.stage === 'revise')
    .map((q) => ({ time: q.time, order: all.indexOf(q), step: positionOf(userText(q.body), SECTION.currentStep)?.at ?? NaN }));
  return { run: r, revises: reviseRequests.length, events, draftAt, reviseRequests, sent: all.slice(before) };
}

/** The last user message of a logged chat request's body. */
function userText(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

/** What a user sees of a run: the steps, their evidence and citations, the answer, the sources. */
function outcome(r: Run) {
  return {
    status: r.status,
    steps: r.steps.map((s) => ({ draft: s.draft, revised: s.revised, status: s.status, citations: s.citations, queries: s.queries.map((q) => [q.round, q.query, q.passages.map((p) => p.id)]) })),
    answer: r.answer,
    sources: r.sources.map((s) => [s.n, s.passageId]),
  };
}

function random(seed: number) {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

const patterns: { changed: boolean[]; rounds: number[] }[] = [
  { changed: [false, false, false, false, false, false], rounds: [1, 1, 1, 1, 1, 1] },
  { changed: [false, false, true, false, false, false], rounds: [1, 1, 1, 1, 1, 1] },
  { changed: [true, false, true, false, true, false], rounds: [1, 1, 1, 1, 1, 1] },
  { changed: [true, true, true, true, true, true], rounds: [1, 1, 1, 1, 1, 1] },
  { changed: [false, false, false, false, false, true], rounds: [1, 2, 1, 1, 1, 1] },
];
const rnd = random(20261122);
for (let k = 0; k < 20; k++) patterns.push({ changed: WORDS.map(() => rnd() < 0.35), rounds: WORDS.map(() => (rnd() < 0.15 ? 2 : 1)) });

describe.each(['tabs', 'web'] as const)('speculative revision, sources: %s', (sources) => {
  it.each(patterns.map((p) => [p.changed.map((c) => (c ? 'C' : 'k')).join('') + ' rounds ' + p.rounds.join(''), p] as const))('%s: every kept revision saw the revised steps before it, and the result equals the sequential schedule', async (_name, p) => {
    const seq = await run(p.changed, p.rounds, false, { sources });
    const spec = await run(p.changed, p.rounds, true, { sources });
    expect(seq.run.status).toBe('done');
    // The invariant: each step's text was written from exactly the revised steps before it.
    const exact = exactTexts(p.changed);
    expect(spec.run.steps.map((s) => s.revised)).toEqual(exact);
    expect(spec.run.steps.every((s) => !s.revised?.includes('STALE'))).toBe(true);
    expect(spec.run.answer).toBe(seq.run.answer);
    // Equivalence with the sequential schedule, whatever order the replies came in.
    expect(outcome(spec.run)).toEqual(outcome(seq.run));
    // It did speculate where it could: with every step kept, all but the first were parallel.
    if (p.changed.every((c) => !c) && p.rounds.every((r) => r === 1)) expect(spec.run.steps.filter((s) => s.speculative)).toHaveLength(N - 1);
  });

  it('costs no extra call when every step stands, and a bounded number when every step changes', async () => {
    const none = await run(Array<boolean>(N).fill(false), Array<number>(N).fill(1), true, { sources });
    expect(none.revises).toBe(N);
    const all = await run(Array<boolean>(N).fill(true), Array<number>(N).fill(1), true, { sources });
    const seq = await run(Array<boolean>(N).fill(true), Array<number>(N).fill(1), false, { sources });
    expect(seq.revises).toBe(N);
    // A step that says it changed stops speculation on the steps after it before they are sent.
    expect(all.revises).toBeLessThanOrEqual(Math.floor(1.6 * (N + 2)) - 2);
    expect(all.run.steps.flatMap((s) => s.discarded ?? [])).toHaveLength(all.revises - N);
  });

  it('a revision discarded while its evidence is fetched sends nothing: the last step and the answer beside it are asked only from the changed step', async () => {
    // Step 5 changes at once; the last step's evidence takes a while, and its revision, started
    // on step 5 as drafted, is discarded meanwhile.
    const changed = [false, false, false, false, true, false];
    const base = contextModel(changed, Array<number>(N).fill(1));
    // Step 5 says it changed after 150 ms: by then the last step has started (once step 1 stood).
    const model: Responder = async (req) => {
      if (req.stage === 'revise' && positionOf(req.lastUser, SECTION.currentStep)?.at === 5) await new Promise((res) => setTimeout(res, 150));
      return base(req);
    };
    const r = await run(changed, Array<number>(N).fill(1), true, { sources, model, retrieveMs: (q) => (q.includes(WORDS[5] as string) ? 400 : 0) });
    expect(r.run.status).toBe('done');
    expect(r.run.steps.map((s) => s.revised)).toEqual(exactTexts(changed));
    const lastStep = r.sent.filter((q) => q.stage === 'revise' && positionOf(userText(q.body), SECTION.currentStep)?.at === N);
    const beside = r.sent.filter((q) => q.stage === 'final-answer');
    expect(lastStep.length).toBeGreaterThan(0);
    for (const q of [...lastStep, ...beside]) expect(userText(q.body)).toContain('Step 5 is revised');
    expect(r.run.steps[N - 1]?.discarded?.length ?? 0).toBeGreaterThan(0);
  });
});

/** The draft streams at this pace (about 0.5 s for six steps, room for a loaded machine to start
 * the revisions while it streams), the revisions answer at once: a
 * step can be revised while the steps after it are still being written. */
const STREAMING = { firstTokenMs: 5, tokensPerSec: 250 };

describe('revision while the draft streams', () => {
  afterEach(() => world.server.setLatency({ firstTokenMs: 5 }));

  const streamed = patterns.slice(0, 8).flatMap((p) => (['tabs', 'web'] as const).map((sources) => ({ ...p, sources })));
  it.each(streamed.map((p) => [`${p.changed.map((c) => (c ? 'C' : 'k')).join('')} (${p.sources})`, p] as const))('%s: steps are revised before the draft ends, and the result equals the sequential schedule', async (_name, p) => {
    world.server.setLatency(STREAMING);
    const seq = await run(p.changed, p.rounds, false, { sources: p.sources });
    const spec = await run(p.changed, p.rounds, true, { sources: p.sources });
    expect(spec.run.steps.map((s) => s.revised)).toEqual(exactTexts(p.changed));
    expect(outcome(spec.run)).toEqual(outcome(seq.run));
    // Revised while the draft streamed: the requests were sent before the draft had ended.
    const early = spec.reviseRequests.filter((q) => q.time < (spec.draftAt as number));
    expect(early.length).toBeGreaterThan(0);
    // The sequential schedule sends nothing before the draft has ended.
    expect(seq.reviseRequests.every((q) => q.time >= (seq.draftAt as number))).toBe(true);
    if (p.changed.every((c) => !c) && p.rounds.every((r) => r === 1)) {
      // Every step stands: the revisions started early were all kept, none was asked twice.
      expect(spec.revises).toBe(N);
      expect(early.length).toBeGreaterThanOrEqual(3);
    }
  });

  /** A model whose first draft writes another step 2 and is cut off in step 5 (the client asks again). */
  function redrafting(changed: boolean[]): { model: Responder; drafts: () => number } {
    const model = contextModel(changed, Array<number>(N).fill(1));
    let drafts = 0;
    const cutOff: Responder = async (req) => {
      const reply = await model(req);
      if (req.stage !== 'draft' || drafts++ > 0 || !('json' in reply)) return reply;
      // Steps as plain strings (open tabs: the draft writes no queries, draft-queries.ts), or with queries.
      const first = reply.json as { steps: (string | { step: string; query: string })[] };
      const chalk = 'Step 2 concerns chalk.';
      const content = JSON.stringify({ steps: first.steps.map((s, i) => (i !== 1 ? s : typeof s === 'string' ? chalk : { step: chalk, query: chalk })) });
      const fifth = first.steps[4];
      return { fault: { kind: 'truncate', content, afterChars: content.indexOf(typeof fifth === 'string' ? fifth : JSON.stringify(fifth)) + 3 } };
    };
    return { model: cutOff, drafts: () => drafts };
  }

  /** The revise requests for a step, and whether the first was sent on the first draft. */
  function sentFor(spec: Ran, step: number): { count: number; onFirstDraft: boolean } {
    const all = world.server.chatRequests();
    const secondDraft = all.indexOf(all.filter((q) => q.stage === 'draft').at(-1) as (typeof all)[number]);
    const reqs = spec.reviseRequests.filter((q) => q.step === step);
    return { count: reqs.length, onFirstDraft: (reqs[0]?.order ?? Infinity) < secondDraft };
  }

  it('a draft that starts again with other text: a revision started on the other text is discarded and asked again (web: step 1, which shows step 2)', async () => {
    world.server.setLatency(STREAMING);
    // Step 1 changes, and writes step 2's query from step 2's draft: a revision kept from the
    // first attempt would send step 2 a query about "chalk".
    const changed = [true, false, false, false, false, false];
    const { model, drafts } = redrafting(changed);
    const seq = await run(changed, Array<number>(N).fill(1), false, { sources: 'web' });
    const spec = await run(changed, Array<number>(N).fill(1), true, { model, sources: 'web' });
    expect(drafts()).toBe(2);
    expect(spec.run.status).toBe('done');
    // Step 1 was sent on the first attempt (before the second draft request), and again.
    expect(sentFor(spec, 1)).toEqual({ count: 2, onFirstDraft: true });
    expect(spec.events).toContainEqual({ type: 'speculation', index: 0, outcome: 'discarded', reason: 'context-changed' });
    // What the user gets is the sequential schedule's on the draft that was kept.
    expect(JSON.stringify(spec.run.steps)).not.toContain('chalk');
    expect(outcome(spec.run)).toEqual(outcome(seq.run));
  });

  it('a draft that starts again with other text (tabs): step 2, revised on its other text, is asked again; step 1, whose prompt shows no later step, is kept', async () => {
    world.server.setLatency(STREAMING);
    const changed = Array<boolean>(N).fill(false);
    const { model, drafts } = redrafting(changed);
    const seq = await run(changed, Array<number>(N).fill(1), false);
    const spec = await run(changed, Array<number>(N).fill(1), true, { model });
    expect(drafts()).toBe(2);
    expect(spec.run.status).toBe('done');
    expect(sentFor(spec, 1)).toEqual({ count: 1, onFirstDraft: true });
    expect(sentFor(spec, 2)).toEqual({ count: 2, onFirstDraft: true });
    expect(spec.events).toContainEqual({ type: 'speculation', index: 1, outcome: 'discarded', reason: 'context-changed' });
    expect(JSON.stringify(spec.run.steps)).not.toContain('chalk');
    expect(outcome(spec.run)).toEqual(outcome(seq.run));
  });

  it('cancelled while the draft streams: the draft and the revisions in flight stop, nothing is committed', async () => {
    world.server.setLatency({ firstTokenMs: 5, tokensPerSec: 60 });
    const model = contextModel(Array<boolean>(N).fill(false), Array<number>(N).fill(1));
    const ctrl = new AbortController();
    let abortedAt = 0;
    const inFlight: AbortSignal[] = [];
    const hanging: Responder = (req) => {
      if (req.stage === 'draft' || req.stage === 'revise') inFlight.push(req.signal);
      if (req.stage !== 'revise') return model(req);
      // The first revision sent while the draft streams: the user cancels.
      if (!abortedAt) setTimeout(() => ((abortedAt = Date.now()), ctrl.abort()), 50);
      return { fault: { kind: 'hang' } };
    };
    const r = await run([], [], true, { model: hanging, signal: ctrl.signal });
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(r.run.status).toBe('cancelled');
    expect(r.draftAt).toBeUndefined();
    expect(r.run.steps).toEqual([]);
    expect(r.events.some((e) => e.type === 'step-done' || e.type === 'speculation')).toBe(false);
    // The server sees every request given up: the streaming draft and the hanging revision.
    await new Promise((res) => setTimeout(res, 100));
    expect(inFlight.length).toBeGreaterThanOrEqual(2);
    expect(inFlight.filter((s) => !s.aborted)).toHaveLength(0);
  });
});
