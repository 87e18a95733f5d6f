import { describe, expect, it } from 'vitest';
import { createMemoryPageCache } from '../store/page-cache';
import { createMemoryTabs, type MemoryTab } from '../../test/harness/memory-tabs';
import { isExcludedHost, readTabs, skipReason, type TabRules } from './tabs';

const rules: TabRules = { excludedDomains: ['mail.google.com', 'chase.com'], allowIncognito: false, extensionOrigin: 'chrome-extension://abc' };
const tab = (id: number, url: string, extra: Partial<MemoryTab> = {}): MemoryTab => ({
  id,
  url,
  title: `Tab ${id}`,
  page: { url, hash: `h${id}`, title: `Tab ${id}`, text: `Readable text of tab ${id}.`, headings: [] },
  ...extra,
});

describe('which tabs are read', () => {
  it('skips browser pages, the extension, incognito, excluded domains, discarded tabs and the selection source', () => {
    const why = (url: string, extra: Partial<MemoryTab> = {}, r: Partial<TabRules> = {}) => skipReason(tab(1, url, extra), { ...rules, ...r });
    expect(why('https://example.com/a')).toBeUndefined();
    expect(why('chrome://settings')).toBe('browser page');
    expect(why('about:blank')).toBe('browser page');
    expect(why('edge://flags')).toBe('browser page');
    expect(why('view-source:https://example.com')).toBe('browser page');
    expect(why('https://chromewebstore.google.com/detail/x')).toBe('browser page');
    expect(why('chrome-extension://abc/sidepanel.html')).toBe('extension page');
    expect(why('moz-extension://other/page.html')).toBe('extension page');
    expect(why('file:///home/me/notes.html')).toBe('local file');
    expect(why('file:///home/me/notes.html', {}, { allowFiles: true })).toBeUndefined();
    expect(why('https://example.com', { incognito: true })).toBe('incognito');
    expect(why('https://example.com', { incognito: true }, { allowIncognito: true })).toBeUndefined();
    expect(why('https://mail.google.com/mail/u/0')).toBe('excluded domain');
    expect(why('https://secure.chase.com/login')).toBe('excluded domain');
    expect(why('https://notchase.com/')).toBeUndefined();
    expect(why('https://example.com', { discarded: true })).toBe('discarded tab');
    expect(why('https://news.example/story#top', {}, { originUrl: 'https://news.example/story' })).toBe('selection source');
    expect(skipReason(tab(7, 'https://x.example'), { ...rules, originTabId: 7 })).toBe('selection source');
    expect(why('not a web address')).toBe('no readable URL');
    expect(why('http://192.168.1.20/')).toBe('private network');
    expect(why('http://192.168.1.20/', {}, { privateNetwork: true })).toBeUndefined();
    // The first rule that applies gives the reason.
    expect(why('https://mail.google.com/', { incognito: true, discarded: true })).toBe('incognito');
    expect(why('chrome-extension://abc/x.html', { incognito: true })).toBe('extension page');
  });

  it('matches excluded domains written with schemes, wildcards or paths', () => {
    expect(isExcludedHost('app.bank.example', ['*.bank.example'])).toBe(true);
    expect(isExcludedHost('bank.example', ['https://bank.example/login'])).toBe(true);
    expect(isExcludedHost('BANK.example', ['bank.example'])).toBe(true);
    expect(isExcludedHost('mybank.example', ['bank.example'])).toBe(false);
  });
});

describe('reading tabs', () => {
  it('reports a status per tab: read, skipped with the reason, failed with the reason', async () => {
    const tabs = [
      tab(1, 'https://a.example/'),
      tab(2, 'chrome://newtab'),
      tab(3, 'https://b.example/', { error: 'Cannot access contents of the page' }),
      tab(4, 'https://a.example/#again'),
      tab(5, 'https://empty.example/', { page: { url: 'https://empty.example/', hash: 'e', title: 'Empty', text: '  ', headings: [] } }),
    ];
    const adapter = createMemoryTabs(tabs);
    const r = await readTabs(tabs, adapter, rules);
    expect(r.pages.map((p) => p.tab.id)).toEqual([1]);
    expect(r.statuses.map((s) => [s.tabId, s.status, s.reason])).toEqual([
      [1, 'read', undefined],
      [2, 'skipped', 'browser page'],
      [3, 'failed', 'Cannot access contents of the page'],
      [4, 'skipped', 'same page as tab 1'],
      [5, 'skipped', 'no readable text'],
    ]);
  });

  it('gives up on a slow tab after the time-out without holding up the others', async () => {
    const tabs = [tab(1, 'https://slow.example/', { delayMs: 2000 }), tab(2, 'https://fast.example/')];
    const t0 = Date.now();
    const r = await readTabs(tabs, createMemoryTabs(tabs), rules, { timeoutMs: 100 });
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(r.statuses[0]).toMatchObject({ tabId: 1, status: 'failed', reason: 'time-out after 100 ms' });
    expect(r.statuses[1]).toMatchObject({ tabId: 2, status: 'read' });
  });

  it('reads at most `concurrency` tabs at once', async () => {
    const tabs = Array.from({ length: 8 }, (_, i) => tab(i + 1, `https://t${i}.example/`, { delayMs: 20 }));
    const adapter = createMemoryTabs(tabs);
    let inFlight = 0;
    let peak = 0;
    const read = adapter.read.bind(adapter);
    adapter.read = async (t, o) => {
      peak = Math.max(peak, ++inFlight);
      try {
        return await read(t, o);
      } finally {
        inFlight--;
      }
    };
    await readTabs(tabs, adapter, rules, { concurrency: 3 });
    expect(peak).toBe(3);
  });

  it('does not extract an unchanged tab again, and does when its content changed', async () => {
    const cache = createMemoryPageCache();
    const tabs = [tab(1, 'https://a.example/')];
    const adapter = createMemoryTabs(tabs);
    const first = await readTabs(tabs, adapter, rules, { cache });
    expect(first.statuses[0]!.status).toBe('read');
    const second = await readTabs(tabs, adapter, rules, { cache });
    expect(second.statuses[0]!.status).toBe('cached');
    expect(second.pages[0]!.page.text).toBe('Readable text of tab 1.');
    expect(adapter.reads).toEqual([1]);
    tabs[0]!.page = { url: 'https://a.example/', hash: 'changed', title: 'Tab 1', text: 'New text.', headings: [] };
    const third = await readTabs(tabs, adapter, rules, { cache });
    expect(third.statuses[0]!.status).toBe('read');
    expect(third.pages[0]!.page.text).toBe('New text.');
    expect((await cache.get('https://a.example/'))?.hash).toBe('changed');
  });
});
