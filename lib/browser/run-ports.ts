/** The side panel's one subscription, over a runtime Port named RUNS_PORT: the worker's run feed
 * (lib/runs/run-feed.ts), only to the extension's own pages. */
import { browser, type Browser } from 'wxt/browser';
import { storage } from 'wxt/utils/storage';
import { RUNS_PORT } from '../runs/messages';
import type { ActiveRunStorage, RunFeed } from '../runs/run-feed';
import { fromExtensionPage } from './messaging';

/** The run the side panel shows, kept in storage.local so a worker the browser restarted still
 * knows it. Read and written by the run feed alone (its one writer, in the worker). */
const activeRunItem = storage.defineItem<string | null>('local:activeRunId', { fallback: null });

export const activeRunStorage: ActiveRunStorage = {
  get: () => activeRunItem.getValue(),
  set: (id) => activeRunItem.setValue(id),
};

/** Handles one port; exported for tests (serveRunPorts wires it to runtime.onConnect). */
export async function handleRunPort(port: Browser.runtime.Port, feed: Pick<RunFeed, 'connect'>): Promise<void> {
  // Runs (their text, sources and other tabs' passages) go only to the extension's own pages.
  if (port.name !== RUNS_PORT || !fromExtensionPage(port.sender)) return;
  let gone = false;
  let stop = () => {};
  port.onDisconnect.addListener(() => {
    gone = true;
    stop();
  });
  stop = await feed.connect((u) => port.postMessage(u));
  if (gone) stop();
}

export function serveRunPorts(feed: Pick<RunFeed, 'connect'>): void {
  browser.runtime.onConnect.addListener((port) => {
    // A port from a page that closed meanwhile just goes unanswered.
    handleRunPort(port, feed).catch((err: unknown) => console.error('run port failed', err));
  });
}
