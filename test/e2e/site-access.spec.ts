/** Before the user allows Ratify to read sites (the optional host permission): verifying a
 * selection works on the tab the user acted on (activeTab), a question says which tabs it could
 * not read and why and asks, and once allowed through the panel's own button the next run reads
 * them. */
import type { Worker } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { allowOnDetailsPage } from './launch.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { clickVerify } from './verify-click.ts';

test.use({ siteAccess: false });

const hasSiteAccess = (worker: Worker) => worker.evaluate(() => chrome.permissions.contains({ origins: ['<all_urls>'] }));

// Marks drawn through the activeTab grant are checked in Firefox (test/e2e-firefox/site-access.spec.ts),
// whose real context menu can be clicked headless. Chromium grants activeTab only for the real menu,
// the shortcut or the toolbar button: headless, the menu cannot be clicked, CDP key events do not
// reach extension shortcuts, and CDP Extensions.triggerAction did not grant it once the toolbar
// button opens the side panel (measured with Chromium 156). Here the menu's real listener runs
// without any grant: the run uses the menu's selection text and finishes, honestly.
test('Verify with RAT works before any grant: the selection is checked; other tabs are not read, and the panel says why and asks', async ({
  context,
  worker,
  harness,
  configureForHarness,
  openPanel,
  picture,
}) => {
  const evidence = await context.newPage();
  await evidence.goto(harness.site.url('/articles/marie-curie.html'));
  const page = await context.newPage();
  const demoUrl = harness.site.url('/demo.html');
  await page.goto(demoUrl);
  harness.llm.setResponder(
    pipelineResponder({
      claims: [
        { claim: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', sentence: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', phrase: 'moved to Paris', verdict: 'supported' },
        { claim: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.', sentence: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.', phrase: 'completed in March 1889', verdict: 'corrected', corrected: 'The Eiffel Tower was completed in 1889.' },
      ],
    }),
  );
  const selected = await page.evaluate(() => {
    const range = document.createRange();
    range.setStartBefore(document.getElementById('claim-curie-paris')!);
    range.setEndAfter(document.getElementById('claim-eiffel-wrong')!);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(range);
    return getSelection()!.toString();
  });
  await configureForHarness();
  const panel = await openPanel();
  // The menu's real listener (the native menu cannot be clicked headless).
  await clickVerify(worker, demoUrl, selected);

  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  await expect(panel.getByTestId('run-input')).toHaveText(selected.trim());
  await expect(panel.locator('.claims > li')).toHaveCount(2);
  // The other tab was not read, and the panel says so and why, and asks.
  const prompt = panel.getByTestId('site-access');
  await expect(prompt).toHaveAttribute('data-state', 'ask');
  await expect(prompt).toContainText('Ratify reads your open tabs and the pages search results point to, on this machine, to find evidence.');
  await expect(panel.getByTestId('site-access-missed')).toContainText('Open tabs not read for this answer: 1.');
  await panel.getByTestId('trace').locator(':scope > summary').click();
  const library = panel.getByTestId('library');
  await library.locator('summary').click();
  await expect(library.locator('li').filter({ hasText: 'Marie Curie' }).filter({ hasText: 'open tab' })).toContainText('Ratify may not read sites yet');
  // No open tab's text reached the model (the Wikipedia results carry the same article as web text).
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toContain('origin=\\"tab\\"');
  expect(harness.llm.chatRequests().some((r) => JSON.stringify(r.body).includes('origin=\\"web\\"'))).toBe(true);
  expect(await hasSiteAccess(worker)).toBe(false);
  await panel.setViewportSize({ width: 420, height: 900 });
  await prompt.scrollIntoViewIfNeeded();
  await picture(panel, 'panel-verify-no-access.png');
});

test('a question without access shows why Ratify asks; allowed through the panel’s button, the next run reads the tabs', async ({
  context,
  worker,
  extensionId,
  harness,
  configureForHarness,
  sidePanel,
  picture,
}) => {
  const curie = await context.newPage();
  await curie.goto(harness.site.url('/articles/marie-curie.html'));
  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.2 },
      steps: ['Marie Curie moved to Paris in 1891.'],
      facts: [{ step: 0, phrase: 'moved to Paris' }],
      finalAnswer: 'Marie Curie moved to Paris in 1891.',
    }),
  );
  await configureForHarness();
  const panelView = await sidePanel();
  const panel = panelView.page;
  // Before asking, the panel's preview already gives the reason.
  await panelView.ask('When did Marie Curie move to Paris?');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  const prompt = panel.getByTestId('site-access');
  await expect(prompt).toHaveAttribute('data-state', 'ask');
  await expect(prompt.getByRole('heading')).toHaveText('Let Ratify read your tabs and the pages it finds');
  await expect(panel.getByTestId('site-access-missed')).toContainText('Open tabs not read for this answer: 1.');
  await expect(panel.locator('ol.sources > li').filter({ hasText: 'open tab' })).toHaveCount(0);
  await panel.setViewportSize({ width: 420, height: 900 });
  await prompt.scrollIntoViewIfNeeded();
  await picture(panel, 'panel-site-access-prompt.png');

  // Settings shows the same state, with the button.
  const settings = await context.newPage();
  await settings.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(settings.getByTestId('site-access-setting')).toHaveAttribute('data-state', 'not-granted');
  await settings.setViewportSize({ width: 600, height: 900 });
  await settings.getByTestId('site-access-setting').scrollIntoViewIfNeeded();
  await picture(settings, 'options-site-access-off.png');

  // The user allows Ratify on all sites on its details page (Chrome's dialog cannot be answered
  // headless), then presses the panel's button: Ratify's permissions.request is granted.
  await allowOnDetailsPage(context, extensionId);
  expect(await hasSiteAccess(worker)).toBe(false);
  await panel.bringToFront();
  await prompt.getByRole('button', { name: 'Allow reading sites' }).click();
  await expect(prompt).toHaveAttribute('data-state', 'granted');
  await picture(panel, 'panel-site-access-granted.png');
  expect(await hasSiteAccess(worker)).toBe(true);
  // Settings follows (permissions.onAdded) without a reload.
  await expect(settings.getByTestId('site-access-setting')).toHaveAttribute('data-state', 'granted');
  await settings.getByTestId('site-access-setting').scrollIntoViewIfNeeded();
  await picture(settings, 'options-site-access-on.png');

  await prompt.getByRole('button', { name: 'Run again' }).click();
  await expect(panel.locator('ol.sources > li').filter({ hasText: 'open tab' }).first()).toContainText('Marie Curie', { timeout: 30_000 });
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  await expect(panel.getByTestId('site-access')).toHaveCount(0);

  // Taken back in Settings: the next run is without the tabs again.
  await settings.getByTestId('site-access-setting').getByRole('button', { name: 'Take back' }).click();
  await expect(settings.getByTestId('site-access-setting')).toHaveAttribute('data-state', 'not-granted');
  expect(await hasSiteAccess(worker)).toBe(false);
});

test('a model server that does not answer extensions by itself (LM Studio with CORS off): the failure says so, with the button that lets Ratify read it; allowed, Retry reaches the server', async ({
  context,
  extensionId,
  harness,
  configureForHarness,
  sidePanel,
  picture,
}) => {
  harness.llm.setOrigins('no-cors');
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9 }, answer: 'Marie Curie moved to Paris in 1891.' }));
  await configureForHarness();
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('When did Marie Curie move to Paris?');
  await expect(panel.getByTestId('run-status')).toHaveText('Failed', { timeout: 30_000 });
  const alert = panel.getByRole('alert');
  await expect(alert.locator('.notice-title')).toHaveText('The model server does not answer browser extensions');
  await expect(alert).toContainText('LM Studio with its CORS setting off');
  await panel.setViewportSize({ width: 420, height: 900 });
  await picture(panel, 'panel-no-cors-server.png');

  // Allowed (details page, then the notice's own button, as above): Retry now reaches the server.
  await allowOnDetailsPage(context, extensionId);
  await panel.bringToFront();
  await alert.getByRole('button', { name: 'Allow reading sites' }).click();
  await expect(alert.getByTestId('no-cors-granted')).toHaveText('Allowed: Retry now reaches the server.');
  // No second box offering "Run again" (it would start over) beside Retry (which continues).
  await expect(panel.getByRole('button', { name: 'Run again' })).toHaveCount(1);
  await expect(panel.getByTestId('site-access')).toHaveCount(0);
  await picture(panel, 'panel-no-cors-granted.png');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  await expect(panel.getByTestId('answer')).toContainText('Marie Curie moved to Paris in 1891.');
});
