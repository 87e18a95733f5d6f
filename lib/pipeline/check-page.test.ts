import { afterEach, describe, expect, it } from 'vitest';
import { curieLibrary, runOnce, startWorld, type TestWorld } from '../../test/harness/pipeline-world.ts';
import { pipelineResponder, type ScenarioClaim } from '../../test/harness/pipeline-responder.ts';
import type { LlmRequest } from '../../test/harness/fake-llm.ts';
import { newRun } from './run-state';
import { CONCURRENCY, UNREADABLE_CHECK_NOTE } from './check-page';
import { sentenceHash } from './sentence-hash';
import type { WebQuery } from '../core/flow';

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const URL = 'https://news.example.com/landmarks';
const article = [
  'Landmarks and the people behind them.',
  'Marie Curie was born in Warsaw in 1867.',
  'She shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel.',
  'In our view she is the greatest scientist who ever lived.',
  'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
  'Pierre Curie married Maria Skłodowska in 1895 in Sceaux.',
  'Warsaw is the capital of Poland.',
].join(' ');
const page = { url: URL, title: 'Landmarks', tabId: 9 };

const claims: ScenarioClaim[] = [
  { claim: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.', phrase: 'completed in March 1889', verdict: 'corrected', corrected: 'The Eiffel Tower was completed in 1889 and is 330 metres tall.', query: 'Eiffel Tower completion height', worthiness: 0.95 },
  { claim: 'Marie Curie was born in Warsaw in 1867.', phrase: 'born 7 November 1867 in Warsaw', verdict: 'supported', query: 'Marie Curie birth', worthiness: 0.9 },
  { claim: 'Marie Curie shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel.', sentence: 'She shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel.', phrase: 'shared the 1903 Nobel Prize in Physics', verdict: 'supported', query: 'Marie Curie Nobel 1903', worthiness: 0.85 },
  { claim: 'Pierre Curie married Maria Skłodowska in 1895 in Sceaux.', phrase: 'married Maria Skłodowska in 1895', verdict: 'supported', query: 'Marie Curie birth', worthiness: 0.6 },
  { claim: 'Warsaw is the capital of Poland.', phrase: 'capital of Poland', verdict: 'supported', query: 'Warsaw capital', worthiness: 0.3 },
];
const eiffelDoc = { url: 'https://en.wikipedia.org/wiki/Eiffel_Tower', title: 'Eiffel Tower', text: 'The tower was completed in March 1889. It is 330 metres tall.' };
// The page under check says the same (wrong) thing: never evidence for itself.
const self = { url: `${URL}#top`, title: 'Landmarks', text: article, origin: 'tab' as const, tabId: 9 };

describe('check this page', () => {
  it('lists the page\'s claims in one call, checks each in parallel and builds the report and the corrected text in code', async () => {
    world = await startWorld({ claims });
    const lib = curieLibrary([eiffelDoc, self]);
    const r = await runOnce(world, { text: article, page }, lib, { mode: 'page' });
    expect(r.run.status).toBe('done');
    expect(r.stages).toEqual(['page-claims', ...claims.map(() => 'page-check')]); // 1 + n calls
    // In page order, with the page's own sentence, its hash and the verdict.
    expect(r.run.claims?.map((c) => [c.sentence, c.verdict])).toEqual([
      ['Marie Curie was born in Warsaw in 1867.', 'supported'],
      ['She shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel.', 'supported'],
      ['The Eiffel Tower was completed in 1899 and is 300 metres tall.', 'corrected'],
      ['Pierre Curie married Maria Skłodowska in 1895 in Sceaux.', 'supported'],
      ['Warsaw is the capital of Poland.', 'supported'],
    ]);
    expect(r.run.claims?.[0]?.sentenceHash).toBe(sentenceHash('Marie Curie was born in Warsaw in 1867.'));
    // Sources are numbered in page order.
    expect(r.run.claims?.map((c) => c.sources[0])).toEqual([1, 1, 2, 3, 4]);
    expect(r.run.corrected).toContain('The Eiffel Tower was completed in 1889 and is 330 metres tall.');
    expect(r.run.corrected).not.toMatch(/1899|300 metres/);
    expect(r.run.corrected).toContain('In our view she is the greatest scientist');
    expect(r.run.gate).toMatchObject({ found: 5, retrieve: true });
    // Each verdict is shown (its sentence marked) before its correction and explanation are in.
    for (const s of r.run.steps) {
      const shown = r.events.findIndex((e) => e.type === 'step-verdict' && e.index === s.index);
      const done = r.events.findIndex((e) => e.type === 'step-done' && e.index === s.index);
      expect(shown, s.draft).toBeGreaterThanOrEqual(0);
      expect(shown, s.draft).toBeLessThan(done);
    }
    // Never the page itself as evidence.
    expect(r.run.sources.some((s) => s.url.startsWith(URL) || s.tabId === 9)).toBe(false);
  });

  it('the claims call sees the page and nothing else; the web is searched with its queries only, once each; the checks search this computer', async () => {
    world = await startWorld({ claims, roundsNeeded: [1, 1, 1, 1, 2] });
    const secretTab = { url: 'https://bank.example/account', title: 'Account 7731 - Example Bank', text: 'Your account code is 7731-XK. Warsaw branch.', origin: 'tab' as const, tabId: 3 };
    const lib = curieLibrary([eiffelDoc, secretTab]);
    const web: string[] = [];
    const withWeb = { ...lib, searchWeb: (qs: WebQuery[]) => (web.push(...qs), Promise.resolve({ sources: [], errors: [] })) };
    const r = await runOnce(world, { text: article, page }, withWeb, { mode: 'page' });
    expect(r.run.status).toBe('done');
    const listing = world.server.chatRequests().find((q) => q.stage === 'page-claims');
    const prompt = JSON.stringify(listing?.body);
    expect(prompt).toContain('Marie Curie was born in Warsaw in 1867.');
    expect(prompt).not.toMatch(/Example Bank|7731|Account/);
    // The web: each of the claims call's queries, once (two claims share one); they are the
    // run's web plan, written from what the user chose to check.
    const planned = ['Eiffel Tower completion height', 'Marie Curie Nobel 1903', 'Marie Curie birth', 'Warsaw capital'].sort();
    expect([...web].sort()).toEqual(planned);
    expect(r.run.webPlan?.origins).toEqual(['selected']);
    expect(r.run.webPlan?.queries).toEqual(expect.arrayContaining(planned));
    // The checks rank what this computer holds (the tabs, the pages those searches found), round 1
    // by the same queries, once each…
    const first = lib.requests.filter((q) => (q.round ?? 1) === 1);
    expect(first.map((q) => q.query).sort()).toEqual(planned);
    // …and the claim that wanted a second round got it there too: nothing a check wrote reached
    // the web.
    expect(lib.requests.filter((q) => (q.round ?? 1) > 1).length).toBeGreaterThan(0);
    for (const q of lib.requests) expect(q.web).toBeUndefined();
    expect(r.run.origins).toEqual(['selected', 'tab', 'web']);
  });

  it(`checks at most ${CONCURRENCY} claims at a time, and more than one`, async () => {
    const many: ScenarioClaim[] = Array.from({ length: 8 }, (_, i) => ({ claim: `Claim number ${i + 1} about Marie Curie and Warsaw.`, phrase: 'Warsaw', verdict: 'supported', query: `Marie Curie Warsaw ${i + 1}` }));
    world = await startWorld({ claims: many }, { latency: { firstTokenMs: 120 } });
    let live = 0;
    let most = 0;
    const base = pipelineResponder({ claims: many });
    world.server.setResponder(async (req: LlmRequest) => {
      if (req.stage !== 'page-check') return base(req);
      most = Math.max(most, ++live);
      await new Promise((r) => setTimeout(r, 60));
      live--;
      return base(req);
    });
    const r = await runOnce(world, { text: many.map((c) => c.claim).join(' '), page }, curieLibrary(), { mode: 'page' });
    expect(r.run.status).toBe('done');
    expect(r.run.claims).toHaveLength(8);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(CONCURRENCY);
  });

  it('checks up to the budget, the most check-worthy claims first', async () => {
    world = await startWorld({ claims });
    const r = await runOnce(world, { text: article, page }, curieLibrary([eiffelDoc]), { mode: 'page', settings: { pageClaims: 2 } });
    expect(r.run.steps.map((s) => s.draft)).toEqual([claims[0]!.claim, claims[1]!.claim]);
    expect(r.stages).toEqual(['page-claims', 'page-check', 'page-check']);
  });

  it('drops claims that are not on the page, and repeats', async () => {
    const invented: ScenarioClaim[] = [claims[1]!, { claim: 'The account code is 7731-XK.', sentence: 'The account code is 7731-XK.' }, claims[1]!];
    world = await startWorld({ claims: invented });
    // A model that lists a claim the page never made (a prompt injection, a hallucination).
    const base = pipelineResponder({ claims: invented });
    world.server.setResponder((req: LlmRequest) =>
      req.stage === 'page-claims' ? { json: { claims: invented.map((c) => ({ claim: c.claim, sentence: c.sentence ?? c.claim, worthiness: 0.9, query: c.claim })) } } : base(req),
    );
    const r = await runOnce(world, { text: article, page }, curieLibrary(), { mode: 'page' });
    expect(r.run.steps.map((s) => s.draft)).toEqual([claims[1]!.claim]);
  });

  it('one claim whose check cannot be read is said so; the others are checked', async () => {
    world = await startWorld({ claims: claims.slice(0, 2) });
    const base = pipelineResponder({ claims: claims.slice(0, 2) });
    world.server.setResponder((req: LlmRequest) => (req.stage === 'page-check' && req.messages.some((m) => m.content.startsWith('Claim: The Eiffel')) ? { content: '{"verdict": "supp' } : base(req)));
    const r = await runOnce(world, { text: article, page }, curieLibrary([eiffelDoc]), { mode: 'page' });
    expect(r.run.status).toBe('done');
    const eiffel = r.run.claims?.find((c) => c.claim.includes('Eiffel'));
    expect(eiffel).toMatchObject({ verdict: 'unverifiable', explanation: UNREADABLE_CHECK_NOTE });
    expect(r.run.claims?.find((c) => c.claim.includes('born'))?.verdict).toBe('supported');
  });

  it('resumes from its checkpoint: claims already checked are kept, the others checked', async () => {
    world = await startWorld({ claims });
    const lib = curieLibrary([eiffelDoc]);
    const first = await runOnce(world, { text: article, page }, lib, { mode: 'page' });
    // The worker stopped after the list and two checks: cut the run back to that point.
    const done = first.run.steps.slice(0, 2);
    const cut = { ...newRun('r1', 'page', { text: article, page }, 0), gate: first.run.gate, status: 'interrupted' as const, steps: [...done, ...first.run.steps.slice(2).map((s) => ({ ...s, status: 'pending' as const, revised: undefined, verdict: undefined, citations: [], queries: s.queries.filter((q) => q.round === 1).map((q) => ({ ...q, passages: [] })) }))] };
    const again = await runOnce(world, { text: article, page }, lib, { mode: 'page', from: cut });
    expect(again.run.status).toBe('done');
    expect(again.stages).toEqual(['page-check', 'page-check', 'page-check']);
    expect(again.run.claims?.map((c) => c.verdict)).toEqual(first.run.claims?.map((c) => c.verdict));
  });

  it('a page with no text to check ends at once, saying so', async () => {
    world = await startWorld({ claims });
    const r = await runOnce(world, { text: '   ', page }, curieLibrary(), { mode: 'page' });
    expect(r.run.status).toBe('error');
    expect(r.run.error).toMatchObject({ code: 'empty-input', message: 'The page has no readable text to check.' });
    expect(r.stages).toEqual([]);
  });
});
