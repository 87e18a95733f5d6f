import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from './fixture-site.ts';
import { startHarness } from './index.ts';
import OpenAI from 'openai';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(() => site.close());

describe('fixture site', () => {
  it('serves every corpus page as UTF-8 HTML whose text contains the corpus text', async () => {
    expect(site.docs.length).toBeGreaterThanOrEqual(7);
    for (const doc of site.docs) {
      const res = await fetch(site.url(doc.path));
      expect(res.status, doc.path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      // The first sentence of the extracted text appears in the page (entity-free pages).
      const first = doc.text.split('\n')[0]!.slice(0, 20);
      if (!doc.path.startsWith('/real/')) expect(html).toContain(first);
    }
  });

  it('has checkable facts in several languages', () => {
    const text = (path: string): string => site.docs.find((d) => d.path === path)?.text ?? '';
    expect(text('/articles/marie-curie.html')).toMatch(/born in Warsaw.*1867/s);
    expect(text('/articles/marie-curie.html')).toContain('In late 1891 she moved to Paris');
    expect(text('/articles/marie-curie.html')).toContain('In 1911 she received the Nobel Prize in Chemistry');
    expect(text('/articles/eiffel-tower.html')).toContain('330 metres');
    expect(text('/articles/tu-youyou.html')).toContain('2015年10月，屠呦呦与威廉·坎贝尔、大村智共同获得诺贝尔生理学或医学奖');
    expect(text('/articles/mount-fuji.html')).toContain('3776メートル');
    expect(text('/articles/louvre.html')).toContain('10 août 1793');
    expect(text('/real/qq-deepmind.html')).toContain('DeepMind');
    expect(text('/real/wikipedia-mozilla.html')).toContain('Mozilla');
  });

  it('serves the real pages inert (no scripts) and the form pages with password and card fields', async () => {
    const real = await fetch(site.url('/real/qq-deepmind.html'));
    expect(real.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(await (await fetch(site.url('/forms/login.html'))).text()).toContain('type="password"');
    expect(await (await fetch(site.url('/forms/checkout.html'))).text()).toContain('autocomplete="cc-number"');
    expect((await fetch(site.url('/demo.html'))).status).toBe(200);
    expect((await fetch(site.url('/'))).status).toBe(200);
  });

  it('has /status/<code>, /slow/<ms>/<path>, 404 and no path traversal', async () => {
    expect((await fetch(site.url('/status/500'))).status).toBe(500);
    const t0 = Date.now();
    const slow = await fetch(site.url('/slow/200/articles/louvre.html'));
    expect(slow.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect((await fetch(site.url('/nope.html'))).status).toBe(404);
    expect((await fetch(`${site.origin}/..%2f..%2fpackage.json`)).status).not.toBe(200);
  });
});

describe('startHarness', () => {
  it('starts all three, wires search to the site and the LLM to its key, and closes', async () => {
    const h = await startHarness();
    try {
      const patch = h.settingsPatch();
      expect(patch.llm?.baseURL).toBe(h.llm.baseURL);
      const client = new OpenAI({ baseURL: patch.llm?.baseURL, apiKey: patch.llm?.apiKey, maxRetries: 0 });
      const res = await client.chat.completions.create({ model: 'fake-llm', messages: [{ role: 'user', content: 'ping' }] });
      expect(res.choices[0]!.message.content).toBe('Echo: ping');
      const wiki = await fetch(`${patch.search?.wikipedia?.baseURL}/w/api.php?action=query&list=search&srsearch=Eiffel&format=json`).then((r) => r.json() as Promise<{ query: { search: { title: string }[] } }>);
      expect(wiki.query.search[0]!.title).toBe('Eiffel Tower');
      expect(h.describe()).toContain(h.site.origin);
    } finally {
      await h.close();
    }
  });
});
