/** The open tabs as the side panel sees them: the window it belongs to, the page the user is on
 * there, every tab a question could read, and a signal when any of that changes. */
import { browser, type Browser } from 'wxt/browser';
import type { TabInfo } from '../retrieval/tabs';

export interface PanelTab extends TabInfo {
  active?: boolean;
  lastAccessed?: number;
}

function toPanelTab(t: Browser.tabs.Tab): PanelTab | undefined {
  if (t.id === undefined || t.id === browser.tabs.TAB_ID_NONE) return undefined;
  return {
    id: t.id,
    windowId: t.windowId,
    url: t.url ?? t.pendingUrl ?? '',
    title: t.title ?? '',
    incognito: t.incognito,
    discarded: t.discarded,
    active: t.active,
    lastAccessed: (t as { lastAccessed?: number }).lastAccessed,
  };
}

/** The window the panel belongs to (the side panel's window, or the tab's when opened in a tab). */
export async function panelWindowId(): Promise<number | undefined> {
  try {
    return (await browser.windows.getCurrent()).id;
  } catch {
    return undefined; // no window API (never in Chrome's panel): tabs of all windows are listed
  }
}

export async function listTabs(): Promise<PanelTab[]> {
  return (await browser.tabs.query({})).map(toPanelTab).filter((t): t is PanelTab => t !== undefined);
}

const extensionOrigin = (): string => browser.runtime.getURL('/').replace(/\/$/, '');

/** The page the user is on: the active tab of the panel's window; when that is one of Ratify's
 * own pages (the panel opened as a tab), the tab of that window the user was on last. */
export function pageTabOf(tabs: PanelTab[], windowId: number | undefined): PanelTab | undefined {
  const own = extensionOrigin();
  const inWindow = tabs.filter((t) => windowId === undefined || t.windowId === windowId);
  const active = inWindow.find((t) => t.active);
  if (active && !active.url.startsWith(own)) return active;
  return inWindow.filter((t) => !t.url.startsWith(own)).sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
}

/** Calls `cb` whenever a tab opens, closes, moves, loads or is switched to. */
export function watchTabs(cb: () => void): () => void {
  const events = [browser.tabs.onActivated, browser.tabs.onCreated, browser.tabs.onRemoved, browser.tabs.onAttached, browser.tabs.onDetached, browser.tabs.onReplaced] as { addListener(f: () => void): void; removeListener(f: () => void): void }[];
  const onUpdated = (_id: number, change: Browser.tabs.OnUpdatedInfo) => {
    if (change.url !== undefined || change.title !== undefined || change.status !== undefined || change.discarded !== undefined) cb();
  };
  for (const e of events) e.addListener(cb);
  browser.tabs.onUpdated.addListener(onUpdated);
  browser.windows?.onFocusChanged.addListener(cb);
  return () => {
    for (const e of events) e.removeListener(cb);
    browser.tabs.onUpdated.removeListener(onUpdated);
    browser.windows?.onFocusChanged.removeListener(cb);
  };
}

export { extensionOrigin };
