import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient } from '../llm/client';
import { DEFAULT_SETTINGS } from '../settings/schema';
import { RatifyDb } from '../store/db';
import { createDexieEmbeddingStore } from '../store/embedding-cache';
import { startFakeLlm, type FakeLlm } from '../../test/harness/fake-llm.ts';
import { chooseEmbeddingModel } from './embedding-model';
import { clearAnalysisCache, createLibrary, type LibraryOptions } from './library';
import { createMemoryTabs } from '../../test/harness/memory-tabs';
import { typedQuery } from '../../test/harness/text.ts';

const TABS = [
  { title: 'Norway in 2023', text: 'Norway saw its GDP rise by two percent, driven by oil and gas exports. Unemployment stayed under four percent.' },
  { title: 'Hospital food', text: 'Hospital menus changed a lot this year. Patients now choose their meals on a tablet the evening before.' },
  { title: 'Germ theory', text: 'Louis Pasteur showed that fermentation is caused by living organisms. His work founded microbiology in the nineteenth century.' },
].map((t, i) => ({ id: i + 1, url: `https://site${i}.example/${i}`, title: t.title, page: { url: `https://site${i}.example/${i}`, hash: `h${i}`, title: t.title, text: t.text, headings: [] } }));

let server: FakeLlm;
beforeAll(async () => {
  server = await startFakeLlm();
});
afterAll(() => server.close());

const embedCalls = () => server.requests.filter((r) => r.path === '/v1/embeddings').length;

function library(extra: Partial<LibraryOptions> = {}) {
  const llm = createLlmClient({ preset: 'custom', baseURL: server.baseURL, apiKey: 'k', model: 'fake-llm', embeddingModel: 'fake-embedding', timeoutMs: 5000 }, { backoffMs: 10 });
  return createLibrary({
    search: DEFAULT_SETTINGS.search,
    privacy: DEFAULT_SETTINGS.privacy,
    pipeline: { passageChars: 600, passagesPerStep: 2 },
    tabs: createMemoryTabs(TABS),
    providers: [],
    embed: (texts, signal) => llm.embed(texts, signal),
    embeddingModel: 'fake-embedding',
    ...extra,
  });
}

describe('dense ranking with the endpoint embeddings', () => {
  // No content word in common with the Norway tab ("GDP" is WordNet's synonym of "gross domestic
  // product" in the fake server's embeddings).
  const question = 'How much did the gross domestic product grow?';

  it('finds a paraphrase that words alone miss, by fusing dense with lexical ranking', async () => {
    clearAnalysisCache();
    const lexical = await library({ embed: undefined }).retrieve({ query: question, web: typedQuery(question), k: 2 });
    const hybrid = await library().retrieve({ query: question, web: typedQuery(question), k: 2 });
    expect(lexical.passages.map((p) => p.title)).not.toContain('Norway in 2023');
    expect(hybrid.passages[0]?.title).toBe('Norway in 2023');
    expect(hybrid.errors).toEqual([]);
  });

  it('embeds once: a second run over the same tabs makes no embeddings call', async () => {
    const store = createDexieEmbeddingStore(new RatifyDb(`emb-${Math.random()}`));
    const before = embedCalls();
    const first = await library({ embeddingStore: store }).retrieve({ query: question, web: typedQuery(question), k: 2 });
    expect(embedCalls()).toBeGreaterThan(before);
    const afterFirst = embedCalls();
    // A new library, as a new run builds one: vectors come from IndexedDB.
    const second = await library({ embeddingStore: store }).retrieve({ query: question, web: typedQuery(question), k: 2 });
    expect(embedCalls()).toBe(afterFirst);
    expect(second.passages.map((p) => p.id)).toEqual(first.passages.map((p) => p.id));
  });

  it('a failing or slow embeddings endpoint degrades to lexical ranking, with a note', async () => {
    const failing = library({ embed: async () => Promise.reject(new Error('503 Service Unavailable')) });
    const r = await failing.retrieve({ query: 'Pasteur fermentation', web: typedQuery('Pasteur fermentation'), k: 1 });
    expect(r.passages[0]?.title).toBe('Germ theory');
    expect(r.errors).toEqual([{ provider: 'embeddings', message: '503 Service Unavailable; ranked by words only' }]);
    const slow = library({ embed: () => new Promise(() => undefined), denseTimeoutMs: 50 });
    const s = await slow.retrieve({ query: 'Pasteur fermentation', web: typedQuery('Pasteur fermentation'), k: 1 });
    expect(s.passages[0]?.title).toBe('Germ theory');
    expect(s.errors[0]?.provider).toBe('embeddings');
    expect(s.errors[0]?.message).toMatch(/ranked by words only/);
  });
});

describe('which embeddings model', () => {
  it('uses the one set, none when turned off, text-embedding-3-small at OpenAI, else one the server lists', () => {
    expect(chooseEmbeddingModel('my-embed', 'http://localhost:11434/v1', [])).toEqual({ model: 'my-embed', how: 'set' });
    expect(chooseEmbeddingModel('none', 'https://api.openai.com/v1', [])).toEqual({ how: 'off' });
    expect(chooseEmbeddingModel('', 'https://api.openai.com/v1', [])).toEqual({ model: 'text-embedding-3-small', how: 'openai' });
    // Ollama's /v1/models lists local models with their tags; LM Studio prefixes text-embedding-.
    expect(chooseEmbeddingModel('', 'http://localhost:11434/v1', ['qwen2.5:7b', 'llama3.2:latest', 'nomic-embed-text:latest'])).toEqual({ model: 'nomic-embed-text:latest', how: 'listed' });
    expect(chooseEmbeddingModel('', 'http://localhost:1234/v1', ['qwen2.5-7b-instruct', 'text-embedding-nomic-embed-text-v1.5'])).toEqual({ model: 'text-embedding-nomic-embed-text-v1.5', how: 'listed' });
    expect(chooseEmbeddingModel('', 'http://localhost:11434/v1', ['qwen2.5:7b', 'bge-m3:latest'])).toEqual({ model: 'bge-m3:latest', how: 'listed' });
    expect(chooseEmbeddingModel('', 'http://localhost:11434/v1', ['qwen2.5:7b'])).toEqual({ how: 'none-found' });
  });
});
