/**
 * API calls never follow a redirect to another origin (SECURITY.md, "Keys and prompts stay with
 * their host"). Each configured endpoint — the model (chat, embeddings, model list) and every
 * search provider — is a local server answering 302/307 to another local port, where a recording
 * server logs whatever arrives. The key, the prompt (with tab text in it) and the query must not
 * arrive there, and the user gets an error that names the redirect.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmClient, listModels } from '../../../lib/llm/client';
import { LlmError } from '../../../lib/llm/errors';
import { apiFetch } from '../../../lib/net/api-fetch';
import { executeRun } from '../../../lib/pipeline/run';
import { newRun } from '../../../lib/pipeline/run-state';
import { createMemoryLibrary } from '../../harness/memory-library';
import { createLibrary } from '../../../lib/retrieval/library';
import { DEFAULT_SETTINGS, type SearchSettings } from '../../../lib/settings/schema';
import { listen, readBody, type Listening } from '../../harness/http-util';
import { llmSettings, pipelineSettings } from '../../harness/pipeline-world';
import { typedQuery } from '../../harness/text.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let recorder: Listening;
let redirector: Listening;
const seen: Seen[] = [];
/** status the redirector answers with, per test */
let status = 307;
/** Requests the redirector has answered. */
let redirected = 0;

beforeAll(async () => {
  recorder = await listen(async (req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: await readBody(req) });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  redirector = await listen((req, res) => {
    redirected++;
    res.writeHead(status, { location: `${recorder.origin}${req.url ?? '/'}` });
    res.end();
  });
});
afterAll(async () => {
  await Promise.all([recorder.close(), redirector.close()]);
});
beforeEach(() => {
  seen.length = 0;
});

const KEY = 'sk-secret-key-0123456789';
const TAB_SECRET = 'account recovery code 739-114';

describe('the model endpoint', () => {
  it.each([307, 308, 302, 301])('answering %i: the prompt and the key stay, the run ends with an error naming the redirect', async (s) => {
    status = s;
    // The client's own retries are on, as users have them: a refused redirect is not retried.
    const llm = createLlmClient({ ...llmSettings(`${redirector.origin}/v1`), apiKey: KEY });
    const library = createMemoryLibrary([{ url: 'https://bank.example/inbox', title: 'Inbox', text: `Your ${TAB_SECRET}.` }]);
    const before = redirected;
    const run = await executeRun({ run: newRun('r', 'ask', { text: 'What is my account recovery code?' }, 0), llm, library, settings: pipelineSettings(), emit: () => undefined });
    expect(seen).toEqual([]);
    expect(redirected - before).toBe(1);
    expect(run.status).toBe('error');
    expect(run.error?.code).toBe('redirected');
    expect(run.error?.message).toContain(`${recorder.origin}/v1/chat/completions`);
    expect(run.error?.message).toMatch(/redirect/);
  });

  it('embeddings and the model list refuse it too', async () => {
    status = 307;
    const settings = { ...llmSettings(`${redirector.origin}/v1`), apiKey: KEY, embeddingModel: 'e' };
    const llm = createLlmClient(settings, { maxRetries: 0 });
    const embed = await llm.embed([`text from a tab: ${TAB_SECRET}`]).catch((e: unknown) => e);
    expect(embed).toBeInstanceOf(LlmError);
    expect((embed as LlmError).message).toContain(recorder.origin);
    status = 302;
    const models = await listModels(settings).catch((e: unknown) => e);
    expect((models as LlmError).message).toContain(recorder.origin);
    expect(seen).toEqual([]);
  });
});

describe('search providers', () => {
  function searchSettings(id: 'wikipedia' | 'searxng' | 'brave' | 'tavily'): SearchSettings {
    const s = DEFAULT_SETTINGS.search;
    const base = `${redirector.origin}/${id}`;
    return {
      ...s,
      wikipedia: { enabled: id === 'wikipedia', baseURL: base },
      searxng: { enabled: id === 'searxng', baseURL: base },
      brave: { enabled: id === 'brave', baseURL: base, apiKey: 'brave-key-secret' },
      tavily: { enabled: id === 'tavily', baseURL: base, apiKey: 'tvly-secret' },
      timeoutMs: 3000,
    };
  }

  it.each(['wikipedia', 'searxng', 'brave', 'tavily'] as const)('%s answering a redirect: neither the key nor the query goes to the other host; the trace names the redirect', async (id) => {
    status = id === 'tavily' ? 307 : 302;
    const library = createLibrary({ search: searchSettings(id), privacy: DEFAULT_SETTINGS.privacy, pipeline: { passageChars: 400, passagesPerStep: 4 } });
    const r = await library.retrieve({ query: 'Marie Curie Nobel Prize', web: typedQuery('Marie Curie Nobel Prize'), k: 4 });
    expect(seen).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.message).toContain(`answered with a redirect (HTTP ${status}) to ${recorder.origin}/${id}`);
  });
});

describe('apiFetch', () => {
  it('follows a redirect on the same origin (a trailing slash, a moved path), as fetch would', async () => {
    const server = await listen((req, res) => {
      if (req.url === '/old') {
        res.writeHead(308, { location: '/new' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`at ${req.url} with ${req.method}`);
    });
    try {
      const res = await apiFetch()(`${server.origin}/old`, { method: 'POST', body: 'x' });
      expect(await res.text()).toBe('at /new with POST');
    } finally {
      await server.close();
    }
  });
});
