/**
 * The extension service worker's JS heap, over the DevTools protocol.
 *
 * What was verified on Chromium 156 (Debian) with Playwright 1.65: `performance.memory` does not
 * exist in a service worker; `context.newCDPSession()` takes only pages and frames; the worker
 * target has no Performance domain. What works: the persistent context's browser-level CDP session
 * (`context.browser().newBrowserCDPSession()`), `Target.attachToTarget` on the `service_worker`
 * target in non-flattened mode (Playwright's CDPSession cannot address a flattened child
 * session), then Runtime.getHeapUsage and HeapProfiler.collectGarbage sent through
 * `Target.sendMessageToTarget`. Allocating 8 MB in the worker through Playwright's own Worker
 * handle moved `usedSize` by 8 MB, so it is the same isolate.
 */
import type { BrowserContext, CDPSession } from '@playwright/test';

export interface HeapUsage {
  /** V8 heap in use, bytes. */
  usedSize: number;
  /** V8 heap reserved, bytes. */
  totalSize: number;
}

export interface WorkerHeap {
  usage(opts?: { gc?: boolean }): Promise<HeapUsage>;
  detach(): Promise<void>;
}

interface TargetReply {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

export async function attachWorkerHeap(context: BrowserContext, workerUrl: string): Promise<WorkerHeap> {
  const browser = context.browser();
  if (!browser) throw new Error('no browser handle for this context (is it a Chromium persistent context?)');
  const session: CDPSession = await browser.newBrowserCDPSession();
  const { targetInfos } = await session.send('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'service_worker' && t.url === workerUrl);
  if (!target) throw new Error(`service worker ${workerUrl} not among the browser's targets`);
  const { sessionId } = await session.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });

  let nextId = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  session.on('Target.receivedMessageFromTarget', (e) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as TargetReply;
    const p = m.id === undefined ? undefined : pending.get(m.id);
    if (!p || m.id === undefined) return; // an event, not a reply
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error.message));
    else p.resolve(m.result);
  });
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      // A worker that was stopped meanwhile never answers: fail instead of hanging the benchmark.
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method}: no answer from the service worker in 10 s`));
      }, 10_000);
      pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });

  return {
    async usage({ gc = true } = {}) {
      if (gc) await call('HeapProfiler.collectGarbage');
      const u = (await call('Runtime.getHeapUsage')) as HeapUsage;
      return { usedSize: u.usedSize, totalSize: u.totalSize };
    },
    async detach() {
      // Best effort: the target or the session may already be gone.
      await session.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      await session.detach().catch(() => undefined); // see above
    },
  };
}
