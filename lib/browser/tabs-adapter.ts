/** TabsAdapter over browser.tabs and browser.scripting: lists the tabs in scope and reads each
 * with the reader script (entrypoints/reader.ts) injected into its top frame. */
import { browser } from 'wxt/browser';
import { TabShowsPdf } from '../retrieval/pdf-tabs';
import type { TabInfo, TabRead, TabsAdapter } from '../retrieval/tabs';

const READER_FILE = '/reader.js';
const READER_GLOBAL = '__ratifyReadTab'; // set by entrypoints/reader.ts

function isTabRead(v: unknown): v is TabRead {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as { kind?: unknown; page?: { text?: unknown } };
  return r.kind === 'unchanged' || (r.kind === 'page' && typeof r.page?.text === 'string');
}

export function createBrowserTabsAdapter(): TabsAdapter {
  return {
    extensionOrigin: browser.runtime.getURL('/').replace(/\/$/, ''),
    async list(scope) {
      // From the worker, "current window" is the last focused one: the window the user acts in.
      const tabs = await browser.tabs.query(scope === 'window' ? { lastFocusedWindow: true } : {});
      return tabs
        .filter((t) => t.id !== undefined && t.id !== browser.tabs.TAB_ID_NONE)
        .map((t): TabInfo => ({
          id: t.id as number,
          windowId: t.windowId,
          url: t.url ?? t.pendingUrl ?? '',
          title: t.title ?? '',
          incognito: t.incognito,
          discarded: t.discarded,
          ...((t as { lastAccessed?: number }).lastAccessed !== undefined ? { lastAccessed: (t as { lastAccessed?: number }).lastAccessed } : {}),
        }));
    },
    async read(tab, { knownHash, signal }) {
      const target = { tabId: tab.id };
      await browser.scripting.executeScript({ target, files: [READER_FILE] });
      if (signal.aborted) throw new Error('cancelled');
      const [res] = await browser.scripting.executeScript({
        target,
        // Runs in the tab: only its arguments and the global the reader script installed exist.
        func: (global: string, hash: string | null) => {
          const fn = (globalThis as Record<string, unknown>)[global];
          return typeof fn === 'function' ? (fn as (h: string | null) => unknown)(hash) : null;
        },
        args: [READER_GLOBAL, knownHash ?? null],
      });
      const value: unknown = res?.result;
      if ((value as { kind?: unknown } | null)?.kind === 'pdf') throw new TabShowsPdf();
      if (!isTabRead(value)) throw new Error('the page could not be read');
      return value;
    },
  };
}
