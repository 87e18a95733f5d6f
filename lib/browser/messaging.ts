import { browser, type Browser } from 'wxt/browser';
import type { Reply, RequestMap, RequestType } from '../runs/messages';
import { RUNS_PORT } from '../runs/messages';
import type { PanelUpdate } from '../runs/run-feed';
import type { RunError } from '../core/run';

export class RequestFailed extends Error {
  constructor(public readonly error: RunError) {
    super(error.message);
  }
}

/** Send a typed request to the worker; rejects with RequestFailed carrying a RunError. */
export async function request<K extends RequestType>(type: K, req: RequestMap[K]['req']): Promise<RequestMap[K]['res']> {
  const reply = await browser.runtime.sendMessage<unknown, Reply<RequestMap[K]['res']> | undefined>({ type, ...req });
  if (!reply) throw new RequestFailed({ code: 'unknown', message: 'The extension\'s worker did not answer. Reload the extension.' });
  if (!reply.ok) throw new RequestFailed(reply.error);
  return reply.value;
}

/** Follow the worker's runs (the panel's one subscription, lib/runs/panel-runs.ts); returns a
 * function that stops following. */
export function followRuns(onUpdate: (u: PanelUpdate) => void, onClose: () => void): () => void {
  const port = browser.runtime.connect({ name: RUNS_PORT });
  port.onMessage.addListener((m) => onUpdate(m as PanelUpdate));
  port.onDisconnect.addListener(() => onClose());
  return () => port.disconnect();
}

/** True only for the extension's own pages (panel, options, offscreen document, worker). Content
 * scripts run inside web pages with the extension's id, so the id alone does not tell them apart;
 * their sender URL is the page's. Scripts Ratify injects into tabs never send messages, so any
 * message from a tab's document is a page trying to drive the worker: it is not answered. */
export function fromExtensionPage(sender: Browser.runtime.MessageSender | undefined): boolean {
  if (!sender || sender.id !== browser.runtime.id || !sender.url) return false;
  const origin = browser.runtime.getURL('/');
  return sender.url.startsWith(origin);
}
