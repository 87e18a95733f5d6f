/** The side panel's main situations (test/e2e/scenes.ts), the settings and a page with marks, each
 * at 320 and 600 px, light and dark. */
import { test } from '../e2e/fixtures.ts';
import { answerFirst, chooseTabs, followUp, summarizeThisPage, verifyWithMarks } from '../e2e/scenes.ts';
import { shoot } from './shoot.ts';
import { ARTICLE, checkThisPage } from '../e2e/check-page-scene.ts';

test('page context: "Summarize this page"', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView } = await summarizeThisPage({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await shoot(panel, 'panel-page');
});

test('a follow-up, understood from the thread', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView } = await followUp({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await shoot(panel, 'panel-thread');
  await panel.getByRole('button', { name: 'New thread' }).click();
  await panelView.ask('How tall is Mount Fuji?');
  await panelView.waitForRun(1);
  await panel.getByRole('tab', { name: 'History' }).click();
  await panel.locator('.history-list li').nth(1).waitFor();
  await shoot(panel, 'panel-history', { fullPage: false, height: 420 });
});

test('choosing tabs with @, and the trace of what they gave', async ({ context, harness, configureForHarness, sidePanel }) => {
  const picking = await chooseTabs({ context, harness, configureForHarness, sidePanel }, { run: false });
  await shoot(picking.panel.page, 'panel-tab-picker', { fullPage: false, height: 520 });
  await picking.panel.page.close();
  for (const p of picking.tabs) await p.close();
  const { panel: panelView } = await chooseTabs({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await panel.getByTestId('trace').locator(':scope > summary').click();
  await panel.getByTestId('library').locator('summary').click();
  await shoot(panel, 'panel-chosen-tabs');
});

test('answer first, with a table', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView } = await answerFirst({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await shoot(panel, 'panel-answer-first');
});

test('the welcome card, an API key tested and its models listed', async ({ harness, sidePanel }) => {
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panel.getByTestId('onboarding').waitFor();
  await shoot(panel, 'panel-welcome');
  await panelView.ask('Who painted the Mona Lisa?');
  await panel.getByText('An API key', { exact: true }).click();
  const way = panel.getByTestId('onboarding').locator('details', { hasText: 'An API key' });
  await way.getByLabel('Provider').selectOption('custom');
  await way.getByLabel('Base URL').fill(harness.llm.baseURL);
  await way.getByLabel('API key').fill(harness.apiKey);
  await way.getByRole('button', { name: 'Test' }).click();
  await way.getByLabel(/models found/).waitFor();
  await shoot(panel, 'panel-setup');
});

test('the settings page after Test connection listed the models', async ({ context, extensionId, harness }) => {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL', { exact: true }).fill(harness.llm.baseURL);
  await page.getByLabel('API key', { exact: true }).fill(harness.apiKey);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await page.getByLabel(/models found/).waitFor();
  await shoot(page, 'options', { fullPage: false, height: 900 });
});

test('a verification: the panel and the page with marks', async ({ context, worker, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView, page } = await verifyWithMarks({ context, worker, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await shoot(panel, 'panel-verify');
  await shoot(page, 'page-marks', {
    fullPage: false,
    height: 560,
    before: async (p) => {
      // The selection that was verified is no longer needed in the picture.
      await p.evaluate(() => window.getSelection()?.removeAllRanges());
      await p.getByRole('button', { name: /^Ratify: Corrected\./ }).first().focus();
    },
  });
});

test('the start, Check this page: the report and the marked article', async ({ context, harness, configureForHarness, openPanel, sidePanel }) => {
  await configureForHarness();
  const article = await context.newPage();
  await article.goto(harness.site.url(ARTICLE));
  const start = await openPanel();
  await article.bringToFront();
  await start.getByTestId('start').getByText('Two landmarks of Paris').waitFor();
  await shoot(start, 'panel-start', { fullPage: false, height: 520 });
  await start.close();
  await article.close();

  const { panel: panelView, article: checked } = await checkThisPage({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  // The first screen a reader sees, and the whole report.
  await shoot(panel, 'panel-check-page-top', { fullPage: false, height: 640 });
  await shoot(panel, 'panel-check-page');
  await shoot(checked, 'page-check-marks', {
    fullPage: false,
    height: 600,
    before: async (p) => {
      await p.evaluate(() => window.scrollTo(0, 0));
      await p.locator('#s-design [data-ratify-mark][tabindex="0"]').first().focus();
    },
  });
});
