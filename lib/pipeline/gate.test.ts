import { afterEach, describe, expect, it } from 'vitest';
import { decide, shouldRetrieve } from './gate';
import type { GateOut } from './stages';
import type { TextOrigin } from '../core/run';
import { curieLibrary, runOnce, startWorld, type TestWorld, notBeside } from '../../test/harness/pipeline-world.ts';

const out = (o: Partial<GateOut>): GateOut => ({ label: 'clear', question: 'Q?', aboutPage: false, subQuestions: [], confidence: 0.5, search: [], ...o });
const input = { text: 'Q?' };

describe('shouldRetrieve (β < β′)', () => {
  it.each([
    [0.3, 0.5, true], // below
    [0.5, 0.5, false], // at: the paper retrieves only when β < β′
    [0.7, 0.5, false], // above
    [0, 0, false], // β′ = 0 never retrieves
    [1, 1, true], // β′ = 1 always retrieves, even at full confidence
    [0.99, 0, false],
  ])('β=%s, β′=%s → %s', (beta, t, want) => {
    expect(shouldRetrieve(beta, t)).toBe(want);
  });
  it('forced retrieval wins over confidence and β′ = 0', () => {
    expect(shouldRetrieve(1, 0, true)).toBe(true);
  });
});

describe('decide', () => {
  it('clear: keeps the question', () => {
    expect(decide(out({ confidence: 0.9 }), input, { betaThreshold: 0.5 })).toEqual({ label: 'clear', beta: 0.9, betaThreshold: 0.5, retrieve: false });
  });
  it('incomplete: stores the rewrite', () => {
    const d = decide(out({ label: 'incomplete', question: 'When did Marie Curie move to Paris?', confidence: 0.2 }), { text: 'When did she move?' }, { betaThreshold: 0.5 });
    expect(d).toMatchObject({ label: 'incomplete', rewritten: 'When did Marie Curie move to Paris?', retrieve: true });
  });
  it('incomplete without a usable rewrite degrades to clear', () => {
    expect(decide(out({ label: 'incomplete', question: 'Q?' }), input, { betaThreshold: 0.5 }).label).toBe('clear');
  });
  it('ambiguous: 2–4 sub-questions, each with its own β and decision; β is the lowest', () => {
    const d = decide(
      out({
        label: 'ambiguous',
        subQuestions: [
          { question: 'A?', confidence: 0.9, dependsOnPrevious: false },
          { question: 'B?', confidence: 0.2, dependsOnPrevious: true },
          { question: 'C?', confidence: 0.8, dependsOnPrevious: false },
          { question: 'D?', confidence: 0.8, dependsOnPrevious: false },
          { question: 'E?', confidence: 0.8, dependsOnPrevious: false },
        ],
      }),
      input,
      { betaThreshold: 0.5 },
    );
    expect(d.subQuestions).toEqual(['A?', 'B?', 'C?', 'D?']);
    expect(d.parts?.map((p) => p.retrieve)).toEqual([false, true, false, false]);
    expect(d.parts?.[1]!.dependsOnPrevious).toBe(true);
    expect(d).toMatchObject({ beta: 0.2, retrieve: true });
  });
  it('ambiguous with a single part is a rewrite', () => {
    const d = decide(out({ label: 'ambiguous', subQuestions: [{ question: 'Only one?', confidence: 0.9, dependsOnPrevious: false }] }), input, { betaThreshold: 0.5 });
    expect(d).toMatchObject({ label: 'incomplete', rewritten: 'Only one?' });
  });
  it('ambiguous with no parts is a rewrite if the reply restated the question, else clear', () => {
    expect(decide(out({ label: 'ambiguous', question: 'Which Paris, France?' }), input, { betaThreshold: 0.5 })).toMatchObject({ label: 'incomplete', rewritten: 'Which Paris, France?' });
    expect(decide(out({ label: 'ambiguous', question: 'Q?', confidence: 0.9 }), input, { betaThreshold: 0.5 })).toEqual({ label: 'clear', beta: 0.9, betaThreshold: 0.5, retrieve: false });
  });
  it('the decision on an ambiguous question says it is about the page, and every part then reads it', () => {
    const d = decide(out({ label: 'ambiguous', aboutPage: true, subQuestions: [{ question: 'A?', confidence: 0.9, dependsOnPrevious: true }, { question: 'B?', confidence: 0.9, dependsOnPrevious: false }] }), { text: 'Q?', page: { url: 'https://a.example/', title: 'A', text: 'Page text.' } }, { betaThreshold: 0.5 });
    expect(d).toMatchObject({ label: 'ambiguous', aboutPage: true, retrieve: true });
    expect(d.parts).toEqual([{ question: 'A?', beta: 0.9, retrieve: true }, { question: 'B?', beta: 0.9, retrieve: true }]);
  });
});

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('the gate in a run', () => {
  it('a confident, clear question is answered directly in 2 calls, without retrieval', async () => {
    world = await startWorld({ gate: { label: 'clear', confidence: 0.9 }, answer: 'Water boils at 100 °C at sea level.' });
    const lib = curieLibrary();
    const r = await runOnce(world, { text: 'At what temperature does water boil?' }, lib);
    expect(r.stages).toEqual(['gate', 'answer']);
    expect(lib.requests).toHaveLength(0);
    expect(r.run.gate).toMatchObject({ label: 'clear', beta: 0.9, betaThreshold: 0.5, retrieve: false });
    expect(r.run.answer).toBe('Water boils at 100 °C at sea level.');
    expect(r.events.some((e) => e.type === 'answer-delta')).toBe(true);
  });

  it('β′ = 1 retrieves even for a confident question; forceRetrieval too', async () => {
    world = await startWorld({ gate: { confidence: 0.95 }, steps: ['Marie Curie was born in 1867.'], facts: [{ phrase: 'born 7 November 1867' }] });
    const r = await runOnce(world, { text: 'When was Marie Curie born?' }, curieLibrary(), { settings: { betaThreshold: 1 } });
    expect(r.run.gate?.retrieve).toBe(true);
    expect(r.stages.filter(notBeside)).toEqual(['gate', 'draft', 'revise']);
    const f = await runOnce(world, { text: 'When was Marie Curie born?', forceRetrieval: true }, curieLibrary());
    expect(f.run.gate?.retrieve).toBe(true);
  });

  it('β′ = 0 never retrieves, even with no confidence at all', async () => {
    world = await startWorld({ gate: { confidence: 0 } });
    const lib = curieLibrary();
    const r = await runOnce(world, { text: 'Who?' }, lib, { settings: { betaThreshold: 0 } });
    expect(r.stages).toEqual(['gate', 'answer']);
    expect(lib.requests).toHaveLength(0);
  });

  it('an incomplete question is rewritten and the rewrite is what gets drafted; the gate never sees the page, the draft does', async () => {
    world = await startWorld({ gate: { label: 'incomplete', question: 'When was Marie Curie born?', confidence: 0.1 }, steps: (q) => [`Looking up: ${q}`] });
    const r = await runOnce(world, { text: 'When was she born?', page: { url: 'https://en.wikipedia.org/wiki/Marie_Curie', title: 'Marie Curie - Wikipedia', surrounding: 'Marie Curie was a physicist.' } }, curieLibrary());
    expect(r.run.gate).toMatchObject({ label: 'incomplete', rewritten: 'When was Marie Curie born?' });
    expect(r.run.steps[0]!.draft).toBe('Looking up: When was Marie Curie born?');
    const userOf = (stage: string) => (world!.server.chatRequests().find((q) => q.stage === stage)!.body as { messages: { content: string }[] }).messages[1]!.content;
    expect(userOf('gate')).not.toMatch(/Marie Curie - Wikipedia|physicist|wikipedia\.org/);
    expect(userOf('draft')).toContain('<<<DATA kind="page" title="Marie Curie - Wikipedia"');
  });

  it('an ambiguous question: each sub-question gated, independent ones answered in parallel, then composed', async () => {
    world = await startWorld(
      {
        gate: { label: 'ambiguous', subQuestions: [{ question: 'Where was Marie Curie born?', confidence: 0.1 }, { question: 'What is 2 + 2?', confidence: 0.95 }] },
        steps: (q) => [`Step for ${q}`],
        facts: [{ phrase: 'born 7 November 1867 in Warsaw' }],
        answer: (q) => `Direct: ${q}`,
      },
      { latency: { firstTokenMs: 60 } },
    );
    const r = await runOnce(world, { text: 'Curie birthplace and 2+2?' }, curieLibrary());
    expect(r.run.status).toBe('done');
    expect(r.run.gate?.parts?.map((p) => p.retrieve)).toEqual([true, false]);
    expect([...r.stages].sort()).toEqual(['answer', 'compose', 'draft', 'gate', 'revise']);
    expect(r.run.partAnswers?.[1]?.markdown).toBe('Direct: What is 2 + 2?');
    expect(r.run.partAnswers?.[0]?.citations.length).toBe(1);
    expect(r.run.steps.every((s) => s.part === 0)).toBe(true);
    expect(r.run.answer).toMatch(/\[1\]$/);
    expect(r.run.sources).toHaveLength(1);
    // The direct answer ran while part 0 was drafting: it arrived before the revise call.
    const reqs = world.server.chatRequests().map((q) => q.stage);
    expect(reqs.indexOf('answer')).toBeLessThan(reqs.indexOf('revise'));
  });
});

describe('the page and the thread', () => {
  const page = { url: 'https://example.org/articles/curie', title: 'Marie Curie', surrounding: 'Marie Curie was a physicist.', text: 'Marie Curie was a physicist. She was born in Warsaw in 1867. She moved to Paris in 1891.', tabId: 7 };

  it('a question about the page is read from it whatever β says, and only when there is page text', () => {
    expect(decide(out({ aboutPage: true, confidence: 0.95 }), { text: 'Summarize this page', page }, { betaThreshold: 0.5 })).toMatchObject({ aboutPage: true, retrieve: true });
    const noText = decide(out({ aboutPage: true, confidence: 0.95 }), { text: 'Summarize this page', page: { ...page, text: undefined } }, { betaThreshold: 0.5 });
    expect(noText.aboutPage).toBeUndefined();
    expect(noText.retrieve).toBe(false);
  });

  it('a question the user already confirmed is not rewritten again', () => {
    const d = decide(out({ label: 'incomplete', question: 'Something else?' }), { text: 'How tall is the Eiffel Tower?', asked: 'how tall is it?' }, { betaThreshold: 0.5 });
    expect(d.label).toBe('clear');
    expect(d.rewritten).toBeUndefined();
  });

  it('sends the gate the conversation\'s network-safe part and the selection, never the page, and asks whether the question is about the page', async () => {
    world = await startWorld({
      gate: { label: 'incomplete', question: (_q, prompt) => (prompt.includes('Q1: Who was Marie Curie?') ? 'Where was Marie Curie born?' : 'Where was he born?'), confidence: 0.2 },
      steps: ['Marie Curie was born in Warsaw.'],
      facts: [{ phrase: 'born 7 November 1867 in Warsaw' }],
    });
    const turns = [
      // Answered from the web only: the gate may read the answer.
      { question: 'Who was Marie Curie?', answer: 'A physicist and chemist.', answerOrigins: ['typed', 'web'] as TextOrigin[] },
      // Answered after reading open tabs: the gate sees the question, never the answer.
      { question: 'What did she discover?', answer: 'Polonium, says the tab titled Project Nightjar.', answerOrigins: ['typed', 'tab', 'web'] as TextOrigin[] },
    ];
    const r = await runOnce(world, { text: 'Where was she born?', page: { ...page, selection: 'She moved to Paris' }, thread: { id: 't1', turns } }, curieLibrary());
    expect(r.run.gate).toMatchObject({ label: 'incomplete', rewritten: 'Where was Marie Curie born?' });
    const bodyOf = (stage: string) => (world!.server.chatRequests().find((q) => q.stage === stage)!.body as { messages: { content: string }[] }).messages.map((m) => m.content);
    const [system, user] = bodyOf('gate');
    expect(system).toContain('"aboutPage"');
    expect(user).toContain('<<<DATA kind="conversation">>>\nQ1: Who was Marie Curie?\nA1: A physicist and chemist.\n\nQ2: What did she discover?\nA2: (not shown)');
    expect(user).not.toContain('Nightjar');
    expect(user).not.toMatch(/kind="page"|example\.org|Marie Curie was a physicist/);
    expect(user).toContain('<<<DATA kind="selection">>>\nShe moved to Paris');
    // The draft reads everything: the page and the whole conversation.
    const draft = bodyOf('draft')[1];
    expect(draft).toContain('<<<DATA kind="page" title="Marie Curie" url="https://example.org/articles/curie">>>');
    expect(draft).toContain('A2: Polonium, says the tab titled Project Nightjar.');
  });

  it('a question about the page cites the page first and the trace lists it as read', async () => {
    world = await startWorld({ gate: { aboutPage: true, confidence: 0.9 }, steps: ['Marie Curie moved to Paris in 1891.'], facts: [{ phrase: 'moved to Paris in 1891' }] });
    const r = await runOnce(world, { text: 'Summarize this page', page }, curieLibrary());
    expect(r.stages.filter(notBeside)).toEqual(['gate', 'draft', 'revise']);
    expect(r.run.gate?.aboutPage).toBe(true);
    expect(r.run.library).toContainEqual(expect.objectContaining({ url: page.url, status: 'read', reason: 'the page you are on', tabId: 7 }));
    expect(r.run.steps[0]?.queries[0]?.passages[0]).toMatchObject({ url: page.url, origin: 'tab', tabId: 7 });
    expect(r.run.sources[0]).toMatchObject({ n: 1, url: page.url, tabId: 7 });
  });
});
