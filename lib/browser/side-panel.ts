import { browser } from 'wxt/browser';

/** Open Ratify's panel for a tab. Must be called synchronously inside the user gesture (menu
 * click, command, action click): Chrome rejects sidePanel.open after an await. */
export function openPanel(tabId: number | undefined, windowId?: number): Promise<void> {
  if (browser.sidePanel && tabId !== undefined) {
    return browser.sidePanel.open({ tabId }).catch(() => (windowId !== undefined ? browser.sidePanel.open({ windowId }) : undefined));
  }
  // Firefox: the panel is a sidebar.
  const sidebar = (browser as unknown as { sidebarAction?: { open(): Promise<void> } }).sidebarAction;
  // Firefox refuses open() outside a user gesture; the sidebar is then one click away.
  return sidebar ? sidebar.open().catch(() => undefined) : Promise.resolve();
}

type FirefoxSidebar = { toggle(): Promise<void> };
type FirefoxAction = { onClicked: { addListener(cb: () => void): void } };

/** Clicking the toolbar button opens the panel (Chrome's side panel, Firefox's sidebar). */
export function openPanelOnActionClick(): void {
  if (browser.sidePanel) {
    // Older Chromium lacks it; the action's onClicked fallback below is not needed there.
    void browser.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
    return;
  }
  const ff = browser as unknown as { sidebarAction?: FirefoxSidebar; browserAction?: FirefoxAction };
  ff.browserAction?.onClicked.addListener(() => void ff.sidebarAction?.toggle());
}
