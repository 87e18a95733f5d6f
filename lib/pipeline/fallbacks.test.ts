/** No run ends "done" on junk: every reply a stage cannot use is either read for what it is (a list
 * sent as one string is split into sentences, a final answer written as prose is the answer) or
 * ends the run with an error naming the stage; the one fallback kept (an unreadable gate) says so.
 * Each case runs through executeRun and the real client against the fake server, and checks what
 * the user sees and which requests were made. */
import { afterEach, describe, expect, it } from 'vitest';
import { curieLibrary, runOnce, startWorld, type TestWorld, notBeside } from '../../test/harness/pipeline-world.ts';
import { pipelineResponder, type PipelineScenario } from '../../test/harness/pipeline-responder.ts';
import type { Reply, Responder } from '../../test/harness/fake-llm.ts';
import { marksFromRun } from '../page-marks/from-run';
import { proseAnswer } from './stages';

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The scripted model, with some stages' replies replaced (a function of the scripted reply). */
async function worldWith(sc: PipelineScenario, replace: Record<string, (scripted: Reply) => Reply>): Promise<TestWorld> {
  const w = await startWorld(sc);
  const base = pipelineResponder(sc);
  const responder: Responder = async (req) => {
    const scripted = await base(req);
    const f = req.stage ? replace[req.stage] : undefined;
    return f ? f(scripted) : scripted;
  };
  w.server.setResponder(responder);
  return w;
}

const json = (r: Reply): Record<string, unknown> => ('json' in r ? (r.json as Record<string, unknown>) : {});
const Q = { text: 'Tell me about Marie Curie.' };
const facts = [
  { step: 0, phrase: 'born 7 November 1867 in Warsaw', revised: 'Marie Curie was born in Warsaw in 1867.' },
  { step: 1, phrase: 'married Maria Skłodowska in 1895' },
];

describe('ask: replies read for what they are', () => {
  it('a draft whose steps come as one string is split into its sentences, each revised against evidence', async () => {
    world = await worldWith({ facts }, { draft: () => ({ json: { steps: 'Marie Curie was born in Krakow in 1870. She married Pierre Curie in 1895.' } }) });
    const r = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.status).toBe('done');
    expect(r.run.steps.map((s) => s.draft)).toEqual(['Marie Curie was born in Krakow in 1870.', 'She married Pierre Curie in 1895.']);
    expect(r.run.steps.map((s) => s.citations.length)).toEqual([1, 1]);
    expect(r.run.answer).toMatch(/\[1\]\[2\]$/);
    expect(r.stages).toEqual(['gate', 'draft', 'revise', 'revise']);
  });

  it('a numbered draft sent as one string ("1. … 2. …") is one step per item, without the numbers', async () => {
    world = await worldWith({ facts }, { draft: () => ({ json: { steps: '1. Marie Curie was born in Krakow in 1870. 2. She married Pierre Curie in 1895.' } }) });
    const r = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.status).toBe('done');
    expect(r.run.steps.map((s) => s.draft)).toEqual(['Marie Curie was born in Krakow in 1870.', 'She married Pierre Curie in 1895.']);
    expect(r.stages).toEqual(['gate', 'draft', 'revise', 'revise']);
    expect(r.run.answer).not.toMatch(/(^|\s)\d\.(\s|$)/);
  });

  it('a numbered item of several sentences stays one step', async () => {
    world = await worldWith({ facts }, { draft: () => ({ json: { steps: '1) Marie Curie was born in Krakow. That was in 1870. 2) She married Pierre Curie in 1895.' } }) });
    const r = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.steps.map((s) => s.draft)).toEqual(['Marie Curie was born in Krakow. That was in 1870.', 'She married Pierre Curie in 1895.']);
  });

  it('a direct answer written as prose is the answer, without a repair round', async () => {
    world = await worldWith({ gate: { confidence: 0.9 } }, { answer: () => ({ content: 'Marie Curie was born in Warsaw in 1867 [2].' }) });
    const r = await runOnce(world, { text: 'Where was Marie Curie born?' }, curieLibrary());
    expect(r.run.status).toBe('done');
    // No evidence was given, so the model's "[2]" is text, not a citation.
    expect(r.run.answer).toBe('Marie Curie was born in Warsaw in 1867 \\[2\\].');
    expect(r.run.sources).toEqual([]);
    expect(r.stages).toEqual(['gate', 'answer']);
  });

  it('a composed answer written as prose is the answer; only the markers of evidence given become citations', async () => {
    // The last step writes no answer, so one compose call writes it.
    world = await worldWith({ facts, steps: ['Marie Curie was born in Krakow.', 'She married Pierre Curie.'] }, {
      revise: (r) => ({ json: { ...json(r), answer: '' } }),
      compose: () => ({ content: 'Marie Curie was born in Warsaw [P1] and married in 1895 [P2]. Wikipedia says so [P9][4].' }),
    });
    const r = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.status).toBe('done');
    expect(r.run.answer).toBe('Marie Curie was born in Warsaw [1] and married in 1895 [2]. Wikipedia says so \\[4\\].');
    expect(r.run.sources.map((s) => s.url)).toEqual(['https://en.wikipedia.org/wiki/Marie_Curie', 'https://en.wikipedia.org/wiki/Pierre_Curie']);
    expect(r.run.droppedCitations).toBe(1); // P9 was never given
    expect(r.stages).toEqual(['gate', 'draft', 'revise', 'revise', 'compose']);
  });

  it('an unreadable gate is the one fallback: sources are checked, and the run says the assessment was skipped', async () => {
    world = await worldWith({ facts: [{ phrase: 'Warsaw' }], steps: ['Marie Curie was born in Warsaw.'] }, { gate: () => ({ content: 'Sure! It is a clear question.' }) });
    const r = await runOnce(world, { text: 'Where was Marie Curie born?' }, curieLibrary());
    expect(r.run.status).toBe('done');
    expect(r.run.gate).toMatchObject({ unreadable: true, retrieve: true });
    expect(r.run.sources).toHaveLength(1);
    // The draft goes out beside the gate once the gate's (unreadable) reply has begun: before or
    // after the gate's repair round, as the race goes.
    expect(r.stages.filter(notBeside)[0]).toBe('gate');
    expect([...r.stages.filter(notBeside)].sort()).toEqual(['draft', 'gate', 'gate', 'revise']);
  });
});

describe('ask: a stage that cannot be read ends the run with an error naming it', () => {
  const broken = () => ({ content: '{"answer": "Marie Curie was' });
  it.each([
    ['draft', { draft: broken }, 'draft', ['gate', 'draft', 'draft']],
    ['the second revision', { revise: (r: Reply) => (json(r).answer !== undefined ? broken() : r) }, 'revise, step 2', ['gate', 'draft', 'revise', 'revise', 'revise']],
    ['compose', { revise: (r: Reply) => ({ json: { ...json(r), answer: '' } }), compose: broken }, 'compose', ['gate', 'draft', 'revise', 'revise', 'compose', 'compose']],
  ])('%s', async (_name, replace, stage, stages) => {
    world = await worldWith({ facts, steps: ['Marie Curie was born in Krakow.', 'She married Pierre Curie.'] }, replace);
    const r = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'bad-output', stage });
    expect(r.run.answerFinal).not.toBe(true);
    expect(r.run.answer ?? '').not.toMatch(/\[\d+\]/);
    expect(r.stages).toEqual(stages);
  });

  it('a direct answer in broken JSON is an error, not the question echoed', async () => {
    world = await worldWith({ gate: { confidence: 0.9 } }, { answer: () => ({ content: '{"answer": ' }) });
    const r = await runOnce(world, { text: 'Where was Marie Curie born?' }, curieLibrary());
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'bad-output', stage: 'answer' });
    expect(r.run.answer).toBeUndefined();
    expect(r.stages).toEqual(['gate', 'answer', 'answer']);
  });
});

const ORIGIN = 'https://news.example.com/curie';
const page = { url: ORIGIN, title: 'A profile', surrounding: '', tabId: 7 };

describe('verify: claims and verdicts', () => {
  it('claims sent as one string are split into sentences, each checked', async () => {
    const selection = 'She was born in Warsaw in 1867. She married Pierre Curie in 1895.';
    world = await worldWith(
      { claims: [{ claim: 'Marie Curie was born in Warsaw in 1867.', phrase: 'born 7 November 1867 in Warsaw' }, { claim: 'Marie Curie married Pierre Curie in 1895.', phrase: 'married Maria Skłodowska in 1895' }] },
      { claims: () => ({ json: { label: 'incomplete', claims: 'Marie Curie was born in Warsaw in 1867. Marie Curie married Pierre Curie in 1895.', confidence: 0.5, query: 'Marie Curie born' } }) },
    );
    const r = await runOnce(world, { text: selection, page }, curieLibrary(), { mode: 'verify' });
    expect(r.run.status).toBe('done');
    expect(r.run.claims?.map((c) => [c.claim, c.verdict, c.sources])).toEqual([
      ['Marie Curie was born in Warsaw in 1867.', 'supported', [1]],
      ['Marie Curie married Pierre Curie in 1895.', 'supported', [2]],
    ]);
    expect(r.stages).toEqual(['searches', 'claims', 'check', 'check']);
  });

  it('unreadable claims end the run with an error naming the claims, not the selection as one unchecked claim', async () => {
    world = await worldWith({}, { claims: () => ({ content: 'The claims are: she was born' }) });
    const r = await runOnce(world, { text: 'She was born in Warsaw in 1867.', page }, curieLibrary(), { mode: 'verify' });
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'bad-output', stage: 'claims' });
    expect(r.run.claims).toBeUndefined();
    expect(r.stages).toEqual(['searches', 'claims', 'claims']);
  });

  it('an unreadable check ends the run with an error naming the check and its claim', async () => {
    world = await worldWith({}, { check: () => ({ content: '{"verdict": "supp' }) });
    const r = await runOnce(world, { text: 'She was born in Warsaw in 1867.', page }, curieLibrary(), { mode: 'verify' });
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'bad-output', stage: 'check, step 1' });
    expect(r.run.claims).toBeUndefined();
    expect(r.stages).toEqual(['searches', 'claims', 'check', 'check']);
  });

  it('"supported" or "refuted" with no validated citation is "unverifiable", in the panel and in the page mark alike', async () => {
    const claims = [
      { claim: 'Marie Curie was born in Warsaw.', sentence: 'She was born in Warsaw.', phrase: 'born 7 November 1867 in Warsaw', verdict: 'supported' as const },
      { claim: 'Marie Curie was born on Mars.', sentence: 'She was born on Mars.', verdict: 'refuted' as const, corrected: 'She was born in Warsaw.' },
    ];
    // The second check cites a passage id that was never given and a quote that is not in it.
    world = await worldWith({ claims }, { check: (r) => (json(r).verdict === 'refuted' ? { json: { ...json(r), citations: [{ id: 'P7', quote: '' }, { id: 'P1', quote: 'born on Mars' }] } } : r) });
    const r = await runOnce(world, { text: 'She was born in Warsaw. She was born on Mars.', page }, curieLibrary(), { mode: 'verify' });
    expect(r.run.status).toBe('done');
    expect(r.run.claims?.map((c) => [c.verdict, c.sources, c.corrected])).toEqual([
      ['supported', [1], undefined],
      ['unverifiable', [], undefined],
    ]);
    expect(r.run.claims?.[1]?.explanation).toMatch(/no evidence that could be checked/);
    // Marks carry the verdicts only (sources stay in the panel).
    expect(marksFromRun(r.run).map((m) => m.verdict)).toEqual(['supported', 'unverifiable']);
  });

  it('page footnotes in the selection ("[1]", "[12]") stay text in the corrected passage, never citations', async () => {
    const selection = 'Marie Curie was born in Warsaw.[1] She married Pierre Curie in 1895.[12]';
    world = await startWorld({ claims: [{ claim: 'Marie Curie was born in Warsaw.', sentence: 'Marie Curie was born in Warsaw.[1]', phrase: 'born 7 November 1867 in Warsaw' }] });
    const r = await runOnce(world, { text: selection, page }, curieLibrary(), { mode: 'verify' });
    expect(r.run.status).toBe('done');
    expect(r.run.sources).toHaveLength(1);
    // The one validated marker is Ratify's; the page's footnotes are escaped text.
    expect(r.run.answer).toBe('Marie Curie was born in Warsaw.\\[1\\] She married Pierre Curie in 1895.\\[12\\] [1]');
  });
});

describe('what counts as a prose answer', () => {
  it('plain text (even labelled "Answer:") is; broken JSON, a fence or a reply still thinking is not', () => {
    expect(proseAnswer('Answer: She was born in Warsaw [P1].')).toEqual({ answer: 'She was born in Warsaw [P1].' });
    expect(proseAnswer('The set {1, 2} has two members.')).toEqual({ answer: 'The set {1, 2} has two members.' });
    for (const t of ['', '{"answer": "She was', '"answer": "She was', '```json\n{"answer": 1', '[1, 2', '<think>hm</think>She was born in Warsaw.']) expect(proseAnswer(t)).toBeUndefined();
  });
});
