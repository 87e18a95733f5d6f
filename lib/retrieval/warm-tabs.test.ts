import { describe, expect, it } from 'vitest';
import { createMemoryPageCache } from '../store/page-cache';
import { createMemoryTabs, type MemoryTab } from '../../test/harness/memory-tabs';
import { WarmTabs, type WarmRecord } from './warm-tabs';
import type { TabRules } from './read-policy';

const tab = (id: number, url: string, text: string): MemoryTab => ({ id, url, title: `Tab ${id}`, page: { url, hash: `h${id}-${text.length}`, title: `Tab ${id}`, text, headings: [] } });
const rules: TabRules = { excludedDomains: ['bank.example'], allowIncognito: false };
const signal = new AbortController().signal;

describe('open tabs read ahead of questions', () => {
  it('reads tabs as they load, one at a time, by the same rules; a question then reads none of them again', async () => {
    const tabs = [tab(1, 'https://a.example/x', 'Alpha text.'), tab(2, 'https://b.example/y', 'Beta text.'), tab(3, 'https://online.bank.example/', 'Balance 1,200.')];
    const inner = createMemoryTabs(tabs);
    const warm = new WarmTabs({ inner, cache: createMemoryPageCache(), rules: () => Promise.resolve(rules), settleMs: 5 });
    await warm.warmAll();
    await warm.idle();
    expect(inner.reads.sort()).toEqual([1, 2]); // the excluded site is never read
    const r = await warm.adapter.read(tabs[0]!, { signal });
    expect(r).toMatchObject({ kind: 'page', page: { text: 'Alpha text.' } });
    expect(inner.reads).toHaveLength(2);
    expect(warm.hits).toBe(1);
  });

  it('a tab that changed is read again; one closed is forgotten; with reading ahead off nothing is read ahead', async () => {
    const tabs = [tab(1, 'https://a.example/x', 'Alpha text.')];
    const inner = createMemoryTabs(tabs);
    let on = true;
    const warm = new WarmTabs({ inner, cache: createMemoryPageCache(), rules: () => Promise.resolve(on ? rules : undefined), settleMs: 5 });
    await warm.warmAll();
    await warm.idle();
    tabs[0] = tab(1, 'https://a.example/x', 'Alpha text, edited.');
    warm.changed(1);
    await warm.idle();
    expect(await warm.adapter.read(tabs[0], { signal })).toMatchObject({ page: { text: 'Alpha text, edited.' } });
    warm.removed(1);
    expect(warm.size).toBe(0);
    on = false;
    inner.reads.length = 0;
    warm.changed(1);
    await warm.idle();
    expect(inner.reads).toEqual([]);
  });

  it('a tab passed over while the rules kept it out is read once they let it in (access granted, a setting changed)', async () => {
    const tabs = [tab(1, 'https://a.example/x', 'Alpha text.')];
    const inner = createMemoryTabs(tabs);
    let granted = false;
    const warm = new WarmTabs({ inner, cache: createMemoryPageCache(), rules: () => Promise.resolve(granted ? rules : undefined), settleMs: 5 });
    await warm.warmAll();
    await warm.idle();
    expect(inner.reads).toEqual([]);
    granted = true;
    await warm.warmAll(); // what the worker does when access is granted or the settings change
    await warm.idle();
    expect(inner.reads).toEqual([1]);
    expect(warm.size).toBe(1);
  });

  it('survives a stopped worker: the record is trusted and the text comes back from the page cache', async () => {
    const tabs = [tab(1, 'https://a.example/x', 'Alpha text.')];
    const inner = createMemoryTabs(tabs);
    const cache = createMemoryPageCache();
    let saved: WarmRecord[] = [];
    const persist = { load: () => Promise.resolve(saved), save: (r: WarmRecord[]) => Promise.resolve(void (saved = r)) };
    const first = new WarmTabs({ inner, cache, rules: () => Promise.resolve(rules), persist, settleMs: 5 });
    await first.warmAll();
    await first.idle();
    expect(saved.map((r) => r.tabId)).toEqual([1]);
    inner.reads.length = 0;
    const restarted = new WarmTabs({ inner, cache, rules: () => Promise.resolve(rules), persist, settleMs: 5 });
    expect(await restarted.adapter.read(tabs[0]!, { signal })).toMatchObject({ kind: 'page', page: { text: 'Alpha text.' } });
    expect(inner.reads).toEqual([]);
    // A tab that navigated elsewhere is not given the old text.
    expect(await restarted.adapter.read({ ...tabs[0]!, url: 'https://a.example/other' }, { signal })).toMatchObject({ kind: 'page' });
    expect(inner.reads).toEqual([1]);
  });
});
