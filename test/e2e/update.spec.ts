/**
 * An update keeps the user's data. The previous release (older-build.ts) is installed in a fresh
 * profile and used as a user would: settings saved in its options page, site access allowed, two
 * threads asked with an article open (so pages are read and cached). Then the same profile is
 * updated to this build — same install folder, so the same extension id, as a store update keeps
 * it — and everything is checked where the user sees it, and used: the settings page, the
 * history, a thread reopened and continued, the page cache still there.
 */
import { test as base, expect, type BrowserContext } from '@playwright/test';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Harness } from '../harness/index.ts';
import { harnessPerWorker } from './harness-fixture.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { EXTENSION_DIR, extensionIdOf, grantSiteAccess, launchWithExtension } from './launch.ts';
import { olderBuild, type OlderBuild } from './older-build.ts';

import { pagesCached } from './page-cache.ts';
import { Panel } from './pages/panel.ts';

const test = base.extend<object, { harness: Harness; older: OlderBuild }>({
  harness: harnessPerWorker,
  older: [async ({}, use) => use(await olderBuild()), { scope: 'worker', timeout: 300_000 }],
});

/** A build's manifest without what the browser localizes when it loads it (__MSG_…__ texts,
 * current_locale). */
function unlocalized(manifest: Record<string, unknown>): Record<string, unknown> {
  const { name: _n, description: _d, commands: _c, current_locale: _l, ...rest } = manifest;
  return rest;
}

/** Which build the browser loaded: its manifest, compared with a build's manifest file. */
async function runningManifest(context: BrowserContext): Promise<unknown> {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  return unlocalized(await worker.evaluate(() => chrome.runtime.getManifest() as unknown as Record<string, unknown>));
}
const manifestOf = async (dir: string) => unlocalized(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>);

/** With the previous release: settings saved, site access allowed, two threads asked with an
 * article open. Returns what the checks after the update compare with. */
async function useAsBefore(context: BrowserContext, harness: Harness, older: OlderBuild): Promise<{ id: string; cached: string[]; settings: unknown }> {
  const id = await extensionIdOf(context);
  expect(await runningManifest(context)).toEqual(await manifestOf(older.chrome));
  await grantSiteAccess(context, id);
  const worker = context.serviceWorkers()[0]!;
  // The model and search settings in the format that version stores; then a privacy choice and
  // the retention changed and saved in its own options page.
  await worker.evaluate((settings) => chrome.storage.local.set({ settings }), { version: older.settingsVersion, ...harness.settingsPatch() } as Record<string, unknown>);
  const options = await context.newPage();
  await options.goto(`chrome-extension://${id}/options.html`);
  const excluded = options.locator('#excluded');
  await excluded.fill(`${await excluded.inputValue()}\nnews.example`);
  await options.locator('#retention').selectOption('90');
  await options.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(options.getByText('Saved', { exact: true })).toBeVisible();
  await options.close();

  const article = await context.newPage();
  await article.goto(harness.site.url('/articles/marie-curie.html'));
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${id}/sidepanel.html`);
  const panelView = new Panel(panel);
  await panelView.ask('Who was Marie Curie?');
  await panelView.waitForRun(1);
  await panelView.ask('Where was she born?');
  await panelView.waitForRun(2);
  await panel.getByRole('button', { name: 'New thread' }).click();
  await panelView.ask('How tall is Mount Fuji?');
  await panelView.waitForRun(1);
  const cached = await pagesCached(panel);
  expect(cached).toContain(harness.site.url('/articles/marie-curie.html'));
  return { id, cached, settings: await worker.evaluate(() => chrome.storage.local.get('settings')) };
}

/** After the update: everything where the user sees it, and a thread continued. */
async function checkAfter(context: BrowserContext, harness: Harness, before: { id: string; cached: string[]; settings: unknown }): Promise<void> {
  const { id } = before;
  expect(await extensionIdOf(context)).toBe(id);
  expect(await runningManifest(context)).toEqual(await manifestOf(EXTENSION_DIR));

  // Settings, as the options page shows them, and site access still allowed.
  const settings = await context.newPage();
  await settings.goto(`chrome-extension://${id}/options.html`);
  await expect(settings.getByLabel('Base URL', { exact: true })).toHaveValue(harness.llm.baseURL);
  await expect(settings.getByLabel('Model', { exact: true })).toHaveValue('fake-llm');
  await expect(settings.locator('#excluded')).toHaveValue(/news\.example/);
  await expect(settings.locator('#retention')).toHaveValue('90');
  await expect(settings.locator('[data-testid=site-access-setting]')).toHaveAttribute('data-state', 'granted');
  await settings.close();

  // History: both threads; the first reopens whole, with its sources.
  const article = await context.newPage();
  await article.goto(harness.site.url('/articles/marie-curie.html'));
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${id}/sidepanel.html`);
  const panelView = new Panel(panel);
  await expect(panel.getByTestId('store-newer')).toHaveCount(0);
  await expect(panel.getByTestId('store-problem')).toHaveCount(0);
  await panel.getByRole('tab', { name: 'History' }).click();
  const items = panel.locator('.history-list li');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('How tall is Mount Fuji?');
  await expect(items.nth(1)).toContainText('Who was Marie Curie?');
  await expect(items.nth(1)).toContainText('2 questions');
  await items.nth(1).getByRole('button').first().click();
  const runs = panel.locator('article.run');
  await expect(runs).toHaveCount(2);
  await expect(runs.nth(0).getByTestId('answer')).toContainText('Nobel Prize in Physics');
  await expect(runs.nth(1).getByTestId('answer')).toContainText('born in Warsaw');
  await expect(runs.nth(1).locator('ol.sources > li').first()).toContainText('Marie Curie');

  // Usable: the thread goes on (its conversation reaches the model); the cache is still there.
  await panelView.ask('When did she move to Paris?');
  await panelView.waitForRun(3);
  await expect(runs).toHaveCount(3);
  const lastGate = harness.llm.chatRequests().filter((r) => r.stage === 'gate').at(-1);
  expect(JSON.stringify(lastGate?.body)).toContain('Q1: Who was Marie Curie?');
  await expect(runs.nth(2).getByTestId('answer')).toContainText('moved to Paris');
  expect(await pagesCached(panel)).toEqual(expect.arrayContaining(before.cached));
  // The stored settings are what the previous release saved: the update reset nothing.
  expect(await context.serviceWorkers()[0]!.evaluate(() => chrome.storage.local.get('settings'))).toEqual(before.settings);
}

test('an update from the previous release keeps settings, site access, threads, history and cached pages, and they are usable', async ({ harness, older }) => {
  test.setTimeout(180_000);
  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'incomplete', question: (q, prompt) => (/she/.test(q) && prompt.includes('Marie Curie') ? q.replace('she', 'Marie Curie') : q), confidence: 0.2 },
      steps: (q) => (/born/.test(q) ? ['Marie Curie was born in Warsaw.'] : /Paris/.test(q) ? ['Marie Curie moved to Paris in 1891.'] : /Fuji/.test(q) ? ['Mount Fuji is 3,776 metres high.'] : ['Marie Curie was a physicist and chemist who shared the 1903 Nobel Prize in Physics.']),
      facts: [{ phrase: 'born in Warsaw' }, { phrase: 'Nobel Prize in Physics' }, { phrase: 'moved to Paris' }, { phrase: '3776' }],
    }),
  );
  const profile = await mkdtemp(path.join(tmpdir(), 'ratify-update-profile-'));
  // Where the extension is installed: the previous release first, this build over it.
  const installed = await mkdtemp(path.join(tmpdir(), 'ratify-update-ext-'));
  try {
    await cp(older.chrome, installed, { recursive: true });
    const first = await launchWithExtension(profile, { locale: 'en-US', extensionDir: installed });
    const before = await useAsBefore(first, harness, older).finally(() => first.close());

    await rm(installed, { recursive: true, force: true });
    await cp(EXTENSION_DIR, installed, { recursive: true });
    // A store update replaces the extension's worker with the new build's. Swapping the files in
    // place does not: Chromium would start the previous release's worker again from the script it
    // registered (its "Service Worker" folder; Ratify keeps nothing there, its data is in
    // chrome.storage and IndexedDB). Without this the new pages would talk to the old worker.
    await rm(path.join(profile, 'Default', 'Service Worker'), { recursive: true, force: true });
    const updated = await launchWithExtension(profile, { locale: 'en-US', extensionDir: installed });
    await checkAfter(updated, harness, before).finally(() => updated.close());
  } finally {
    await rm(profile, { recursive: true, force: true, maxRetries: 5 });
    await rm(installed, { recursive: true, force: true, maxRetries: 5 });
  }
});
