/** One way to start a run: the page's menu, the shortcuts and the panel send the same request to
 * the one request handler, which starts the same run and makes it the one the panel shows. The
 * worker's wiring runs against WXT's fakeBrowser; what it lacks (menus, commands, the side panel)
 * gets a minimal event, and messages from the panel arrive with the panel's sender. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';
import { panelNoticeItem, focusClaimItem } from '@/lib/browser/panel-state';
import { newRun } from '@/lib/pipeline/run-state';
import type { PageContext, Run, RunInput, RunMode } from '@/lib/core/run';
import { MARK_SHOW } from '@/lib/page-marks/types';
import { createHandlers, type HandlerDeps } from '@/lib/runs/handlers';
import type { RunManager } from '@/lib/runs/run-manager';
import { checkThisPage } from '../sidepanel/use-ask';
import type { Sources } from '../sidepanel/use-sources';
import { answerMessages } from './requests';
import { CHECK_PAGE_MENU_ID, startRunsFromMenusAndShortcuts, VERIFY_MENU_ID } from './start-from-tab';

/** The minimal event the fake browser does not have: listeners, and a way to fire them. */
function fakeEvent<A extends unknown[]>() {
  const listeners: ((...a: A) => unknown)[] = [];
  return { addListener: (f: (...a: A) => unknown) => void listeners.push(f), fire: (...a: A) => listeners.forEach((f) => f(...a)) };
}

const PANEL: Browser.runtime.MessageSender = { id: 'test-extension-id', url: 'chrome-extension://test-extension-id/sidepanel.html' };
const tab = { id: 4, windowId: 1, url: 'https://example.org/a', title: 'A page', index: 0, pinned: false, highlighted: false, active: true, incognito: false, selected: true, discarded: false, autoDiscardable: true, groupId: -1, frozen: false } as Browser.tabs.Tab;
const article: PageContext = { url: 'https://example.org/a', title: 'A page', tabId: 4, text: 'Marie Curie was born in 1867. She won two Nobel Prizes.' };

const saved = { contextMenus: fakeBrowser.contextMenus, commands: fakeBrowser.commands, sidePanel: fakeBrowser.sidePanel, sendMessage: fakeBrowser.runtime.sendMessage };
afterEach(() => {
  Object.assign(fakeBrowser, { contextMenus: saved.contextMenus, commands: saved.commands, sidePanel: saved.sidePanel });
  fakeBrowser.runtime.sendMessage = saved.sendMessage;
});

function worker() {
  const menus = fakeEvent<[Browser.contextMenus.OnClickData, Browser.tabs.Tab | undefined]>();
  const commands = fakeEvent<[string, Browser.tabs.Tab | undefined]>();
  const opened: (number | undefined)[] = [];
  Object.assign(fakeBrowser, {
    contextMenus: { onClicked: menus },
    commands: { onCommand: commands },
    sidePanel: { open: vi.fn(({ tabId }: { tabId?: number }) => Promise.resolve(void opened.push(tabId))) },
  });
  // A message the panel sends reaches the worker's listener as the panel's.
  fakeBrowser.runtime.sendMessage = (msg: unknown) => new Promise((resolve) => void fakeBrowser.runtime.onMessage.trigger(msg, PANEL, resolve));

  const started: { mode: RunMode; input: RunInput }[] = [];
  const shown: (string | null)[] = [];
  const stored = new Map<string, Run>();
  const manager = {
    start: (mode: RunMode, input: RunInput) => {
      started.push({ mode, input });
      const run = newRun(`r${started.length}`, mode, input, 0);
      stored.set(run.id, run);
      return Promise.resolve(run);
    },
  } as unknown as RunManager;
  const deps = {
    manager,
    getRun: (id: string) => Promise.resolve(stored.get(id)),
    setActiveRun: (id: string | null) => Promise.resolve(shown.push(id)),
    capturePage: (tabId: number) => Promise.resolve(tabId === 4 ? article : undefined),
    captureSelection: (tabId: number, fallbackText: string) => Promise.resolve(tabId === 4 ? { text: 'She won two Nobel Prizes.', page: { url: article.url, title: article.title, tabId: 4 } } : { text: fallbackText }),
  } as Partial<HandlerDeps>;
  const handle = createHandlers(deps as HandlerDeps);
  answerMessages(handle, deps.getRun!);
  startRunsFromMenusAndShortcuts(handle);
  return { menus, commands, opened, started, shown, stored };
}

const until = (f: () => boolean) => vi.waitFor(() => expect(f()).toBe(true));

describe('one way to start a run', () => {
  beforeEach(() => fakeBrowser.reset());

  it('Check this page: the page’s menu, the shortcut and the panel start the same run, and the panel shows it', async () => {
    const w = worker();
    w.menus.fire({ menuItemId: CHECK_PAGE_MENU_ID, editable: false, pageUrl: tab.url! }, tab);
    expect(w.opened).toEqual([4]); // the panel opened inside the click, before any await
    w.commands.fire('check-page', tab);
    const sources = { page: { tab: { id: 4, url: tab.url, title: tab.title } } } as unknown as Sources;
    const act = async (f: () => Promise<unknown>) => (await f(), true);
    checkThisPage(sources, act);
    await until(() => w.started.length === 3);
    const expected = { mode: 'page', input: { text: article.text, page: { url: article.url, title: article.title, tabId: 4 } } };
    expect(w.started).toEqual([expected, expected, expected]);
    expect(w.shown).toEqual(['r1', 'r2', 'r3']);
  });

  it('Verify with RAT: the menu and the shortcut read the selection in the tab, through the same request', async () => {
    const w = worker();
    w.menus.fire({ menuItemId: VERIFY_MENU_ID, editable: false, pageUrl: tab.url!, selectionText: 'She won two Nobel Prizes.' }, tab);
    w.commands.fire('verify-selection', tab);
    await until(() => w.started.length === 2);
    const expected = { mode: 'verify', input: { text: 'She won two Nobel Prizes.', page: { url: article.url, title: article.title, tabId: 4 } } };
    expect(w.started).toEqual([expected, expected]);
    expect(w.shown).toEqual(['r1', 'r2']);
    // Without a tab to read, the menu's own text is checked.
    w.menus.fire({ menuItemId: VERIFY_MENU_ID, editable: false, pageUrl: '', selectionText: 'A claim.' }, undefined);
    await until(() => w.started.length === 3);
    expect(w.started[2]).toEqual({ mode: 'verify', input: { text: 'A claim.' } });
  });

  it('a page that may not be read starts nothing: the menu says so in the panel, the panel where it asked', async () => {
    const w = worker();
    const other = { ...tab, id: 9 };
    w.menus.fire({ menuItemId: CHECK_PAGE_MENU_ID, editable: false, pageUrl: '' }, other);
    await vi.waitFor(async () => expect(await panelNoticeItem.getValue()).toMatchObject({ code: 'empty-input', message: expect.stringMatching(/does not read this page/) as string }));
    let failed: unknown;
    const act = async (f: () => Promise<unknown>) => f().then(() => true, (e: unknown) => ((failed = e), false));
    checkThisPage({ page: { tab: { id: 9 } } } as unknown as Sources, act);
    await until(() => failed !== undefined);
    expect(String(failed)).toMatch(/does not read this page/);
    expect(w.started).toEqual([]);
  });

  it('a mark’s "Show in Ratify" asks the same handler to show its run, and only a run of that tab', async () => {
    const w = worker();
    const check = newRun('c1', 'page', { text: 'A.', page: { url: article.url, title: article.title, tabId: 4 } }, 0);
    w.stored.set(check.id, check);
    const fromTab = { id: 'test-extension-id', url: article.url, tab };
    const fromMark = (msg: unknown, sender: Browser.runtime.MessageSender) => fakeBrowser.runtime.onMessage.trigger(msg, sender, () => {}).then(() => undefined);
    await fromMark({ type: MARK_SHOW, runId: 'c1', sentence: 'Marie Curie was born in 1867.' }, fromTab);
    await until(() => w.shown.length === 1);
    expect(w.shown).toEqual(['c1']);
    expect(w.opened).toEqual([4]);
    await vi.waitFor(async () => expect(await focusClaimItem.getValue()).toMatchObject({ runId: 'c1', sentence: 'Marie Curie was born in 1867.' }));
    // Another tab's mark cannot open this run.
    await fromMark({ type: MARK_SHOW, runId: 'c1', sentence: 'x' }, { ...fromTab, tab: { ...tab, id: 5 } });
    await new Promise((r) => setTimeout(r, 10));
    expect(w.shown).toEqual(['c1']);
  });
});
