import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../lib/llm/client.ts';
import { executeRun } from '../../lib/pipeline/run.ts';
import { newRun } from '../../lib/pipeline/run-state.ts';
import type { RunInput } from '../../lib/core/run.ts';
import { createMemoryLibrary } from './memory-library.ts';
import { startFakeLlm, type FakeLlm, type LlmRequest } from './fake-llm.ts';
import { llmSettings, pipelineSettings } from './pipeline-world.ts';
import { fixtureDocs } from './fixture-corpus.ts';
import { demoResponder } from './demo-responder.ts';
import { SECTION } from './prompt-reader.ts';
import { position } from '../../lib/core/prompt-sections.ts';

const req = (stage: string | undefined, lastUser: string): LlmRequest => ({
  stage,
  lastUser,
  system: '',
  messages: [{ role: 'user', content: lastUser }],
  stream: false,
  model: 'ratify-demo-model',
  responseFormat: stage ? 'json_schema' : 'text',
  body: {},
  headers: {},
  signal: new AbortController().signal,
});

const selection = (s: string) => `Highlighted passage:\n<<<DATA kind="selection">>>\n${s}\n<<<END DATA>>>`;

describe('the demo model behind npm start', () => {
  const respond = demoResponder(fixtureDocs());

  it('judges the demo page’s claims from the fixture articles', async () => {
    const verdict = async (claim: string) => {
      const r = (await respond(req('check', `${SECTION.currentClaim}: ${position(1, 1, 1)}\n${SECTION.claim}: ${claim}\n\n${selection(claim)}`))) as { json: { verdict: string; corrected: string } };
      return [r.json.verdict, r.json.corrected];
    };
    expect((await verdict('Marie Curie moved to Paris in 1891 to study at the Sorbonne.'))[0]).toBe('supported');
    expect(await verdict('The Eiffel Tower was completed in 1899 and is 300 metres tall.')).toEqual(['corrected', 'The Eiffel Tower was completed in 1889 and is 330 metres tall.']);
    expect((await verdict('He moved to Paris in 1920.'))[0]).toBe('unverifiable');
  });

  it('checks the demo page as a model would: its claims, not its instructions or questions, each judged from the articles', async () => {
    const page = 'Try Ratify\nSelect a sentence below, right-click and choose Verify with RAT, or open the side panel and ask a question.\nMarie Curie moved to Paris in 1891 to study at the Sorbonne.\nThe Eiffel Tower was completed in 1899 and is 300 metres tall.\nWho shared the 1903 Nobel Prize in Physics with Marie Curie?';
    const listed = (await respond(req('page-claims', `The article:\n<<<DATA kind="page" title="Ratify demo page">>>\n${page}\n<<<END DATA>>>`))) as { json: { claims: { claim: string; query: string }[] } };
    expect(listed.json.claims.map((c) => c.claim)).toEqual(['Marie Curie moved to Paris in 1891 to study at the Sorbonne.', 'The Eiffel Tower was completed in 1899 and is 300 metres tall.']);
    const checked = (await respond(req('page-check', `${SECTION.claim}: ${listed.json.claims[1]!.claim}\n\n${SECTION.searchQuery}: Eiffel Tower\n\n${SECTION.evidence}:\n<<<DATA id="P1" origin="open tab" title="Eiffel Tower">>>\nConstruction began in January 1887 and the tower was completed in March 1889.\n<<<END DATA>>>`))) as { json: Record<string, unknown> };
    expect(checked.json).toMatchObject({ verdict: 'corrected', corrected: 'The Eiffel Tower was completed in 1889 and is 330 metres tall.' });
    expect(checked.json).not.toHaveProperty('nextQueries');
  });

  it('drafts from the article that answers the question', async () => {
    // Asked for no queries, the steps come as plain strings (the schema sent then).
    const r = (await respond(req('draft', `${SECTION.question}: Who shared the 1903 Nobel Prize in Physics with Marie Curie?`))) as { json: { steps: string[] } };
    expect(r.json.steps[0]).toContain('Pierre Curie and Henri Becquerel');
  });

  it('says it is the demo model when asked in plain chat', async () => {
    const r = (await respond(req(undefined, 'How tall is the Eiffel Tower?'))) as { content: string };
    expect(r.content).toMatch(/^\(Answer from Ratify's demo model/);
    expect(r.content).toContain('330 metres');
  });
});

describe('the demo model answers what the demo page suggests, through the real pipeline', () => {
  const docs = fixtureDocs();
  const library = () => createMemoryLibrary(docs.map((d) => ({ url: `http://127.0.0.1${d.path}`, title: d.title, text: d.text, origin: 'tab' as const })), { passageChars: 400 });
  const suggested = [...readFileSync(new URL('../fixtures/site/demo.html', import.meta.url), 'utf8').split('Questions to ask')[1]!.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]!);
  // What a reader checks in each answer; a new suggestion on the demo page needs an entry here.
  const expected: Record<string, RegExp[]> = {
    'Who shared the 1903 Nobel Prize in Physics with Marie Curie?': [/Pierre Curie/, /Henri Becquerel/],
    'How tall is the Eiffel Tower, and who built it?': [/330 metres/, /Gustave Eiffel/],
    '屠呦呦是从哪本古籍中得到提取青蒿素的启发的？': [/葛洪/, /《肘后备急方》/],
  };
  let server: FakeLlm;
  beforeAll(async () => {
    server = await startFakeLlm({ responder: demoResponder(docs) });
  });
  afterAll(() => server.close());
  const ask = (input: RunInput) =>
    executeRun({ run: newRun('demo', 'ask', input, 0), llm: createLlmClient(llmSettings(server.baseURL)), library: library(), settings: pipelineSettings(), emit: () => {} });

  it('every suggested question, answered in full with a citation', async () => {
    expect(suggested.length).toBe(3);
    for (const q of suggested) {
      expect(expected[q], `no expectation for the suggested question "${q}"`).toBeDefined();
      const run = await ask({ text: q });
      expect(run.status, q).toBe('done');
      for (const fact of expected[q]!) expect(run.answer, q).toMatch(fact);
      expect(run.sources.length, q).toBeGreaterThan(0);
    }
  });

  it('summarizes the page the user is on from that page, and resolves a follow-up from the thread', async () => {
    const curie = docs.find((d) => d.title === 'Marie Curie')!;
    const text = curie.text.replace(/=+ .* =+/g, '').trim();
    const page = { url: `http://127.0.0.1${curie.path}`, title: curie.title, tabId: 3, surrounding: text.slice(0, 2000), text };
    const summary = await ask({ text: 'Summarize this page', page });
    expect(summary.gate?.aboutPage).toBe(true);
    expect(summary.sources[0]).toMatchObject({ url: page.url, tabId: 3 });
    const followUp = await ask({ text: 'Where was she born?', thread: { id: 't', turns: [{ question: 'Who shared the 1903 Nobel Prize in Physics with Marie Curie?', answer: 'Pierre Curie and Henri Becquerel.' }] } });
    expect(followUp.gate?.rewritten).toBe('Where was Marie Curie born?');
    expect(followUp.answer).toMatch(/Warsaw/);
  });
});
