/** The worker's view of the tabs, over WXT's fakeBrowser: which tabs a run may read and what it
 * knows of each before reading it. */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBrowserTabsAdapter } from './tabs-adapter';

describe('tabs adapter', () => {
  it('lists every open tab with its address, and knows the extension’s own origin', async () => {
    await fakeBrowser.tabs.create({ url: 'https://example.org/curie', windowId: 1 });
    await fakeBrowser.tabs.create({ url: 'https://example.org/eiffel', windowId: 2 });
    const tabs = createBrowserTabsAdapter();
    expect(tabs.extensionOrigin).toBe(fakeBrowser.runtime.getURL('/').replace(/\/$/, ''));
    const all = await tabs.list('all');
    // (The fake opens one blank tab of its own; tabs.create takes no title.)
    expect(all.map((t) => t.url)).toEqual(expect.arrayContaining(['https://example.org/curie', 'https://example.org/eiffel']));
    expect(all.every((t) => typeof t.id === 'number')).toBe(true);
  });
});
