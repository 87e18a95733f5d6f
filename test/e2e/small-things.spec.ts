import { expect, test } from './fixtures.ts';
import { verifyWithMarks } from './scenes.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';

test('"Clear marks" is offered only while the page shows marks', async ({ context, worker, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView, page } = await verifyWithMarks({ context, worker, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  const clear = panel.getByRole('button', { name: 'Clear marks in the page' });
  await expect(clear).toBeVisible();
  await clear.click();
  await expect(clear).toHaveCount(0);
  await expect(page.locator('[data-ratify-mark]')).toHaveCount(0);

  // Marks shown again, then gone with a reload: the panel notices and drops the button.
  await panel.getByRole('button', { name: 'Run again' }).click();
  await panelView.waitForRun(1);
  await expect(page.locator('[data-ratify-mark]').first()).toBeAttached({ timeout: 10_000 });
  await expect(panel.getByRole('button', { name: 'Clear marks in the page' })).toBeVisible();
  await page.reload();
  await panel.bringToFront();
  await expect(panel.getByRole('button', { name: 'Clear marks in the page' })).toHaveCount(0, { timeout: 10_000 });
});

test('input that is too long: the error is at the top and nothing typed or selected is lost', async ({ worker, harness, configureForHarness, openPanel }) => {
  await configureForHarness();
  const panel = await openPanel();
  const box = panel.getByRole('textbox', { name: 'Question' });
  const typed = `${'Why is the sky blue? '.repeat(200)}`.trim();
  await box.fill(typed);
  await box.press('Enter');
  await expect(panel.getByTestId('input-error')).toContainText(`The question has ${typed.length.toLocaleString('en')} characters; the limit is 4,000.`);
  await expect(box).toHaveValue(typed);
  expect(harness.llm.chatRequests()).toHaveLength(0);

  // A 33,000-character selection: the run keeps it, folded, with its error right under it.
  const selection = 'The Eiffel Tower was completed in 1889. '.repeat(825).trim();
  await worker.evaluate(async ({ selectionText, url }) => {
    const tab = await chrome.tabs.create({ url, active: false });
    (chrome.contextMenus.onClicked as unknown as { dispatch(i: unknown, t: unknown): void }).dispatch({ menuItemId: 'ratify-verify', selectionText, pageUrl: url, editable: false }, tab);
  }, { selectionText: selection, url: harness.site.url('/demo.html') });
  const alert = panel.getByRole('alert').filter({ hasText: 'Too much text' });
  await expect(alert).toBeVisible({ timeout: 15_000 });
  expect((await alert.boundingBox())!.y).toBeLessThan(500);
  await expect(panel.getByRole('button', { name: `Show all ${selection.length.toLocaleString('en')} characters` })).toBeVisible();
  expect((await panel.getByTestId('run-input').innerText()).length).toBeLessThan(700);
});

test.describe('in a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });
  test('history status and the answer’s lines are in Chinese', async ({ harness, configureForHarness, openPanel }) => {
    harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9 }, answer: '埃菲尔铁塔高330米。' }));
    await configureForHarness();
    const panel = await openPanel();
    await panel.getByRole('textbox', { name: '问题' }).fill('埃菲尔铁塔有多高？');
    await panel.getByRole('textbox', { name: '问题' }).press('Enter');
    await expect(panel.getByTestId('run-status')).toHaveText('完成', { timeout: 20_000 });
    await expect(panel.getByTestId('gate-line')).toContainText('凭模型自身知识回答：它有 90% 的把握');
    await panel.getByRole('tab', { name: '历史' }).click();
    await expect(panel.locator('.history-list li').first()).toContainText('完成');
    await expect(panel.locator('.history-list li').first()).not.toContainText('done');
  });
});
