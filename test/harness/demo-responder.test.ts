import { describe, expect, it } from 'vitest';
import type { LlmRequest } from './fake-llm.ts';
import { fixtureDocs } from './fixture-corpus.ts';
import { demoResponder } from './demo-responder.ts';

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
      const r = (await respond(req('check', `Current claim: 1 of 1\nClaim: ${claim}\n\n${selection(claim)}`))) as { json: { verdict: string; corrected: string } };
      return [r.json.verdict, r.json.corrected];
    };
    expect((await verdict('Marie Curie moved to Paris in 1891 to study at the Sorbonne.'))[0]).toBe('supported');
    expect(await verdict('The Eiffel Tower was completed in 1899 and is 300 metres tall.')).toEqual(['corrected', 'The Eiffel Tower was completed in 1889 and is 330 metres tall.']);
    expect((await verdict('He moved to Paris in 1920.'))[0]).toBe('unverifiable');
  });

  it('drafts from the article that answers the question', async () => {
    const r = (await respond(req('draft', 'Question: Who shared the 1903 Nobel Prize in Physics with Marie Curie?'))) as { json: { steps: { step: string }[] } };
    expect(r.json.steps[0]?.step).toContain('Pierre Curie and Henri Becquerel');
  });

  it('says it is the demo model when asked in plain chat', async () => {
    const r = (await respond(req(undefined, 'How tall is the Eiffel Tower?'))) as { content: string };
    expect(r.content).toMatch(/^\(Answer from Ratify's demo model/);
    expect(r.content).toContain('330 metres');
  });
});
