/**
 * Firefox, before the user allows Ratify to read sites (its optional `<all_urls>` permission):
 * "Verify with RAT" from the real context menu works on that tab alone (the menu click grants
 * activeTab): the selection is checked and marked in the page. A question says which tabs it could
 * not read and why; the panel's "Allow reading sites" makes the real permissions.request (Firefox
 * answers it at once in this profile, see launch.ts), and the next run reads the tabs.
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
  firefox: async ({ harness }, use) => {
    harness.llm.reset();
    const ff = await launchFirefox();
    await use(ff);
    await ff.close();
  },
});

async function openPanel(ff: LaunchedFirefox, harness: Harness): Promise<Page> {
  const panel = await ff.openExtensionPage('sidepanel.html');
  await panel.evaluate(async (settings) => {
    await (globalThis as unknown as { browser: { storage: { local: { set(v: object): Promise<void> } } } }).browser.storage.local.set({ settings });
  }, { version: SETTINGS_VERSION, ...harness.settingsPatch() });
  return panel;
}

const text = (page: Page, selector: string) => page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => (e as HTMLElement).innerText.trim()), selector);
const attr = (page: Page, selector: string, name: string) => page.evaluate((s, n) => document.querySelector(s)?.getAttribute(n) ?? null, selector, name);
const hasSiteAccess = (page: Page) => page.evaluate(() => (globalThis as unknown as { browser: { permissions: { contains(p: object): Promise<boolean> } } }).browser.permissions.contains({ origins: ['<all_urls>'] }));

test('Firefox without access to sites: Verify with RAT from the context menu checks and marks the selection; other tabs are not read and the panel asks', async ({ firefox, harness }, testInfo) => {
  const curie = await firefox.browser.newPage();
  await curie.goto(harness.site.url('/articles/marie-curie.html'));
  harness.llm.setResponder(
    pipelineResponder({
      claims: [
        { claim: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', sentence: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', phrase: 'moved to Paris', verdict: 'supported' },
        { claim: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.', sentence: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.', phrase: 'completed in March 1889', verdict: 'corrected', corrected: 'The Eiffel Tower was completed in 1889.' },
      ],
    }),
  );
  const panel = await openPanel(firefox, harness);
  expect(await hasSiteAccess(panel)).toBe(false);
  const demo = await firefox.browser.newPage();
  await demo.goto(harness.site.url('/demo.html'));
  await demo.bringToFront();
  const selected = await demo.evaluate(() => {
    const range = document.createRange();
    range.setStartBefore(document.getElementById('claim-curie-paris')!);
    range.setEndAfter(document.getElementById('claim-eiffel-wrong')!);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(range);
    return getSelection()!.toString();
  });
  const box = (await (await demo.$('#claim-curie-paris'))!.boundingBox())!;
  await demo.mouse.click(box.x + 10, box.y + box.height / 2, { button: 'right' });
  const activated = await firefox.inBrowserWindow<string>(`(() => {
    const menu = document.getElementById('contentAreaContextMenu');
    const item = [...menu.querySelectorAll('menuitem')].find((i) => i.label === 'Verify with RAT' && !i.hidden);
    if (menu.state !== 'open' || !item) return 'menu ' + menu.state + ', item ' + (item ? 'found' : 'missing');
    menu.activateItem(item);
    return 'activated';
  })()`);
  expect(activated).toBe('activated');

  await expect.poll(() => text(panel, '[data-testid=run-status]'), { timeout: 40_000 }).toEqual(['Done']);
  // The selection is kept with the run, folded below its report.
  const squash = (t: string | undefined) => (t ?? '').replace(/\s+/g, ' ').trim();
  expect(squash(await panel.$eval('[data-testid=run-input]', (e) => e.textContent ?? ''))).toBe(squash(selected));
  // Marks in the page the user acted on, one per checked sentence: drawn through activeTab alone.
  await expect.poll(() => demo.evaluate(() => document.querySelectorAll('[data-ratify-mark][tabindex="0"]').length), { timeout: 10_000 }).toBe(2);
  // The other tab was not read; the panel says so and asks, with the reason.
  expect(await attr(panel, '[data-testid=site-access]', 'data-state')).toBe('ask');
  expect((await text(panel, '[data-testid=site-access-missed]'))[0]).toContain('Open tabs not read for this answer: 1.');
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toContain('origin=\\"tab\\"');
  expect(await hasSiteAccess(panel)).toBe(false);
  await panel.setViewport({ width: 420, height: 1100 });
  await writeFile(testInfo.outputPath('firefox-verify-no-access.png'), await panel.screenshot());
});

test('Firefox: a question without access asks; "Allow reading sites" in the panel grants it and the next run reads the tabs', async ({ firefox, harness }, testInfo) => {
  const curie = await firefox.browser.newPage();
  await curie.goto(harness.site.url('/articles/marie-curie.html'));
  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.2 },
      steps: ['Marie Curie moved to Paris in 1891.'],
      facts: [{ step: 0, phrase: 'moved to Paris' }],
      finalAnswer: 'Marie Curie moved to Paris in 1891.',
    }),
  );
  const panel = await openPanel(firefox, harness);
  await panel.locator('textarea').fill('When did Marie Curie move to Paris?');
  await panel.keyboard.press('Enter');
  await expect.poll(() => text(panel, '[data-testid=run-status]'), { timeout: 40_000 }).toEqual(['Done']);
  expect(await attr(panel, '[data-testid=site-access]', 'data-state')).toBe('ask');
  expect((await text(panel, 'ol.sources > li')).some((s) => s.includes('open tab'))).toBe(false);

  // A real click on the panel's button: the request runs inside it.
  await panel.locator('[data-testid=site-access] button').click();
  await expect.poll(() => attr(panel, '[data-testid=site-access]', 'data-state')).toBe('granted');
  expect(await hasSiteAccess(panel)).toBe(true);
  await panel.locator('[data-testid=site-access] button').click(); // Run again
  await expect.poll(async () => (await text(panel, 'ol.sources > li')).some((s) => s.includes('Marie Curie') && s.includes('open tab')), { timeout: 40_000 }).toBe(true);
  await expect.poll(() => text(panel, '[data-testid=run-status]'), { timeout: 40_000 }).toEqual(['Done']);
  expect(await panel.$('[data-testid=site-access]')).toBeNull();
  await panel.setViewport({ width: 420, height: 1100 });
  await writeFile(testInfo.outputPath('firefox-after-grant.png'), await panel.screenshot());
});
