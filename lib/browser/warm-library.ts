/** Reading open tabs ahead of questions (lib/retrieval/warm-tabs.ts), wired to the browser: tabs
 * are read as they finish loading, with the rules and access in force at that moment, and the
 * record of what was read survives the worker being stopped (storage.session, this browser
 * session only). */
import { browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import type { Settings } from '../settings/schema';
import { withPdfTabs } from '../retrieval/pdf-tabs';
import { WarmTabs, type WarmRecord } from '../retrieval/warm-tabs';
import { db } from '../store/db';
import { createDexiePageCache } from '../store/page-cache';
import { createBrowserPageReader } from './offscreen-reader';
import { createBrowserTabsAdapter } from './tabs-adapter';
import { watchHostAccess } from './host-access';
import { watchSettings } from './settings-store';

const recordsItem = storage.defineItem<WarmRecord[]>('session:warmTabs', { fallback: [] });

export function startReadingAhead(o: { settings(): Promise<Settings>; hostAccess(): Promise<boolean> }): WarmTabs {
  const inner = withPdfTabs(createBrowserTabsAdapter(), { fetch: (input, init) => fetch(input, init), reader: createBrowserPageReader() });
  const extensionOrigin = browser.runtime.getURL('/').replace(/\/$/, '');
  const warm = new WarmTabs({
    inner,
    // Kept as long as any page text: the cache's own expiry (the retention setting) holds.
    cache: createDexiePageCache(db()),
    rules: async () => {
      const { privacy } = await o.settings();
      if (!privacy.readAhead || !(await o.hostAccess())) return undefined;
      return { excludedDomains: privacy.excludedDomains, allowIncognito: privacy.allowIncognito, privateNetwork: privacy.privateNetwork, extensionOrigin };
    },
    persist: { load: () => recordsItem.getValue(), save: (r) => recordsItem.setValue(r) },
  });
  browser.tabs.onUpdated.addListener((tabId, info) => {
    if (info.status === 'complete' || info.url !== undefined || info.discarded !== undefined) warm.changed(tabId);
  });
  browser.tabs.onRemoved.addListener((tabId) => warm.removed(tabId));
  const warmAll = () => void warm.warmAll().catch((e: unknown) => console.debug('Ratify: reading tabs ahead did not start', e));
  warmAll();
  // Tabs passed over while the rules kept them out (no access yet, private addresses, reading ahead
  // off) are read once the rules let them in; access taken back forgets what was read.
  watchHostAccess((granted) => (granted ? warmAll() : warm.clear()));
  watchSettings(() => warmAll());
  return warm;
}
