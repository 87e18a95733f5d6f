import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLibrary } from '../../test/harness/memory-library';
import { curieLibrary, pipelineSettings, runOnce, startWorld, type TestWorld, notBeside } from '../../test/harness/pipeline-world.ts';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { executeRun } from './run';
import { fallbackQuery } from './step-query';

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const Q = { text: 'Tell me about Marie Curie.' };

describe('RAT causal revision', () => {
  const CURIE_STEPS = ['Marie Curie was born in Krakow in 1870.', 'She married Pierre Curie.', 'She discovered radium.'];
  const CURIE_FACTS = [
    { step: 0, phrase: 'born 7 November 1867 in Warsaw', revised: 'Marie Curie was born in Warsaw on 7 November 1867.' },
    { step: 1, phrase: 'married Maria Skłodowska in 1895', revised: 'She married Pierre Curie in 1895.' },
    { step: 2, phrase: 'radium and polonium' },
  ];
  const REVISED = ['Marie Curie was born in Warsaw on 7 November 1867.', 'She married Pierre Curie in 1895.', 'She discovered radium.'];

  it('builds the query for step i from the revised steps 1..i-1, not from the draft (sequential schedule; the sources are open tabs)', async () => {
    world = await startWorld({ steps: CURIE_STEPS, facts: CURIE_FACTS });
    const lib = curieLibrary();
    const r = await runOnce(world, Q, lib, { settings: { speculate: false } });
    const used = r.run.steps.map((s) => s.queries[0]?.query ?? '');
    // The sources are open tabs: the draft writes no queries (draft-queries.ts), the step's own
    // words rank them, and what a revision brought in is added to the later steps' queries.
    expect(used[0]).toBe(fallbackQuery(CURIE_STEPS[0] ?? '', Q.text));
    expect(used[1]).toBe(`${fallbackQuery(CURIE_STEPS[1] ?? '', Q.text)} Warsaw 7 November 1867`); // from T*1
    expect(used[2]).toBe(`${fallbackQuery(CURIE_STEPS[2] ?? '', Q.text)} 1895 Warsaw 7 November 1867`); // T*2's first, then T*1's
    for (const q of used.slice(1)) expect(q).not.toContain('Krakow');
    // Each query the steps used went to the library.
    for (const q of used) expect(lib.requests.map((x) => x.query)).toContain(q);
    // The revisions write no queries: their prompts show no later step and ask for none.
    const revisions = world.server.chatRequests().filter((q) => q.stage === 'revise');
    for (const rq of revisions) expect(JSON.stringify(rq.body)).not.toContain('nextQueries');
    // Each revision sees the earlier revised steps as fixed context and writes only its own step.
    const third = revisions[2]?.body as { messages: { content: string }[] };
    expect(third.messages[1]?.content).toMatch(/Steps so far \(fixed\):\n1\. Marie Curie was born in Warsaw on 7 November 1867\.\n2\. She married Pierre Curie in 1895\.\n/);
    expect(third.messages[1]?.content).not.toContain('Krakow');
    expect(r.run.steps.map((s) => s.revised)).toEqual(REVISED);
    // Events: the draft plans every query; a step's query made again from the revisions before it
    // is said when the step starts; nothing waits for queries ("pending").
    const order = r.events
      .filter((e) => (e.type === 'query' && e.round === 1) || e.type === 'step-done' || e.type === 'next-queries')
      .map((e) => `${e.type}:${'index' in e ? e.index : ''}${e.type === 'step-done' && e.queriesPending ? ' pending' : ''}`);
    expect(order).toEqual(['query:0', 'query:1', 'query:2', 'step-done:0', 'query:1', 'step-done:1', 'query:2', 'step-done:2']);
  });

  it('with tabs, a correction reaches the later steps\' searches as soon as it is written, before the revision has streamed whole, once each, a step drafted meanwhile too; the result is the sequential one', async () => {
    // Step 1's correction comes early in its text, and the rest of it takes long enough for the
    // draft's last step (revisions start once the next step is in) to stream meanwhile.
    const tail = 'and grew up in Poland with her father, a teacher of mathematics and physics, her mother, who ran a boarding school for girls, and her brother and three sisters.';
    const steps = [`Marie Curie was born in Krakow ${tail}`, 'She married Pierre Curie.', 'She discovered radium and polonium, two elements, in pitchblende ore from Bohemia, working in a shed in Paris with her husband.'];
    const facts = [
      { step: 0, phrase: 'born 7 November 1867 in Warsaw', revised: `Marie Curie was born in Warsaw ${tail}` },
      { step: 1, phrase: 'married Maria Skłodowska in 1895' },
      { step: 2, phrase: 'radium and polonium' },
    ];
    world = await startWorld({ steps, facts }, { latency: { firstTokenMs: 5, tokensPerSec: 40 } });
    const lib = curieLibrary();
    let lastDelta = 0;
    const r = await runOnce(world, Q, lib, { settings: { speculate: true }, onEvent: (ev) => ev.type === 'revision-delta' && ev.index === 0 && (lastDelta = Date.now()) });
    expect(r.run.status).toBe('done');
    for (const i of [1, 2]) {
      const query = `${fallbackQuery(steps[i] ?? '', Q.text)} Warsaw`;
      expect(r.run.steps[i]?.queries[0]?.query).toBe(query);
      // Searched once, while "… grew up in Poland." was still being written.
      const searched = lib.requests.filter((x) => x.query === query);
      expect(searched).toHaveLength(1);
      expect(searched[0]?.at).toBeLessThan(lastDelta);
    }
    const seq = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.steps.map((s) => [s.revised, s.queries.map((q) => q.query)])).toEqual(seq.run.steps.map((s) => [s.revised, s.queries.map((q) => q.query)]));
    expect(r.run.answer).toBe(seq.run.answer);
  });

  it('with web sources the model writes the queries: the draft plans them, a changed step rewrites the later ones (sequential schedule)', async () => {
    world = await startWorld({ steps: CURIE_STEPS, facts: CURIE_FACTS });
    const lib = { ...curieLibrary(), reach: { tabs: false, web: true } };
    const r = await runOnce(world, Q, lib, { settings: { speculate: false } });
    const used = r.run.steps.map((s) => s.queries[0]?.query ?? '');
    expect(used[1]).toContain('born in Warsaw on 7 November 1867'); // rewritten by T*1
    expect(used[2]).toContain('married Pierre Curie in 1895'); // rewritten by T*2
    for (const q of used.slice(1)) expect(q).not.toContain('Krakow');
    for (const q of used) expect(lib.requests.map((x) => x.query)).toContain(q);
    expect(r.run.steps.map((s) => s.revised)).toEqual(REVISED);
    // A step that changed is committed as soon as its text, citations and judgement have
    // streamed, "pending" until it has rewritten the later queries (a checkpoint is taken at both).
    const order = r.events
      .filter((e) => (e.type === 'query' && e.round === 1) || e.type === 'step-done' || e.type === 'next-queries')
      .map((e) => `${e.type}:${'index' in e ? e.index : ''}${e.type === 'step-done' && e.queriesPending ? ' pending' : ''}${e.type === 'next-queries' ? ` ${e.queries.map((q) => q.index).join(',')}` : ''}`);
    expect(order).toEqual(['query:0', 'query:1', 'query:2', 'step-done:0 pending', 'next-queries:0 1,2', 'step-done:1 pending', 'next-queries:1 2', 'step-done:2']);
  });

  it('streams readable text: draft from the first call, revisions, and the answer', async () => {
    world = await startWorld({ steps: ['Marie Curie was born in 1867.'], facts: [{ phrase: 'born 7 November 1867' }], finalAnswer: 'Marie Curie was born in 1867.' });
    const r = await runOnce(world, Q, curieLibrary());
    const draft = r.events.filter((e) => e.type === 'draft-delta').map((e) => (e as { text: string }).text).join('');
    expect(draft).toBe('1. Marie Curie was born in 1867.');
    expect(r.events.findIndex((e) => e.type === 'draft-delta')).toBeLessThan(r.events.findIndex((e) => e.type === 'draft'));
    const answer = r.events.filter((e) => e.type === 'answer-delta').map((e) => (e as { text: string }).text).join('');
    expect(answer).toBe('Marie Curie was born in 1867. [1]'); // markers already numbered while streaming
    expect(r.run.answer).toBe(answer);
  });
});

describe('progress tracker: further rounds per step', () => {
  const docs = [
    { url: 'https://x.org/alpha', title: 'Alpha', text: 'Alpha is one.' },
    { url: 'https://x.org/beta', title: 'Beta', text: 'Beta is two.' },
    { url: 'https://x.org/gamma', title: 'Gamma', text: 'Gamma is three.' },
  ];
  const lib = () => createMemoryLibrary(docs);
  // The step's first query: its own words (the sources are local, draft-queries.ts).
  const ALPHA = fallbackQuery('Alpha matters.', Q.text);

  it('searches again with a new query while the evidence is insufficient, and stops once it suffices', async () => {
    world = await startWorld({ steps: ['Alpha matters.'], facts: [{ phrase: 'Gamma is three' }] });
    const r = await runOnce(world, Q, lib(), { settings: { maxRounds: 3 } });
    const s = r.run.steps[0]!;
    expect(s.queries.map((q) => [q.query, q.sufficient])).toEqual([[ALPHA, false], ['Gamma is three', true]]);
    expect(s.citations).toHaveLength(1);
    expect(r.stages.filter(notBeside)).toEqual(['gate', 'draft', 'revise', 'revise']);
  });

  it('stops at the maximum number of rounds', async () => {
    const qs = ['Beta', 'Gamma', 'never used'];
    world = await startWorld({ steps: ['Alpha matters.'], facts: [{ phrase: 'Delta is four' }], retryQuery: (_s, round) => qs[round - 1] ?? '' });
    const r = await runOnce(world, Q, lib(), { settings: { maxRounds: 3 } });
    expect(r.run.steps[0]!.queries.map((q) => q.query)).toEqual([ALPHA, 'Beta', 'Gamma']);
    expect(r.stages.filter((s) => s === 'revise')).toHaveLength(3);
    const one = await runOnce(world, Q, lib(), { settings: { maxRounds: 1 } });
    expect(one.run.steps[0]!.queries).toHaveLength(1);
  });

  it('stops when the next query repeats an earlier one', async () => {
    world = await startWorld({ steps: ['Alpha matters.'], facts: [{ phrase: 'Delta is four' }], retryQuery: () => `  ${ALPHA.toUpperCase()} ` });
    const r = await runOnce(world, Q, lib(), { settings: { maxRounds: 3 } });
    expect(r.run.steps[0]!.queries).toHaveLength(1);
    expect(r.run.steps[0]!.note).toMatch(/repeated/);
    expect(r.stages.filter((s) => s === 'revise')).toHaveLength(1);
  });

  it('stops when a further round finds nothing new (without another model call)', async () => {
    world = await startWorld({ steps: ['Alpha matters.'], facts: [{ phrase: 'Delta is four' }], retryQuery: () => 'alpha one' });
    const r = await runOnce(world, Q, lib(), { settings: { maxRounds: 3 } });
    expect(r.run.steps[0]!.queries.map((q) => q.passages.length)).toEqual([1, 0]);
    expect(r.run.steps[0]!.note).toMatch(/nothing new/);
    expect(r.stages.filter((s) => s === 'revise')).toHaveLength(1);
  });

  it('the Refiner keeps the top k passages over all rounds of a step', async () => {
    world = await startWorld({ steps: ['Alpha matters.'], facts: [{ phrase: 'Gamma is three' }] });
    const r = await runOnce(world, Q, lib(), { settings: { passagesPerStep: 1 } });
    expect(r.run.steps[0]!.queries.map((q) => q.passages.map((p) => p.title))).toEqual([['Alpha'], ['Gamma']]);
  });
});

describe('model output that cannot be used', () => {
  it('a revision that stays unreadable after the repair round ends the run with an error naming the stage and step, and keeps what was done', async () => {
    world = await startWorld({ steps: ['Marie Curie was born in 1867.', 'She won a Nobel Prize.'], facts: [{ phrase: 'born 7 November 1867' }, { phrase: 'Nobel Prize' }], malformed: { revise: 2 } });
    const r = await runOnce(world, Q, curieLibrary(), { settings: { speculate: false } });
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'bad-output', stage: 'revise, step 1' });
    expect(r.run.answer).toBeUndefined();
    expect(r.stages).toEqual(['gate', 'draft', 'revise', 'revise']);
    // Retry continues from that step: the gate and the draft are not asked again.
    const before = world.server.chatRequests().length;
    const again = await executeRun({ run: r.run, llm: world.llm, library: curieLibrary(), settings: pipelineSettings({ speculate: false }), emit: () => {} });
    expect(again.status).toBe('done');
    expect(world.server.chatRequests().slice(before).map((q) => q.stage)).toEqual(['revise', 'revise']);
    expect(again.steps.every((s) => s.citations.length >= 1)).toBe(true);
  });

  it('a reply with no JSON at all is an error, not an answer', async () => {
    world = await startWorld({ steps: ['Marie Curie was born in 1867.'] });
    world.server.setResponder(((base) => (req) => (req.stage === 'revise' ? { content: 'I cannot do that.' } : base(req)))(pipelineResponder({ steps: ['Marie Curie was born in 1867.'] })));
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.status).toBe('error');
    expect(r.run.error?.code).toBe('bad-output');
    expect(r.stages.filter(notBeside)).toEqual(['gate', 'draft', 'revise', 'revise']);
  });

  it('an unreadable gate is said in the trace and the question is checked against sources as asked', async () => {
    world = await startWorld({ steps: ['Marie Curie was born in Warsaw.'], facts: [{ phrase: 'Warsaw' }], malformed: { gate: 'always' } });
    const r = await runOnce(world, { text: 'Where was Marie Curie born?' }, curieLibrary());
    expect(r.run.status).toBe('done');
    expect(r.run.gate).toMatchObject({ label: 'clear', beta: 0, retrieve: true, unreadable: true });
    expect(r.run.answer).toMatch(/\[1\]/);
  });

  it('an unreadable draft ends the run with an error naming the draft, not with the question as the answer', async () => {
    world = await startWorld({ malformed: { draft: 'always' } });
    const r = await runOnce(world, { text: 'Where was Marie Curie born?' }, curieLibrary());
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'bad-output', stage: 'draft' });
    expect(r.run.steps).toEqual([]);
    expect(r.run.answer).toBeUndefined();
  });

  it('a bare "[7]" or a footnote "[1]" the model copies stays text; only validated markers are citations', async () => {
    world = await startWorld({ steps: ['Marie Curie was born in 1867.'], facts: [{ phrase: 'born 7 November 1867' }], finalAnswer: 'She was born in 1867[1] in Warsaw [7].' });
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.answer).toBe('She was born in 1867\\[1\\] in Warsaw \\[7\\]. [1]');
    expect(r.run.sources).toHaveLength(1);
  });

  it('made-up citation ids and quotes are dropped and counted', async () => {
    world = await startWorld({
      steps: ['Marie Curie was born in 1867.'],
      facts: [{ phrase: 'born 7 November 1867' }],
      bogusCitations: [{ id: 'P99', quote: '' }, { id: 'P1', quote: 'born on Mars' }],
    });
    const r = await runOnce(world, Q, curieLibrary());
    expect(r.run.droppedCitations).toBe(2);
    expect(r.events.filter((e) => e.type === 'citation-dropped').map((e) => (e as { reason: string }).reason)).toEqual(['unknown-id', 'quote-not-found']);
    expect(r.run.steps[0]!.citations).toHaveLength(1);
  });

  it('no evidence: the step stays as drafted, and a failing library is reported, not fatal', async () => {
    world = await startWorld({ steps: ['Marie Curie was born in 1867.', 'She won a Nobel Prize.'] });
    const lib = curieLibrary([], { fail: 'search provider down' });
    const r = await runOnce(world, Q, lib);
    expect(r.run.status).toBe('done');
    expect(r.run.steps.map((s) => [s.status, s.note])).toEqual([
      ['unchanged', 'No evidence was found for this step.'],
      ['unchanged', 'No evidence was found for this step.'],
    ]);
    expect(r.run.providerErrors[0]).toMatchObject({ provider: 'library', message: 'search provider down' });
    expect(r.stages).toEqual(['gate', 'draft', 'compose']);
  });
});
