/** The final answer written beside the last step's revision ("Faster answers", answer-beside.ts):
 * kept only when the last step stands with evidence enough, never shown otherwise, and the run does
 * not wait for the revision's own answer once it has won. */
import { afterEach, describe, expect, it } from 'vitest';
import { curieLibrary, runOnce, startWorld, type RunResult, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { pipelineResponder, type PipelineScenario } from '../../test/harness/pipeline-responder.ts';
import type { Reply, Responder } from '../../test/harness/fake-llm.ts';

const STEPS = ['Marie Curie was born in Warsaw in 1867.', 'She married Pierre Curie in 1895.', 'She discovered radium and polonium.'];
const FACTS = [
  { step: 0, phrase: 'born 7 November 1867 in Warsaw' },
  { step: 1, phrase: 'married Maria Skłodowska in 1895' },
  { step: 2, phrase: 'radium and polonium' },
];
const Q = { text: 'Tell me about Marie Curie.' };
/** What the revision writes after its answer: long, so that waiting for it would show. */
const LONG = ` ${'More about her life and work follows here. '.repeat(16)}`;

/** The scripted model, with each writer's answer told apart: the revision's answer carries a long
 * tail, the one beside it a "Beside:" label; `beside` replaces the latter's reply. */
function model(sc: PipelineScenario, beside?: (base: Reply) => Reply): Responder {
  const base = pipelineResponder(sc);
  return (req) => {
    const r = base(req);
    if (req.stage === 'final-answer' && 'json' in r) {
      const labelled: Reply = { json: { answer: `Beside: ${String((r.json as { answer: string }).answer)}` } };
      return beside ? beside(labelled) : labelled;
    }
    if (req.stage === 'revise' && 'json' in r) {
      const out = r.json as Record<string, unknown>;
      if (typeof out.answer === 'string' && out.answer) return { json: { ...out, answer: `${out.answer}${LONG}` } };
    }
    return r;
  };
}

/** The answer as it streamed: the text after the last reset. */
function streamed(r: RunResult): string {
  const last = r.events.map((e) => e.type).lastIndexOf('answer-reset');
  return r.events
    .slice(last + 1)
    .flatMap((e) => (e.type === 'answer-delta' ? [e.text] : []))
    .join('');
}

let world: TestWorld;
afterEach(async () => {
  await world.close();
});

async function worldFor(sc: PipelineScenario, beside?: (base: Reply) => Reply): Promise<TestWorld> {
  // 200 tokens a second: the revision's long answer tail alone takes about 1 s.
  const w = await startWorld({}, { latency: { firstTokenMs: 20, tokensPerSec: 200 } });
  w.server.setResponder(model(sc, beside));
  return w;
}

describe('the answer written beside the last step', () => {
  it('the last step stands: the answer is the one written beside it, and the run does not wait for the revision to write its own', async () => {
    world = await worldFor({ steps: STEPS, facts: FACTS });
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.status).toBe('done');
    expect(r.run.answer).toMatch(/^Beside: Marie Curie was born in Warsaw in 1867\. She married Pierre Curie in 1895\. She discovered radium and polonium\. \[\d\]/);
    expect(streamed(r)).toMatch(/^Beside: /);
    // One answer beside, sent with the last step's revision (not before the draft has ended).
    const requests = world.server.chatRequests();
    const beside = requests.filter((q) => q.stage === 'final-answer');
    expect(beside).toHaveLength(1);
    const lastRevise = requests.filter((q) => q.stage === 'revise').at(-1);
    expect(Math.abs((beside[0]?.time ?? 0) - (lastRevise?.time ?? Infinity))).toBeLessThan(500);
    // The revision was stopped: its answer's long tail (~170 tokens) was never written.
    // (The three revisions write about 140 tokens with the answer, 310 with its tail.)
    expect(r.run.usage?.byStage.revise?.outputTokens ?? Infinity).toBeLessThan(200);
  });

  it('the last step changes: the answer is the revision\'s, from the changed step, and the one beside it is never shown', async () => {
    const changed = [...FACTS.slice(0, 2), { step: 2, phrase: 'radium and polonium', revised: 'She discovered polonium and radium in 1898.' }];
    world = await worldFor({ steps: STEPS, facts: changed });
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.status).toBe('done');
    expect(r.run.answer).toContain('She discovered polonium and radium in 1898.');
    expect(r.run.answer).not.toContain('Beside:');
    expect(r.events.some((e) => e.type === 'answer-delta' && e.text.includes('Beside'))).toBe(false);
    expect(streamed(r)).toContain('She discovered polonium and radium in 1898.');
    // It was sent, and stopped.
    expect(r.stages.filter((s) => s === 'final-answer')).toHaveLength(1);
  });

  it('the last step wants another round: the second round\'s revision writes the answer', async () => {
    world = await worldFor({ steps: STEPS, facts: FACTS, roundsNeeded: [1, 1, 2] });
    const r = await runOnce(world, Q, curieLibrary(), { settings: { maxRounds: 2 } });
    expect(r.run.status).toBe('done');
    expect(r.run.steps[2]?.queries).toHaveLength(2);
    expect(r.run.answer).not.toContain('Beside:');
    expect(r.run.answer).toContain('She discovered radium and polonium.');
    // Only the first round writes an answer beside.
    expect(r.stages.filter((s) => s === 'final-answer')).toHaveLength(1);
  });

  it('an answer beside that cannot be read loses nothing: the revision\'s answer stands', async () => {
    world = await worldFor({ steps: STEPS, facts: FACTS }, () => ({ content: '{"answer": "cut sho' }));
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.status).toBe('done');
    expect(r.run.error).toBeUndefined();
    expect(r.run.answer).toMatch(/^Marie Curie was born in Warsaw in 1867\./);
    expect(streamed(r)).toMatch(/^Marie Curie was born in Warsaw/);
  });

  it('"Faster answers" off: no answer beside, the revision writes it', async () => {
    world = await worldFor({ steps: STEPS, facts: FACTS });
    const r = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.status).toBe('done');
    expect(r.stages).not.toContain('final-answer');
    expect(r.run.answer).toMatch(/^Marie Curie was born in Warsaw in 1867\./);
  });
});
