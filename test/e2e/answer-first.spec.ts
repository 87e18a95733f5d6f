import { expect, test } from './fixtures.ts';
import { answerFirst } from './scenes.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';

test('the answer comes first, then its sources one page per row, then the folded trace; tables render, long words wrap', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel } = await answerFirst({ context, harness, configureForHarness, sidePanel });
  const page = panel.page;
  const y = async (testId: string) => (await page.getByTestId(testId).boundingBox())?.y ?? NaN;
  const sourcesY = (await page.locator('.source-list').boundingBox())?.y ?? NaN;
  expect(await y('answer')).toBeLessThan(sourcesY);
  expect(sourcesY).toBeLessThan(await y('trace'));
  // Done: the trace is folded; the answer shows who wrote it and can be copied.
  await expect(panel.trace).not.toHaveAttribute('open');
  await expect(page.getByTestId('answer-section')).toContainText('by fake-llm');
  await expect(page.getByTestId('answer-section').getByRole('button', { name: 'Copy as Markdown' })).toBeVisible();

  // GitHub-flavoured Markdown: a real table.
  const table = panel.answer.locator('table');
  await expect(table.locator('th')).toHaveText(['Landmark', 'Height', 'Completed']);
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.locator('tbody tr').first().locator('td')).toHaveText(['Eiffel Tower', '330 m', '1889']);

  // One page per source row, its quotes under it.
  const rows = panel.sources;
  await expect(rows.first().locator('.quotes li')).not.toHaveCount(0);

  // At the narrowest panel, a 250-character URL wraps instead of widening the panel.
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test('while the answer streams the trace is open and the panel follows the answer, until the user scrolls away', async ({ harness, configureForHarness, sidePanel }) => {
  const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long answer about the Eiffel Tower.`).join('\n\n');
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.1 }, steps: ['The Eiffel Tower is 330 metres tall.'], facts: [{ phrase: '330 metres' }], finalAnswer: long }));
  harness.llm.setLatency({ firstTokenMs: 50, tokensPerSec: 120 });
  await configureForHarness();
  const panel = await sidePanel();
  const page = panel.page;
  await page.setViewportSize({ width: 400, height: 600 });
  await panel.ask('Tell me about the Eiffel Tower at length.');
  await expect(panel.trace).toHaveAttribute('open', '');
  await expect(panel.answer).toContainText('Line 12');
  // Following: the end of the streaming answer is on screen, above the question box.
  const answerEndVisible = () =>
    page.evaluate(() => {
      const r = document.querySelector('[data-testid="answer"]')!.getBoundingClientRect();
      const box = document.querySelector('.composer')!.getBoundingClientRect();
      return r.bottom <= box.top + 60 && r.bottom > 0;
    });
  await expect.poll(answerEndVisible).toBe(true);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  // The user scrolls up to read: the panel stays where they are while the answer keeps coming.
  // (A follow step the panel made a moment before can land after the wheel's scroll, so the top is
  // "near 0", as the user would see it: the question, not the end of the answer.)
  await page.mouse.move(200, 200);
  await page.mouse.wheel(0, -100_000);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(60);
  const left = await page.evaluate(() => window.scrollY);
  await expect(panel.answer).toContainText('Line 30');
  expect(await page.evaluate(() => window.scrollY)).toBe(left);
  await expect(panel.status).toHaveText('Done', { timeout: 30_000 });
  await expect(panel.trace).not.toHaveAttribute('open');
});
