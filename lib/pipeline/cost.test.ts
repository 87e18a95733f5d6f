/** Cost bounds of issue 3, item 8, measured: with n draft steps and one round each, at most n + 3
 * LLM calls in all and at most n + 2 on the critical path; output grows linearly with n. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmClient } from '../llm/types';
import { executeRun } from './run';
import { newRun } from './run-state';
import { curieLibrary, pipelineSettings, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import type { PipelineScenario } from '../../test/harness/pipeline-responder.ts';

interface Call {
  stage: string;
  start: number;
  end: number;
}

/** Records when each model call (all its attempts) starts and ends. */
function timed(llm: LlmClient, calls: Call[]): LlmClient {
  const around = async <R>(stage: string, f: () => Promise<R>): Promise<R> => {
    const c: Call = { stage, start: performance.now(), end: 0 };
    calls.push(c);
    try {
      return await f();
    } finally {
      c.end = performance.now();
    }
  };
  return { usage: llm.usage, embed: (texts, signal) => llm.embed(texts, signal), chat: (req) => around(req.stage, () => llm.chat(req)), json: (req) => around(req.stage, () => llm.json(req)) };
}

/** Longest chain of calls where each starts after the previous one ended: the calls that had to
 * wait for one another, i.e. the critical path in calls. */
export function criticalPath(calls: Call[]): number {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const depth = new Map<Call, number>();
  let best = 0;
  for (const c of sorted) {
    let d = 1;
    for (const p of sorted) if (p.end <= c.start && depth.has(p)) d = Math.max(d, (depth.get(p) as number) + 1);
    depth.set(c, d);
    best = Math.max(best, d);
  }
  return best;
}

const FACTS = ['born 7 November 1867', 'married Maria Skłodowska in 1895', 'radium and polonium', 'capital of Poland', 'shared the 1903 Nobel Prize', 'French physicist'];
const scenario = (n: number): PipelineScenario => ({
  steps: Array.from({ length: n }, (_, i) => `Step ${i + 1} is about ${FACTS[i]}.`),
  facts: FACTS.slice(0, n).map((phrase, step) => ({ step, phrase, revised: `Revised step ${step + 1}: ${phrase}.` })),
});

let world: TestWorld;
beforeAll(async () => {
  // A fixed delay per call makes overlapping and sequential calls unambiguous in time.
  world = await startWorld({}, { latency: { firstTokenMs: 40 } });
});
afterAll(async () => {
  await world.close();
});

async function measure(sc: PipelineScenario, mode: 'ask' | 'verify', text: string, speculate = false) {
  const { pipelineResponder } = await import('../../test/harness/pipeline-responder.ts');
  world.server.setResponder(pipelineResponder(sc));
  const calls: Call[] = [];
  const run = await executeRun({ run: newRun('c', mode, { text }, 0), llm: timed(world.llm, calls), library: curieLibrary(), settings: pipelineSettings({ maxSteps: 6, speculate }), emit: () => {} });
  expect(run.status).toBe('done');
  return { run, calls, total: calls.length, critical: criticalPath(calls) };
}

describe('LLM-call bound, n = 1..6', () => {
  const rows: string[] = [];
  afterAll(() => console.log(`n | calls (≤ n+3) | critical path (≤ n+2) | revise output tokens\n${rows.join('\n')}`));
  for (let n = 1; n <= 6; n++) {
    it(`n = ${n}: ≤ n + 3 calls, ≤ n + 2 on the critical path`, async () => {
      const m = await measure(scenario(n), 'ask', 'Tell me about Marie Curie.');
      expect(m.run.steps).toHaveLength(n);
      expect(m.run.steps.every((s) => s.queries.length === 1)).toBe(true); // one round each
      expect(m.total).toBeLessThanOrEqual(n + 3);
      expect(m.critical).toBeLessThanOrEqual(n + 2);
      const revise = m.run.usage?.byStage.revise;
      rows.push(`${n} | ${m.total} | ${m.critical} | ${revise ? Math.round(revise.outputTokens / revise.calls) : 0}/call`);
    });
  }

  it('output tokens grow linearly: each revision writes only its own step', async () => {
    const small = await measure(scenario(2), 'ask', 'Tell me about Marie Curie.');
    const big = await measure(scenario(6), 'ask', 'Tell me about Marie Curie.');
    const per = (m: typeof small) => (m.run.usage?.byStage.revise?.outputTokens ?? 0) / (m.run.usage?.byStage.revise?.calls ?? 1);
    // Per-call revise output stays flat as n triples (the last call also writes the answer).
    expect(per(big)).toBeLessThan(per(small) * 1.8);
  });

  it('verify mode: n claims cost n + 2 calls, n + 1 one after another (the web searches are planned beside the claims)', async () => {
    const claims = FACTS.slice(0, 4).map((f) => ({ claim: `Claim about ${f}.`, phrase: f }));
    const m = await measure({ claims }, 'verify', claims.map((c) => c.claim).join(' '));
    expect(m.total).toBe(6);
    expect(m.critical).toBe(5);
  });

  it('speculative schedule: when every step stands, the same calls, revised in parallel', async () => {
    const kept = (n: number): PipelineScenario => ({ steps: Array.from({ length: n }, (_, i) => `Step ${i + 1} is about ${FACTS[i]}.`), facts: FACTS.slice(0, n).map((phrase, step) => ({ step, phrase })) });
    const m = await measure(kept(6), 'ask', 'Tell me about Marie Curie.', true);
    expect(m.total).toBe(9); // gate, draft, 6 revisions and the answer beside the last: nothing discarded
    expect(m.critical).toBeLessThanOrEqual(4); // gate, draft, the front step, the rest at once
    const claims = FACTS.slice(0, 4).map((f) => ({ claim: `Claim about ${f}.`, phrase: f }));
    const v = await measure({ claims }, 'verify', claims.map((c) => c.claim).join(' '), true);
    expect(v.total).toBe(6); // search plan, claims, 4 checks
    expect(v.critical).toBeLessThanOrEqual(3);
  });

  it('an ambiguous question runs independent sub-questions in parallel', async () => {
    const m = await measure(
      { gate: { label: 'ambiguous', subQuestions: [{ question: 'When was Marie Curie born?', confidence: 0.1 }, { question: 'When did she marry?', confidence: 0.1 }] }, steps: (q) => [q], facts: [{ phrase: 'Curie' }] },
      'ask',
      'Curie: birth and marriage?',
    );
    // gate, 2 × (draft + revise), compose = 6 calls, but only 4 one after another.
    expect(m.total).toBe(6);
    expect(m.critical).toBe(4);
  });
});
