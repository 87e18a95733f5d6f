/** The side panel follows a run over a runtime Port named `run:<id>`: a snapshot first, then each
 * event. A run that is not live answers with its stored state. */
import { browser, type Browser } from 'wxt/browser';
import { RUN_PORT_PREFIX } from '../runs/messages';
import type { Run } from '../core/run';
import type { RunManager } from '../runs/run-manager';
import { keepAliveWhile } from './keep-alive';
import { fromExtensionPage } from './messaging';

export interface RunPortDeps {
  manager: Pick<RunManager, 'subscribe' | 'isActive'>;
  getRun(id: string): Promise<Run | undefined>;
  /** Resolves once runs left by a previous worker have been resumed or marked: a panel that
   * reconnects to a restarted worker must not get a stale snapshot of a run about to resume. */
  ready: Promise<unknown>;
}

/** Handles one port; exported for tests (serveRunPorts wires it to runtime.onConnect). */
export async function handleRunPort(port: Browser.runtime.Port, deps: RunPortDeps): Promise<void> {
  // Runs (their text, sources and other tabs' passages) go only to the extension's own pages.
  if (!port.name.startsWith(RUN_PORT_PREFIX) || !fromExtensionPage(port.sender)) return;
  const id = port.name.slice(RUN_PORT_PREFIX.length);
  await deps.ready;
  const unsubscribe = deps.manager.subscribe(id, (u) => port.postMessage(u));
  if (unsubscribe) {
    port.onDisconnect.addListener(unsubscribe);
    keepAliveWhile(() => deps.manager.isActive(id));
    return;
  }
  const run = await deps.getRun(id);
  if (run) port.postMessage({ type: 'snapshot', run });
}

export function serveRunPorts(deps: RunPortDeps): void {
  browser.runtime.onConnect.addListener((port) => {
    // A port from a page that closed meanwhile just goes unanswered.
    handleRunPort(port, deps).catch((err: unknown) => console.error('run port failed', err));
  });
}
