/**
 * Firefox: a PDF open in a tab (Firefox's own pdf.js viewer, which extensions cannot script) is
 * read by the add-on's background page with pdf.js, and its citation carries the page.
 */
import { expect, test as base } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { writeFile } from 'node:fs/promises';
import { startHarness, type Harness } from '../harness/index.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { SETTINGS_VERSION } from '../../lib/settings/migrations.ts';
import { launchFirefox, type LaunchedFirefox } from './launch.ts';

const test = base.extend<{ firefox: LaunchedFirefox }, { harness: Harness }>({
  harness: [
    async ({}, use) => {
      const h = await startHarness();
      await use(h);
      await h.close();
    },
    { scope: 'worker' },
  ],
  firefox: async ({}, use) => {
    const ff = await launchFirefox();
    await ff.grantSiteAccess();
    await use(ff);
    await ff.close();
  },
});

const text = (page: Page, selector: string) => page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => (e as HTMLElement).innerText.trim()), selector);

test('Firefox: a PDF tab is a source with a page-numbered citation', async ({ firefox, harness }, testInfo) => {
  const pdf = await firefox.browser.newPage();
  await pdf.goto(harness.site.url('/pdf/glacier-survey.pdf'));
  const finding = 'The Kessler Glacier retreated 212 metres between 2014 and 2024.';
  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.2 },
      steps: ['The Kessler Glacier retreated about 200 metres in the last decade.'],
      facts: [{ step: 0, phrase: 'retreated 212 metres', revised: finding }],
      finalAnswer: finding,
    }),
  );
  const panel = await firefox.openExtensionPage('sidepanel.html');
  await panel.evaluate(async (settings) => {
    await (globalThis as unknown as { browser: { storage: { local: { set(v: object): Promise<void> } } } }).browser.storage.local.set({ settings });
  }, { version: SETTINGS_VERSION, ...harness.settingsPatch(), search: { wikipedia: { enabled: false } } });
  await panel.locator('textarea').fill('How far has the Kessler Glacier retreated?');
  await panel.keyboard.press('Enter');
  await expect.poll(() => text(panel, '[data-testid=run-status]'), { timeout: 60_000 }).toEqual(['Done']);
  const sources = await text(panel, 'ol.sources > li');
  expect(sources).toHaveLength(1);
  expect(sources[0]).toContain('Survey of the Kessler Glacier, 2024');
  expect(sources[0]).toContain('open tab');
  expect(await text(panel, 'ol.sources .quote-page')).toEqual(['p. 3']);
  await panel.setViewport({ width: 420, height: 900 });
  await writeFile(testInfo.outputPath('firefox-pdf.png'), await panel.screenshot());
});
