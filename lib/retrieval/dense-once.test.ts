/** Each text is embedded once, however many retrievals want it at the same time (issue 25, item 4):
 * the background call after reading the tabs and the steps' retrievals in parallel, against the
 * fake server's /v1/embeddings through the one LLM client, with the model found at the endpoint
 * and vectors kept in IndexedDB, as the extension runs it. */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient } from '../llm/client';
import { DEFAULT_SETTINGS } from '../settings/schema';
import { RatifyDb } from '../store/db';
import { createDexieEmbeddingStore } from '../store/embedding-cache';
import { startFakeLlm, type FakeLlm } from '../../test/harness/fake-llm.ts';
import { DenseIndex } from './dense';
import { createLibrary } from './library';
import { createMemoryTabs } from '../../test/harness/memory-tabs';

const TOPICS = ['glaciers', 'volcanoes', 'tides', 'comets', 'orchids', 'beetles', 'bridges', 'tunnels', 'violins', 'lighthouses', 'salt marshes', 'printing presses'];
/** Twelve tabs of several passages each (passages of about 300 characters). */
const TABS = TOPICS.map((topic, i) => {
  const text = Array.from({ length: 6 }, (_, j) => `Paragraph ${j + 1} about ${topic}: ${topic} were studied in survey ${i * 10 + j}, which measured their size, their age and how they change over the seasons of the year. The ${topic} of the northern sites differed from those of the south.`).join('\n\n');
  const url = `https://site${i}.example/${topic.replace(/ /g, '-')}`;
  return { id: i + 1, url, title: `All about ${topic}`, page: { url, hash: `h${i}`, title: `All about ${topic}`, text, headings: [] } };
});

let server: FakeLlm;
beforeAll(async () => {
  server = await startFakeLlm();
});
afterAll(() => server.close());

/** Every text sent to the embeddings endpoint so far, one entry per time it was sent. */
const sentTexts = (): string[] => server.requests.filter((r) => r.path === '/v1/embeddings').flatMap((r) => (r.body as { input: string[] }).input);

function library(db: RatifyDb) {
  const llm = createLlmClient({ preset: 'custom', baseURL: server.baseURL, apiKey: 'k', model: 'fake-llm', embeddingModel: 'fake-embedding', timeoutMs: 10_000 }, { backoffMs: 10 });
  return createLibrary({
    search: DEFAULT_SETTINGS.search,
    privacy: DEFAULT_SETTINGS.privacy,
    pipeline: { passageChars: 300, passagesPerStep: 4 },
    tabs: createMemoryTabs(TABS),
    providers: [],
    embed: (texts, signal) => llm.embed(texts, signal),
    // Found at the endpoint, as when the user names no model: an await before anything is known.
    embeddingModel: async () => {
      await new Promise((r) => setTimeout(r, 5));
      return 'fake-embedding';
    },
    embeddingStore: createDexieEmbeddingStore(db),
  });
}

describe('each text is embedded once', () => {
  it('the background call after reading tabs and six parallel retrievals send every passage and query once', async () => {
    server.reset();
    const lib = library(new RatifyDb(`once-${Math.random()}`));
    const queries = ['glacier survey size', 'comets seasons', 'violins of the south', 'orchids age', 'tunnels northern sites', 'how tides change'];
    // prepare() starts the background embedding of every passage; the steps retrieve at once.
    const [, ...results] = await Promise.all([lib.prepare(), ...queries.map((query) => lib.retrieve({ query, k: 4 }))]);
    for (const r of results) expect(r.errors).toEqual([]);
    const sent = sentTexts();
    const counts = new Map<string, number>();
    for (const t of sent) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect([...counts.entries()].filter(([, n]) => n > 1)).toEqual([]);
    // Every passage of the library was embedded (the library is small enough for whole-library
    // dense ranking), and the queries.
    expect(lib.size).toBeGreaterThan(50);
    expect(counts.size).toBeGreaterThanOrEqual(lib.size + queries.length);
    expect(sent.length).toBe(counts.size);

    // More steps later, with queries already seen and new ones: only the new queries are sent.
    const before = sent.length;
    await Promise.all(['comets seasons', 'bridges of the north', 'bridges of the north'].map((query) => lib.retrieve({ query, k: 4 })));
    expect(sentTexts().slice(before)).toEqual(['bridges of the north']);
  });

  it('a new run over the same tabs takes every vector from the store and sends only its queries', async () => {
    server.reset();
    const db = new RatifyDb(`once-${Math.random()}`);
    await library(db).retrieve({ query: 'volcanoes', k: 4 });
    const firstRun = sentTexts().length;
    expect(firstRun).toBeGreaterThan(50);
    const lib = library(db);
    await Promise.all([lib.prepare(), lib.retrieve({ query: 'volcanoes', k: 4 }), lib.retrieve({ query: 'beetles', k: 4 })]);
    expect(sentTexts().slice(firstRun)).toEqual(['beetles']);
  });
});

describe('DenseIndex: concurrent callers share one request per text', () => {
  /** An embed function that counts what it is sent and fails when told to. */
  function counting() {
    const sent: string[] = [];
    let failNext = 0;
    const embed = async (texts: string[]) => {
      await new Promise((r) => setTimeout(r, 10));
      if (failNext > 0) {
        failNext--;
        throw new Error('503 Service Unavailable');
      }
      sent.push(...texts);
      return texts.map((t) => [t.length, 1]);
    };
    return { sent, embed, failOnce: () => (failNext = 1) };
  }

  it('overlapping concurrent ensures send each text once, in batches', async () => {
    const c = counting();
    const dense = new DenseIndex({ embed: c.embed, model: () => Promise.resolve('m'), batchSize: 3 });
    const texts = Array.from({ length: 10 }, (_, i) => `text ${i}`);
    await Promise.all([dense.ensure(texts), dense.ensure(texts.slice(2, 7)), dense.ensure([...texts].reverse()), dense.ensure(['text 4', 'text 11'])]);
    expect([...c.sent].sort()).toEqual([...texts, 'text 11'].sort());
    expect(texts.every((t) => dense.has(t))).toBe(true);
    expect(dense.calls).toBe(5); // 10 texts in batches of 3, then "text 11"
  });

  it('a failed batch fails its callers and is fetched again by the next one; finished batches are kept', async () => {
    const c = counting();
    const dense = new DenseIndex({ embed: c.embed, model: 'm', batchSize: 2 });
    c.failOnce();
    await expect(dense.ensure(['a', 'b', 'c', 'd'])).rejects.toThrow('503');
    expect(c.sent).toEqual(['c', 'd']);
    await dense.ensure(['a', 'b', 'c', 'd']);
    expect(c.sent).toEqual(['c', 'd', 'a', 'b']);
  });

  it("a caller waiting on another's request fetches the texts itself when that request fails", async () => {
    const c = counting();
    const dense = new DenseIndex({ embed: c.embed, model: 'm' });
    c.failOnce();
    const [first, second] = await Promise.allSettled([dense.ensure(['x', 'y']), dense.ensure(['y', 'z'])]);
    expect(first.status).toBe('rejected');
    expect(second.status).toBe('fulfilled');
    expect(dense.has('y') && dense.has('z')).toBe(true);
    expect([...c.sent].sort()).toEqual(['y', 'z']);
  });

  it('vectors come from the store before the endpoint, and what is embedded is stored', async () => {
    const c = counting();
    const stored = new Map<string, Float32Array>();
    const store = {
      get: (keys: string[]) => Promise.resolve(keys.map((k) => stored.get(k))),
      put: (entries: { key: string; vector: Float32Array }[]) => {
        for (const e of entries) stored.set(e.key, e.vector);
        return Promise.resolve();
      },
    };
    await new DenseIndex({ embed: c.embed, model: 'm', store }).ensure(['p', 'q']);
    const again = new DenseIndex({ embed: c.embed, model: 'm', store });
    await Promise.all([again.ensure(['p', 'q', 'r']), again.ensure(['q', 'r'])]);
    expect(c.sent).toEqual(['p', 'q', 'r']);
    expect(again.vector('p')).toBeDefined();
    // Another model's vectors never mix in.
    await new DenseIndex({ embed: c.embed, model: 'other', store }).ensure(['p']);
    expect(c.sent).toEqual(['p', 'q', 'r', 'p']);
  });
});
