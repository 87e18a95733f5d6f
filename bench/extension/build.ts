/** What the in-browser benchmarks share: a fresh build of the extension, and its worker. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Worker } from '@playwright/test';
import { EXTENSION_DIR } from '../../test/e2e/launch.ts';

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const d of readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, d)));
  return max;
}

/** WXT rebuilds in ~2 s; a stale build would measure code that is no longer the source. */
export function ensureBuilt(noBuild: boolean): void {
  const manifest = path.join(EXTENSION_DIR, 'manifest.json');
  const sources = Math.max(...['entrypoints', 'components', 'lib', 'public', 'wxt.config.ts', 'package.json'].map(newestMtime));
  if (existsSync(manifest) && statSync(manifest).mtimeMs >= sources) return;
  if (noBuild) throw new Error(`${EXTENSION_DIR} is missing or older than the sources; run "npx wxt build" (or drop --no-build)`);
  process.stderr.write('[bench] building the extension (npx wxt build)…\n');
  // stdout to stderr: stdout is for the tables.
  const r = spawnSync('npx', ['wxt', 'build'], { stdio: ['ignore', process.stderr, process.stderr] });
  if (r.status !== 0) throw new Error('wxt build failed');
}

export async function extensionWorker(context: BrowserContext): Promise<Worker> {
  const isOurs = (w: Worker) => w.url().startsWith('chrome-extension://');
  return context.serviceWorkers().find(isOurs) ?? (await context.waitForEvent('serviceworker', { predicate: isOurs }));
}
