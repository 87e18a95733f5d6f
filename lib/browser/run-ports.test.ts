import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';
import { newRun } from '../pipeline/run-state';
import type { RunUpdate } from '../runs/run-manager';
import { createRunFeed, type RunFeedDeps } from '../runs/run-feed';
import { memoryActiveRun } from '../../test/harness/panel-follower.ts';
import { RUNS_PORT } from '../runs/messages';
import { keepAliveWhile, KEEP_ALIVE_MS } from './keep-alive';
import { activeRunStorage, handleRunPort } from './run-ports';

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

describe('the panel’s port', () => {
  const run = newRun('r1', 'ask', { text: 'q' }, 0);

  /** A worker whose manager has `live` runs; `tell` sends an update to its watchers. */
  function worker(live: typeof run[], o: Partial<RunFeedDeps> = {}) {
    const watchers = new Set<(u: RunUpdate) => void>();
    const manager = { isActive: (id: string) => live.some((r) => r.id === id), liveRuns: () => [...live], watch: (l: (u: RunUpdate) => void) => (watchers.add(l), () => watchers.delete(l)) };
    const feed = createRunFeed({ manager, getRun: () => Promise.resolve(undefined), activeRun: memoryActiveRun(), ready: Promise.resolve(), ...o });
    return { feed, tell: (u: RunUpdate) => watchers.forEach((l) => l(u)) };
  }

  it('waits for recovery, then sends the snapshot and every update until the panel goes', async () => {
    let release!: () => void;
    const ready = new Promise<void>((r) => (release = r));
    const { feed, tell } = worker([run], { ready });
    const p = fakePort(RUNS_PORT);
    const done = handleRunPort(p.port, feed);
    await Promise.resolve();
    expect(p.posted).toEqual([]); // nothing before the previous worker's runs are sorted out
    release();
    await done;
    tell({ type: 'event', runId: 'r1', event: { type: 'answer-delta', text: 'Hi' } });
    expect(p.posted).toEqual([
      { type: 'snapshot', activeRunId: null, version: 0, runs: [run] },
      { type: 'event', runId: 'r1', event: { type: 'answer-delta', text: 'Hi' } },
    ]);
    p.disconnect();
    tell({ type: 'event', runId: 'r1', event: { type: 'answer-delta', text: ' there' } });
    expect(p.posted).toHaveLength(2);
  });

  it('a finished run the panel shows comes with the snapshot, as stored', async () => {
    const finished = { ...run, status: 'done' as const };
    const { feed } = worker([], { getRun: (id) => Promise.resolve(id === 'r1' ? finished : undefined), activeRun: memoryActiveRun('r1') });
    const p = fakePort(RUNS_PORT);
    await handleRunPort(p.port, feed);
    expect(p.posted).toEqual([{ type: 'snapshot', activeRunId: 'r1', version: 0, runs: [finished] }]);
  });

  it('the run shown is kept in storage.local, for the next worker', async () => {
    const { feed } = worker([], { activeRun: activeRunStorage });
    await feed.show('r7');
    const next = worker([], { activeRun: activeRunStorage });
    const p = fakePort(RUNS_PORT);
    await handleRunPort(p.port, next.feed);
    expect(p.posted).toEqual([{ type: 'snapshot', activeRunId: 'r7', version: 0, runs: [] }]);
  });

  it('ignores ports that are not the panel’s', async () => {
    const connect = vi.fn();
    const p = fakePort('run:r1');
    await handleRunPort(p.port, { connect });
    expect(connect).not.toHaveBeenCalled();
    expect(p.posted).toEqual([]);
  });

  it('never serves runs to a content script in a tab, nor to another extension', async () => {
    const connect = vi.fn();
    const senders: Browser.runtime.MessageSender[] = [
      // A script in a web page carries the extension's id (it runs in its isolated world) but the page's URL.
      { id: 'test-extension-id', url: 'https://evil.example/page.html', tab: { id: 4 } as Browser.tabs.Tab },
      { id: 'other-extension', url: 'chrome-extension://other-extension/x.html' },
      { id: 'test-extension-id' },
    ];
    for (const sender of senders) {
      const p = fakePort(RUNS_PORT, sender);
      await handleRunPort(p.port, { connect });
      expect(p.posted).toEqual([]);
    }
    expect(connect).not.toHaveBeenCalled();
  });
});
