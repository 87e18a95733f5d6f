/**
 * Search results cannot make Ratify fetch the user's network (SECURITY.md, "Fetched pages").
 * A hostile SearXNG result points at a host on the user's machine or network, or at a public page
 * that redirects there; the run goes through the real pipeline (executeRun, the real library and
 * SearXNG provider, the fake LLM). Every host "resolves" to a recording server (fake-network.ts),
 * so the test sees each request that would have left the machine and whether that page's text
 * reached the model.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLibrary } from '../../../lib/retrieval/library';
import { createNodePageReader } from '../../../lib/retrieval/node-reader';
import { createMemoryPageCache } from '../../../lib/store/page-cache';
import { DEFAULT_SETTINGS, type SearchSettings } from '../../../lib/settings/schema';
import { startFakeSearch, type FakeSearch } from '../../harness/fake-search';
import { startFakeNetwork, secretOf, type FakeNetwork } from '../../harness/fake-network';
import { runOnce, startWorld, type TestWorld } from '../../harness/pipeline-world';

let fs: FakeSearch;
let net: FakeNetwork;
let world: TestWorld;
beforeAll(async () => {
  fs = await startFakeSearch({ corpus: [] });
  net = await startFakeNetwork({ passthrough: [fs.origin] });
  world = await startWorld({ steps: ['Marie Curie won the Nobel Prize.'] });
});
afterAll(async () => {
  await Promise.all([fs.close(), net.close(), world.close()]);
});
beforeEach(() => {
  fs.reset();
  net.reset();
});

function searchSettings(): SearchSettings {
  const s = DEFAULT_SETTINGS.search;
  return { ...s, wikipedia: { ...s.wikipedia, enabled: false }, searxng: { enabled: true, baseURL: fs.urls.searxng }, pagesPerQuery: 5 };
}

const TEXT = 'Marie Curie won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.';
const PUBLIC = 'https://news.example.com/curie';

/** One run whose SearXNG results are `urls` plus a public control page. */
async function runWith(urls: string[], privacy = DEFAULT_SETTINGS.privacy) {
  fs.setCorpus([...urls, PUBLIC].map((url, i) => ({ url, title: `Result ${i}`, text: TEXT })));
  const library = createLibrary({ search: searchSettings(), privacy, pipeline: { passageChars: 400, passagesPerStep: 4 }, reader: createNodePageReader(), cache: createMemoryPageCache(), fetch: net.fetch });
  const before = world.server.chatRequests().length;
  const r = await runOnce(world, { text: 'When did Marie Curie win the Nobel Prize?' }, library);
  // What the model was sent in this run (a string, so a leak is one `includes`).
  const prompts = JSON.stringify(world.server.chatRequests().slice(before).map((q) => q.body));
  return { ...r, prompts, leaked: (host: string) => prompts.includes(secretOf(host)) };
}

/** Every class of host a result may not reach, in the spellings an attacker would use. */
const HOSTILE = [
  ['loopback', 'http://127.0.0.1:8080/admin'],
  ['loopback, another address in 127/8', 'http://127.8.9.10/'],
  ['localhost', 'http://localhost:3000/'],
  ['*.localhost', 'http://app.localhost/'],
  ['IPv6 loopback', 'http://[::1]:8080/'],
  ['decimal IPv4', 'http://2130706433/'],
  ['hex IPv4', 'http://0x7f000001/'],
  ['octal IPv4', 'http://0177.0.0.1/'],
  ['short IPv4', 'http://127.1/'],
  ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data/'],
  ['metadata name (.internal)', 'http://metadata.google.internal/computeMetadata/v1/'],
  ['home router (192.168/16)', 'http://192.168.1.1/'],
  ['private 10/8', 'http://10.0.0.5/wiki'],
  ['private 172.16/12', 'http://172.20.1.1/'],
  ['CGNAT 100.64/10', 'http://100.64.3.4/'],
  ['unspecified 0.0.0.0', 'http://0.0.0.0:8080/'],
  ['unique-local IPv6 fc00::/7', 'http://[fd12:3456::1]/'],
  ['link-local IPv6', 'http://[fe80::1]/'],
  ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]/'],
  ['IPv4-mapped IPv6, private', 'http://[::ffff:c0a8:101]/'],
  ['single-label intranet name', 'http://intranet/'],
  ['.local (mDNS)', 'http://printer.local/'],
  ['.home.arpa', 'http://nas.home.arpa/'],
  ['trailing-dot localhost', 'http://localhost./'],
] as const;

describe('result pages on the user\'s machine or network are never fetched', () => {
  it.each(HOSTILE)('%s: %s', async (_name, url) => {
    const r = await runWith([url]);
    const host = new URL(url).hostname;
    // The control page is fetched (the test can see fetches) …
    expect(net.requests).toContain(PUBLIC);
    // … the hostile one never is, and nothing of it reaches the model.
    expect(net.requests.filter((u) => u !== PUBLIC)).toEqual([]);
    expect(r.leaked(host)).toBe(false);
    // The trace says why.
    const status = r.run.library.find((s) => s.url === new URL(url).href);
    expect(status?.reason).toMatch(/refused address/);
  });

  it('the user can allow private-network pages (an intranet SearXNG), and then they are read', async () => {
    const r = await runWith(['http://192.168.1.1/'], { ...DEFAULT_SETTINGS.privacy, privateNetwork: true });
    expect(net.requests).toContain('http://192.168.1.1/');
    expect(r.leaked('192.168.1.1')).toBe(true);
  });
});

describe('redirects are followed by hand, each hop checked', () => {
  it('a public page redirecting through another public page to a private address: the private hop is never requested', async () => {
    net.route('https://short.example.org/x', { redirect: 'https://cdn.example.net/hop', status: 301 });
    net.route('https://cdn.example.net/hop', { redirect: 'http://192.168.1.1/admin', status: 307 });
    const r = await runWith(['https://short.example.org/x']);
    expect(net.requests).toEqual(expect.arrayContaining(['https://short.example.org/x', 'https://cdn.example.net/hop']));
    expect(net.requests).not.toContain('http://192.168.1.1/admin');
    expect(r.leaked('192.168.1.1')).toBe(false);
    expect(r.run.library.find((s) => s.url === 'https://short.example.org/x')?.reason).toMatch(/redirected to a refused address/);
  });

  it.each([
    ['relative redirect to a decimal loopback', 'http://2130706433/'],
    ['metadata service', 'http://169.254.169.254/latest/meta-data/iam/'],
    ['IPv6 loopback', 'http://[::1]/'],
  ])('public page redirecting to %s', async (_n, target) => {
    net.route('https://news.example.org/r', { redirect: target, status: 302 });
    const r = await runWith(['https://news.example.org/r']);
    expect(net.requests).toContain('https://news.example.org/r');
    expect(net.requests.some((u) => new URL(u).hostname === new URL(target).hostname)).toBe(false);
    expect(r.prompts).not.toContain(secretOf(new URL(target).hostname));
  });

  it('a redirect to an excluded domain is refused on that hop', async () => {
    net.route('https://news.example.org/mail', { redirect: 'https://mail.google.com/mail/u/0/', status: 302 });
    const r = await runWith(['https://news.example.org/mail']);
    expect(net.requests).not.toContain('https://mail.google.com/mail/u/0/');
    expect(r.leaked('mail.google.com')).toBe(false);
    expect(r.run.library.find((s) => s.url === 'https://news.example.org/mail')?.reason).toMatch(/excluded domain/);
  });

  it('a long redirect chain stops after the hop limit; a short public one is read', async () => {
    for (let i = 0; i < 8; i++) net.route(`https://loop.example.org/${i}`, { redirect: `https://loop.example.org/${i + 1}` });
    net.route('https://ok.example.org/a', { redirect: 'https://ok.example.org/b' });
    const r = await runWith(['https://loop.example.org/0', 'https://ok.example.org/a']);
    expect(net.requests.filter((u) => u.startsWith('https://loop.example.org/')).length).toBe(6);
    expect(r.run.library.find((s) => s.url === 'https://loop.example.org/0')?.reason).toMatch(/more than 5 redirects/);
    expect(r.leaked('ok.example.org')).toBe(true);
  });
});
