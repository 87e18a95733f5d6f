/**
 * Firefox, before the user allows Ratify to read sites (its optional `<all_urls>` permission):
 * "Verify with RAT" from the real context menu works on that tab alone (the menu click grants
 * activeTab): the selection is checked and marked in the page. A question says which tabs it could
 * not read and why; the panel's "Allow reading sites" makes the real permissions.request (Firefox
 * answers it at once in this profile, see launch.ts), and the next run reads the tabs.
 */
import { writeFile } from 'node:fs/promises';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { contextMenu, expect, FirefoxPanel, selectBetween, test } from './fixtures.ts';

test.use({ siteAccess: false });

const hasSiteAccess = (panel: FirefoxPanel) => panel.page.evaluate(() => (globalThis as unknown as { browser: { permissions: { contains(p: object): Promise<boolean> } } }).browser.permissions.contains({ origins: ['<all_urls>'] }));

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
  const panel = await FirefoxPanel.forHarness(firefox, harness);
  expect(await hasSiteAccess(panel)).toBe(false);
  const demo = await firefox.browser.newPage();
  await demo.goto(harness.site.url('/demo.html'));
  await demo.bringToFront();
  const selected = await selectBetween(demo, 'claim-curie-paris', 'claim-eiffel-wrong');
  expect(await contextMenu(firefox, demo, '#claim-curie-paris', 'Verify with RAT')).toBe('activated');

  await panel.waitForRuns(1);
  // The selection is kept with the run, folded below its report.
  const squash = (t: string | undefined) => (t ?? '').replace(/\s+/g, ' ').trim();
  expect(squash(await panel.page.$eval('[data-testid=run-input]', (e) => e.textContent ?? ''))).toBe(squash(selected));
  // Marks in the page the user acted on, one per checked sentence: drawn through activeTab alone.
  await expect.poll(() => demo.evaluate(() => document.querySelectorAll('[data-ratify-mark][tabindex="0"]').length), { timeout: 10_000 }).toBe(2);
  // The other tab was not read; the panel says so and asks, with the reason.
  expect(await panel.attr('[data-testid=site-access]', 'data-state')).toBe('ask');
  expect((await panel.texts('[data-testid=site-access-missed]'))[0]).toContain('Open tabs not read for this answer: 1.');
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toContain('origin=\\"tab\\"');
  expect(await hasSiteAccess(panel)).toBe(false);
  await panel.page.setViewport({ width: 420, height: 1100 });
  await writeFile(testInfo.outputPath('firefox-verify-no-access.png'), await panel.page.screenshot());
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
  const panel = await FirefoxPanel.forHarness(firefox, harness);
  await panel.askAndWait('When did Marie Curie move to Paris?');
  expect(await panel.attr('[data-testid=site-access]', 'data-state')).toBe('ask');
  expect((await panel.sources()).some((s) => s.includes('open tab'))).toBe(false);

  // A real click on the panel's button: the request runs inside it.
  await panel.page.locator('[data-testid=site-access] button').click();
  await expect.poll(() => panel.attr('[data-testid=site-access]', 'data-state')).toBe('granted');
  expect(await hasSiteAccess(panel)).toBe(true);
  await panel.page.locator('[data-testid=site-access] button').click(); // Run again
  await expect.poll(async () => (await panel.sources()).some((s) => s.includes('Marie Curie') && s.includes('open tab')), { timeout: 40_000 }).toBe(true);
  await panel.waitForRuns(1);
  expect(await panel.page.$('[data-testid=site-access]')).toBeNull();
  await panel.page.setViewport({ width: 420, height: 1100 });
  await writeFile(testInfo.outputPath('firefox-after-grant.png'), await panel.page.screenshot());
});
