/** The local test world (test/harness) as a Playwright worker fixture: one per worker, closed when
 * the worker ends. `harness: harnessPerWorker` in the Chromium and Firefox fixtures' `test.extend`. */
import { startHarness, type Harness } from '../harness/index.ts';

export const harnessPerWorker: [({}: object, use: (h: Harness) => Promise<void>) => Promise<void>, { scope: 'worker' }] = [
  async ({}, use) => {
    const h = await startHarness();
    await use(h);
    await h.close();
  },
  { scope: 'worker' },
];
