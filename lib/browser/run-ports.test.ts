import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';
import { newRun } from '../pipeline/run-state';
import type { RunUpdate } from '../runs/run-manager';
import { keepAliveWhile, KEEP_ALIVE_MS } from './keep-alive';
import { handleRunPort } from './run-ports';

afterEach(() => {
  vi.useRealTimers();
});

/** The panel's port by default: sent from the extension's own page. */
const PANEL: Browser.runtime.MessageSender = { id: 'test-extension-id', url: 'chrome-extension://test-extension-id/sidepanel.html' };

function fakePort(name: string, sender: Browser.runtime.MessageSender = PANEL) {
  const posted: unknown[] = [];
  const onDisconnect: (() => void)[] = [];
  const port = {
    name,
    sender,
    postMessage: (m: unknown) => posted.push(m),
    onDisconnect: { addListener: (f: () => void) => onDisconnect.push(f) },
  } as unknown as Browser.runtime.Port;
  return { port, posted, disconnect: () => onDisconnect.forEach((f) => f()) };
}

describe('keep-alive', () => {
  it('calls an extension API every 20 s while the run is live, then stops', async () => {
    vi.useFakeTimers();
    const ping = vi.fn(() => Promise.resolve({ os: 'linux' }));
    fakeBrowser.runtime.getPlatformInfo = ping as unknown as typeof fakeBrowser.runtime.getPlatformInfo;
    let live = true;
    keepAliveWhile(() => live);
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS * 3);
    expect(ping).toHaveBeenCalledTimes(3);
    live = false;
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS * 3);
    expect(ping).toHaveBeenCalledTimes(3);
  });
});

describe('run ports', () => {
  const run = newRun('r1', 'ask', { text: 'q' }, 0);

  it('a live run: waits for recovery, then sends the snapshot and every event until the panel goes', async () => {
    fakeBrowser.runtime.getPlatformInfo = vi.fn(() => Promise.resolve({})) as unknown as typeof fakeBrowser.runtime.getPlatformInfo;
    let release!: () => void;
    const ready = new Promise<void>((r) => (release = r));
    const listeners = new Set<(u: RunUpdate) => void>();
    const manager = {
      isActive: () => true,
      subscribe: (_id: string, l: (u: RunUpdate) => void) => {
        l({ type: 'snapshot', run });
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const p = fakePort('run:r1');
    const done = handleRunPort(p.port, { manager, getRun: () => Promise.resolve(undefined), ready });
    await Promise.resolve();
    expect(p.posted).toEqual([]); // nothing before the previous worker's runs are sorted out
    release();
    await done;
    for (const l of listeners) l({ type: 'event', runId: 'r1', event: { type: 'answer-delta', text: 'Hi' } });
    expect(p.posted).toEqual([{ type: 'snapshot', run }, { type: 'event', runId: 'r1', event: { type: 'answer-delta', text: 'Hi' } }]);
    p.disconnect();
    expect(listeners.size).toBe(0);
  });

  it('a finished run: answers with the stored run', async () => {
    const manager = { isActive: () => false, subscribe: () => undefined };
    const p = fakePort('run:r1');
    await handleRunPort(p.port, { manager, getRun: (id) => Promise.resolve(id === 'r1' ? { ...run, status: 'done' } : undefined), ready: Promise.resolve() });
    expect(p.posted).toEqual([{ type: 'snapshot', run: { ...run, status: 'done' } }]);
  });

  it('ignores ports that are not run ports', async () => {
    const subscribe = vi.fn();
    const p = fakePort('something-else');
    await handleRunPort(p.port, { manager: { isActive: () => false, subscribe }, getRun: () => Promise.resolve(run), ready: Promise.resolve() });
    expect(subscribe).not.toHaveBeenCalled();
    expect(p.posted).toEqual([]);
  });

  it('never serves a run to a content script in a tab, nor to another extension', async () => {
    const getRun = vi.fn(() => Promise.resolve({ ...run, status: 'done' as const }));
    const subscribe = vi.fn();
    const senders: Browser.runtime.MessageSender[] = [
      // A script in a web page carries the extension's id (it runs in its isolated world) but the page's URL.
      { id: 'test-extension-id', url: 'https://evil.example/page.html', tab: { id: 4 } as Browser.tabs.Tab },
      { id: 'other-extension', url: 'chrome-extension://other-extension/x.html' },
      { id: 'test-extension-id' },
    ];
    for (const sender of senders) {
      const p = fakePort('run:r1', sender);
      await handleRunPort(p.port, { manager: { isActive: () => true, subscribe }, getRun, ready: Promise.resolve() });
      expect(p.posted).toEqual([]);
    }
    expect(subscribe).not.toHaveBeenCalled();
    expect(getRun).not.toHaveBeenCalled();
  });
});
