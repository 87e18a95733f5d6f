/** Speculative revision keeps RAT causal: property tests over random patterns of kept and changed
 * steps, with a scripted model whose every answer depends on the context it is given, against the
 * sequential schedule. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmRequest, Reply } from '../../test/harness/fake-llm.ts';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { pipelineSettings, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { executeRun } from './run';
import { newRun } from './run-state';
import { resetSpeculationPolicy } from './speculate';
import { createMemoryLibrary } from '../../test/harness/memory-library';
import type { Run } from '../core/run';

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

function numberedUnder(text: string, heading: string): string[] {
  const at = text.indexOf(`${heading}\n`);
  if (at < 0) return [];
  const out: string[] = [];
  for (const l of text.slice(at + heading.length + 1).split('\n')) {
    const m = /^\d+\. (.*)$/.exec(l);
    if (!m) break;
    out.push(m[1] as string);
  }
  return out;
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
    if (req.stage !== 'revise') return base(req);
    const user = req.lastUser;
    // "Current step: 2 of 6", or "Current step: 2" in a lean prompt (it shows the next step alone).
    const m = /^Current step: (\d+)(?: of \d+)?(?: \(search round (\d+)\))?/m.exec(user);
    const i = Number(m?.[1]) - 1;
    const round = m?.[2] ? Number(m[2]) : 1;
    const before = numberedUnder(user, 'Steps so far (fixed):');
    const later = [...numberedUnder(user, 'Later steps (drafts):'), ...numberedUnder(user, 'Next step (draft):')];
    // Queries for the later steps when the step changed, or when the prompt asks for them anyway
    // (the step after the first changed one, in a pipelined chain).
    const always = /whether or not this step changed/.test(req.system);
    const stale = before.some((b, j) => b !== exact[j]);
    const sufficient = round >= (rounds[i] ?? 1) || /search round 3/.test(user);
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
    if (/This is the last step\./.test(req.system)) out.answer = sufficient ? `Answer <${h([...before, revised || exact[i]].join('|'))}> [P1]` : '';
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

async function run(changed: boolean[], rounds: number[], speculate: boolean): Promise<{ run: Run; revises: number }> {
  resetSpeculationPolicy();
  world.server.setResponder(contextModel(changed, rounds));
  const before = world.server.chatRequests().length;
  const r = await executeRun({
    run: newRun('p', 'ask', { text: 'What is in the mineral archive?' }, 0),
    llm: world.llm,
    library: createMemoryLibrary(DOCS),
    settings: pipelineSettings({ maxSteps: N, maxRounds: 2, speculate }),
    emit: () => {},
  });
  return { run: r, revises: world.server.chatRequests().slice(before).filter((q) => q.stage === 'revise').length };
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

describe('speculative revision', () => {
  it.each(patterns.map((p) => [p.changed.map((c) => (c ? 'C' : 'k')).join('') + ' rounds ' + p.rounds.join(''), p] as const))('%s: every kept revision saw the revised steps before it, and the result equals the sequential schedule', async (_name, p) => {
    const seq = await run(p.changed, p.rounds, false);
    const spec = await run(p.changed, p.rounds, true);
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
    const none = await run(Array(N).fill(false), Array(N).fill(1), true);
    expect(none.revises).toBe(N);
    const all = await run(Array(N).fill(true), Array(N).fill(1), true);
    const seq = await run(Array(N).fill(true), Array(N).fill(1), false);
    expect(seq.revises).toBe(N);
    // A step that says it changed stops speculation on the steps after it before they are sent.
    expect(all.revises).toBeLessThanOrEqual(Math.floor(1.6 * (N + 2)) - 2);
    expect(all.run.steps.flatMap((s) => s.discarded ?? [])).toHaveLength(all.revises - N);
  });
});
