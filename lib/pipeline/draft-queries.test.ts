import { afterEach, describe, expect, it } from 'vitest';
import { curieLibrary, runOnce, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import type { CatalogueEntry } from '../core/passage';
import { MARK } from '../core/prompt-sections';
import type { Library } from '../retrieval/types';
import { draftWritesQueries } from './draft-queries';
import { fallbackQuery } from './step-query';

const tab = (lang?: string): CatalogueEntry => ({ title: 'A tab', site: 'example.org', url: 'https://example.org/a', origin: 'tab', ...(lang ? { lang } : {}) });

describe('draftWritesQueries', () => {
  it('asks for queries when a step query may search the web, or a source is in another language', () => {
    // Web only: the run's context is network-safe, a step's query goes to a search engine.
    expect(draftWritesQueries(['typed', 'web'], 'Who built it?', [])).toBe(true);
    // Tabs among the sources: step queries rank text on this computer.
    expect(draftWritesQueries(['typed', 'tab', 'web'], 'Who built it?', [tab('en'), tab()])).toBe(false);
    expect(draftWritesQueries(['typed', 'tab'], 'Who built it?', [tab('en-GB')])).toBe(false);
    expect(draftWritesQueries(['typed', 'tab'], '東京タワーは誰が建てたか', [tab('ja-JP')])).toBe(false);
    // A French tab beside an English question: the query is written in both languages.
    expect(draftWritesQueries(['typed', 'tab'], 'Who built it?', [tab('en'), tab('fr')])).toBe(true);
    expect(draftWritesQueries(['typed', 'tab'], '東京タワーは誰が建てたか', [tab('en')])).toBe(true);
  });
});

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const Q = { text: 'Tell me about Marie Curie.' };
const STEPS = ['Marie Curie was born in Warsaw in 1867.', 'She won the Nobel Prize in Physics in 1903.'];
const scripted = { steps: STEPS, facts: [{ phrase: 'born 7 November 1867' }, { phrase: 'Nobel Prize' }], nextQuery: (_revised: string, draft: string) => `query for ${draft}` };

async function draftOf(library: Library) {
  world = await startWorld(scripted);
  const r = await runOnce(world, Q, library, { settings: { betaThreshold: 1 } });
  const req = world.server.chatRequests().find((q) => q.stage === 'draft');
  const body = req?.body as { messages: { content: string }[]; response_format?: unknown };
  const draftTokens = r.run.usage?.byStage.draft?.outputTokens;
  return { run: r.run, system: body.messages[0]?.content ?? '', schema: JSON.stringify(body.response_format), draftTokens };
}

describe('the draft writes a query with each step only where the query does what the step cannot', () => {
  it('open tabs: no query is asked for or in the schema sent; each step ranks the tabs with its own words, and the draft is shorter', async () => {
    const tabs = await draftOf(curieLibrary());
    expect(tabs.run.status).toBe('done');
    expect(tabs.system).not.toContain(MARK.draftQuery);
    // The steps as plain strings: no query, and no object around each step.
    expect(tabs.schema).toContain('"steps":{"type":"array","items":{"type":"string"}}');
    expect(tabs.schema).not.toContain('"query"');
    expect(tabs.run.steps.map((s) => s.queries[0]?.query)).toEqual(STEPS.map((s) => fallbackQuery(s, Q.text)));
    expect(tabs.run.steps.every((s) => s.citations.length > 0)).toBe(true);

    // The same question where the step queries search the web (no tab among the sources).
    const webOnly = await draftOf({ ...curieLibrary(), reach: { tabs: false, web: true } });
    expect(webOnly.run.status).toBe('done');
    expect(webOnly.system).toContain(MARK.draftQuery);
    expect(webOnly.schema).toContain('"query"');
    expect(webOnly.run.steps.map((s) => s.queries[0]?.query)).toEqual(STEPS.map((s) => `query for ${s}`));
    expect(tabs.draftTokens).toBeLessThan(webOnly.draftTokens ?? 0);
  });
});
