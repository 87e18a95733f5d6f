/** The worker's messages: requests from the extension's own pages go to the one request handler;
 * a page mark's "Show in Ratify" (Ratify's own marks script) opens the panel on its claim. */
import { browser, type Browser } from 'wxt/browser';
import { fromExtensionPage } from '@/lib/browser/messaging';
import { focusClaimItem } from '@/lib/browser/panel-state';
import { openPanel } from '@/lib/browser/side-panel';
import { isMarkShowMessage, type MarkShowMessage } from '@/lib/page-marks/types';
import { isRequest, type Reply, type Request } from '@/lib/runs/messages';
import type { Run } from '@/lib/core/run';

type Handle = (req: Request) => Promise<Reply<unknown>>;

/** Only a run and the mark's sentence, and only a run of that very tab is opened. */
function showClaim(handle: Handle, getRun: (id: string) => Promise<Run | undefined>, msg: MarkShowMessage, tab: Browser.tabs.Tab & { id: number }): void {
  // sidePanel.open must run before any await: it needs the user's click.
  void openPanel(tab.id, tab.windowId);
  void getRun(msg.runId).then(async (run) => {
    if (!run || run.input.page?.tabId !== tab.id) return;
    await handle({ type: 'run/show', id: run.id });
    await focusClaimItem.setValue({ runId: run.id, sentence: msg.sentence, at: Date.now() });
  });
}

export function answerMessages(handle: Handle, getRun: (id: string) => Promise<Run | undefined>): void {
  browser.runtime.onMessage.addListener((msg: unknown, sender, sendResponse: (r: unknown) => void) => {
    // A mark's message comes from Ratify's own marks script, in the tab's isolated world.
    const tab = sender.tab;
    if (isMarkShowMessage(msg) && sender.id === browser.runtime.id && tab?.id !== undefined && !fromExtensionPage(sender)) {
      showClaim(handle, getRun, msg, { ...tab, id: tab.id });
      return false;
    }
    // Only the extension's own pages may drive runs; a content script in a tab gets no answer.
    if (!fromExtensionPage(sender) || !isRequest(msg)) return false;
    void handle(msg).then(sendResponse);
    return true; // answer asynchronously
  });
}
