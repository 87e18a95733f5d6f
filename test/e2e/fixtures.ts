import { test as base, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extensionIdOf, grantSiteAccess, launchWithExtension } from './launch.ts';
import type { Harness } from '../harness/index.ts';
import { harnessPerWorker } from './harness-fixture.ts';
import type { SettingsPatch } from '../../lib/settings/schema.ts';
import { SETTINGS_VERSION } from '../../lib/settings/migrations.ts';
import { Panel } from './pages/panel.ts';
import { OptionsPage } from './pages/options.ts';

// Re-exported: specs import them from here.
export { CHROMIUM, EXTENSION_DIR } from './launch.ts';
export { Panel, RunView } from './pages/panel.ts';
export { OptionsPage } from './pages/options.ts';
export { PageMarks } from './pages/page-marks.ts';

export interface Fixtures {
  /** Whether the test starts with Ratify allowed to read sites (the optional host permission),
   * granted the way a user can (launch.ts grantSiteAccess). Default true: most specs read tabs;
   * the first-use specs start without it. */
  siteAccess: boolean;
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
  /** Write settings the way the options page does (storage.local `settings`). */
  configure: (patch: SettingsPatch) => Promise<void>;
  /** Settings pointing at the fake LLM with its key, and search at the fake providers. */
  configureForHarness: (patch?: SettingsPatch) => Promise<void>;
  /** The side panel, opened in a normal tab (same origin, same IndexedDB), as a page object. */
  sidePanel: () => Promise<Panel>;
  /** The side panel's bare page (for what the page object does not name). */
  openPanel: () => Promise<Page>;
  /** Ratify's settings page, as a page object. */
  openOptions: () => Promise<OptionsPage>;
  /** A picture of what the test checked, into this test's output folder (`npm test` leaves the
   * working tree as it was; the README's pictures come from `npm run screenshots`). */
  picture: (target: Page, name: string, options?: Omit<NonNullable<Parameters<Page['screenshot']>[0]>, 'path'>) => Promise<void>;
}

export interface WorkerFixtures {
  harness: Harness;
  /** A browser profile in which the user has allowed Ratify to read sites (launch.ts
   * grantSiteAccess, done once per worker); each test that wants it starts from a copy. */
  grantedProfile: string;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  harness: harnessPerWorker,
  grantedProfile: [
    async ({}, use) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'ratify-e2e-granted-'));
      const context = await launchWithExtension(dir, { locale: 'en-US' });
      await grantSiteAccess(context, await extensionIdOf(context));
      await context.close(); // Chromium writes the grant to the profile's Preferences
      await use(dir);
      await rm(dir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  locale: 'en-US',
  siteAccess: [true, { option: true }],
  context: async ({ harness, locale, siteAccess, grantedProfile }, use) => {
    harness.llm.reset();
    harness.search.reset?.();
    const dir = await mkdtemp(path.join(tmpdir(), 'ratify-e2e-'));
    // A copy of the granted profile costs milliseconds; granting again costs seconds per test.
    if (siteAccess) await cp(grantedProfile, dir, { recursive: true });
    const context = await launchWithExtension(dir, { locale });
    await use(context);
    await context.close();
    await rm(dir, { recursive: true, force: true });
  },
  worker: async ({ context }, use) => {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await use(worker);
  },
  extensionId: async ({ worker }, use) => {
    await use(new URL(worker.url()).host);
  },
  configure: async ({ worker }, use) => {
    await use(async (patch) => {
      await worker.evaluate((settings) => chrome.storage.local.set({ settings }), { version: SETTINGS_VERSION, ...patch } as Record<string, unknown>);
    });
  },
  configureForHarness: async ({ configure, harness }, use) => {
    await use(async (patch = {}) => {
      await configure(merge(harness.settingsPatch(), patch));
    });
  },
  picture: async ({}, use, testInfo) => {
    await use(async (target, name, options = {}) => {
      const dir = testInfo.outputDir;
      await mkdir(dir, { recursive: true });
      await target.screenshot({ ...options, path: path.join(dir, name) });
    });
  },
  sidePanel: async ({ context, extensionId }, use) => {
    await use(() => Panel.open(context, extensionId));
  },
  openPanel: async ({ sidePanel }, use) => {
    await use(async () => (await sidePanel()).page);
  },
  openOptions: async ({ context, extensionId }, use) => {
    await use(() => OptionsPage.open(context, extensionId));
  },
});

function merge<T>(a: T, b: unknown): T {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null || Array.isArray(b)) return (b === undefined ? a : b) as T;
  const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
  for (const [k, v] of Object.entries(b)) out[k] = merge(out[k], v);
  return out as T;
}

export const expect = test.expect;
