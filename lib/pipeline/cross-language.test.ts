/** An English question answered from a French tab: the draft prompt lists the library's tabs
 * (titles, sites, languages), the model writes its query in French as well, and retrieval fuses
 * both queries. Through the real pipeline, LLM client, library and Readability. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient } from '../llm/client';
import { createLibrary } from '../retrieval/library';
import { createMemoryTabs } from '../../test/harness/memory-tabs';
import { createNodePageReader } from '../retrieval/node-reader';
import type { Library } from '../retrieval/types';
import { DEFAULT_SETTINGS } from '../settings/schema';
import { startFakeLlm, type FakeLlm, type LlmRequest } from '../../test/harness/fake-llm.ts';
import { dataBlocks, pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { llmSettings, pipelineSettings } from '../../test/harness/pipeline-world.ts';
import { executeRun } from './run';
import { newRun } from './run-state';

const site = (name: string) => readFileSync(new URL(`../../test/fixtures/site/articles/${name}.html`, import.meta.url), 'utf8');
const QUESTION = 'In which year was the glass pyramid at the main entrance inaugurated?';

async function tabs() {
  const reader = createNodePageReader();
  const pages = await Promise.all(
    ['louvre', 'eiffel-tower', 'mount-fuji'].map((n) => reader.read(site(n), `http://127.0.0.1:8765/articles/${n}.html`)),
  );
  return createMemoryTabs(pages.map((page, i) => ({ id: i + 1, url: page.url, title: page.title, page })));
}

/** A model that writes its query in the language of a source the catalogue lists, as the draft
 * prompt asks; without a catalogue it writes it in the question's language only. */
function draftFromCatalogue(req: LlmRequest) {
  const catalogue = dataBlocks(req.lastUser).find((b) => b.attrs.kind === 'catalogue')?.text ?? '';
  const french = /language: fr/.test(catalogue) ? ' || pyramide de verre inaugurée' : '';
  return { json: { steps: [{ step: 'The glass pyramid was inaugurated in 1989.', query: `glass pyramid entrance inaugurated${french}` }] } };
}

let server: FakeLlm | undefined;
afterEach(async () => server?.close());

async function ask(library: Library) {
  // Asked again, the model stays in the question's language (only the catalogue tells it otherwise).
  const scripted = pipelineResponder({ facts: [{ phrase: 'inaugurée en 1989' }], retryQuery: () => 'year the glass pyramid was inaugurated', finalAnswer: 'It was inaugurated in 1989.' });
  server = await startFakeLlm({ responder: (req) => (req.stage === 'draft' ? draftFromCatalogue(req) : scripted(req)) });
  const llm = createLlmClient(llmSettings(server.baseURL), { backoffMs: 10 });
  const run = await executeRun({ run: newRun('x1', 'ask', { text: QUESTION }, 0), llm, library, settings: pipelineSettings({ betaThreshold: 1 }), emit: () => {} });
  const draftPrompt = server.chatRequests().find((r) => r.stage === 'draft');
  return { run, draftPrompt: JSON.stringify(draftPrompt?.body ?? {}) };
}

const libraryOver = async () =>
  // The fixture pages stand for tabs served from this machine: private-network tabs allowed.
  createLibrary({ search: DEFAULT_SETTINGS.search, privacy: { ...DEFAULT_SETTINGS.privacy, excludedDomains: [], privateNetwork: true }, pipeline: DEFAULT_SETTINGS.pipeline, tabs: await tabs(), providers: [], allowFiles: true });

describe('cross-language retrieval', () => {
  it('answers an English question from a French tab through a model-written French query', async () => {
    const { run, draftPrompt } = await ask(await libraryOver());
    // The prompt lists the tabs with their languages, never their text.
    expect(draftPrompt).toContain('Musée du Louvre');
    expect(draftPrompt).toContain('language: fr');
    expect(draftPrompt).not.toContain('Ieoh Ming Pei');
    expect(run.status).toBe('done');
    expect(run.steps[0]?.queries[0]?.query).toContain('pyramide de verre');
    expect(run.sources.map((s) => s.url)).toEqual(['http://127.0.0.1:8765/articles/louvre.html']);
    expect(run.sources[0]?.quote).toContain('inaugurée en 1989');
  });

  it('without the catalogue the English query alone does not find the French passage', async () => {
    const full = await libraryOver();
    const noCatalogue: Library = { prepare: full.prepare.bind(full), retrieve: full.retrieve.bind(full) };
    const { run } = await ask(noCatalogue);
    const first = run.steps[0]?.queries.find((q) => q.round === 1);
    expect(first?.query).not.toContain('||');
    // The model's English query finds no French passage. (A later round may still reach the page
    // through words the seed passage shares with it, "Paris" and "France": that is not the query.)
    expect(first?.passages.map((p) => p.url)).not.toContain('http://127.0.0.1:8765/articles/louvre.html');
    expect(first?.passages.length).toBeGreaterThan(0);
  });
});
