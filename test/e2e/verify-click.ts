/** "Verify with RAT" clicked on a selection: the native context menu cannot be clicked headless,
 * so the click is dispatched to the worker's real `contextMenus.onClicked` listener, with the tab
 * open at `pageUrl` as the tab clicked in. */
import type { Worker } from '@playwright/test';

export async function clickVerify(worker: Worker, pageUrl: string, selectionText: string): Promise<void> {
  await worker.evaluate(
    async ({ pageUrl, selectionText }) => {
      const [tab] = await chrome.tabs.query({ url: pageUrl });
      // `dispatch` exists on Chrome's event objects but is not in the typings.
      (chrome.contextMenus.onClicked as unknown as { dispatch(i: unknown, t: unknown): void }).dispatch({ menuItemId: 'ratify-verify', selectionText, pageUrl, editable: false }, tab);
    },
    { pageUrl, selectionText },
  );
}
