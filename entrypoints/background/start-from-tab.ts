/** Verify with RAT and Check this page from the page's menu, the toolbar button's menu or the
 * shortcut: the panel opens at once, and the run is started with the very request the panel sends
 * (lib/runs/start-requests.ts) through the one request handler. What stops a run from starting is
 * shown in the panel. */
import { browser, type Browser } from 'wxt/browser';
import { openPanel } from '@/lib/browser/side-panel';
import { panelNoticeItem } from '@/lib/browser/panel-state';
import type { Reply, Request } from '@/lib/runs/messages';
import { checkPageRequest, verifySelectionRequest, type StartRequest } from '@/lib/runs/start-requests';

export const VERIFY_MENU_ID = 'ratify-verify';
export const CHECK_PAGE_MENU_ID = 'ratify-check-page';

type Handle = (req: Request) => Promise<Reply<unknown>>;

function startFromTab(handle: Handle, tab: Browser.tabs.Tab | undefined, req: StartRequest): void {
  // sidePanel.open must run before any await: it needs the user gesture.
  void openPanel(tab?.id, tab?.windowId);
  void handle({ type: 'run/start', ...req }).then(async (reply) => {
    if (!reply.ok) await panelNoticeItem.setValue({ code: reply.error.code, message: reply.error.message, at: Date.now() });
  });
}

export function startRunsFromMenusAndShortcuts(handle: Handle): void {
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === VERIFY_MENU_ID) startFromTab(handle, tab, verifySelectionRequest(tab?.id, info.selectionText ?? ''));
    if (info.menuItemId === CHECK_PAGE_MENU_ID) startFromTab(handle, tab, checkPageRequest(tab?.id));
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === 'verify-selection') startFromTab(handle, tab, verifySelectionRequest(tab?.id, ''));
    if (command === 'check-page') startFromTab(handle, tab, checkPageRequest(tab?.id));
  });
}
