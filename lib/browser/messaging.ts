import { browser } from 'wxt/browser';
import type { Reply, RequestMap, RequestType } from '../messages';
import { RUN_PORT_PREFIX } from '../messages';
import type { RunUpdate } from '../runs/run-manager';
import type { RunError } from '../pipeline/types';

export class RequestFailed extends Error {
  constructor(public readonly error: RunError) {
    super(error.message);
  }
}

/** Send a typed request to the worker; rejects with RequestFailed carrying a RunError. */
export async function request<K extends RequestType>(type: K, req: RequestMap[K]['req']): Promise<RequestMap[K]['res']> {
  const reply = (await browser.runtime.sendMessage({ type, ...req })) as Reply<RequestMap[K]['res']> | undefined;
  if (!reply) throw new RequestFailed({ code: 'unknown', message: 'The extension\'s worker did not answer. Reload the extension.' });
  if (!reply.ok) throw new RequestFailed(reply.error);
  return reply.value;
}

/** Follow a run's live updates; returns a function that stops following. */
export function followRun(id: string, onUpdate: (u: RunUpdate) => void, onClose?: () => void): () => void {
  const port = browser.runtime.connect({ name: RUN_PORT_PREFIX + id });
  port.onMessage.addListener((m) => onUpdate(m as RunUpdate));
  port.onDisconnect.addListener(() => onClose?.());
  return () => port.disconnect();
}
