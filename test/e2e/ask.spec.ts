import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { withoutBesideDraft } from '../harness/fake-llm-request.ts';

test('a question streams its answer into the panel and is kept in the history', async ({ harness, configureForHarness, openPanel }) => {
  const answer = 'The Eiffel Tower was completed in 1889 for the Exposition Universelle in Paris, and it stood as the tallest structure in the world for four decades.';
  // The gate is confident (0.9 ≥ β′ 0.5), so the model answers directly: 2 calls.
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9 }, answer }));
  // Slow enough that the panel must show the answer while it is still arriving.
  harness.llm.setLatency({ firstTokenMs: 50, tokensPerSec: 40 });
  await configureForHarness();

  const panel = await openPanel();
  const box = panel.getByRole('textbox', { name: 'Question' });
  await box.fill('When was the Eiffel Tower completed?');
  // Every length the answer is shown at, as the page renders it (however busy the machine).
  await panel.evaluate(() => {
    const seen: number[] = [];
    Object.assign(window, { answerLengths: seen });
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="answer"] .markdown') ?? document.querySelector('[data-testid="answer"]');
      const n = el?.textContent?.length ?? 0;
      if (n && n !== seen[seen.length - 1]) seen.push(n);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await box.press('Enter');

  const shown = panel.getByTestId('answer');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 20_000 });
  await expect(shown).toContainText('tallest structure in the world for four decades.');
  // Streaming: the answer was shown growing, before it was complete.
  const lengths = await panel.evaluate(() => (window as unknown as { answerLengths: number[] }).answerLengths);
  expect(lengths.length).toBeGreaterThan(2);
  expect(lengths[0]).toBeLessThan(lengths[lengths.length - 1] as number);
  await expect(panel.getByTestId('gate-line')).toContainText('Answered from the model’s own knowledge: it was 90% sure');
  // The question went to the configured model with the configured key, in two calls (and the
  // draft sent beside the gate, stopped when it decided).
  const calls = harness.llm.chatRequests();
  expect(withoutBesideDraft(calls.map((c) => c.stage))).toEqual(['gate', 'answer']);
  for (const c of calls) expect(c.headers.authorization).toBe(`Bearer ${harness.apiKey}`);

  await panel.reload();
  await panel.getByRole('tab', { name: 'History' }).click();
  const item = panel.getByRole('listitem').filter({ hasText: 'When was the Eiffel Tower completed?' }).getByRole('button').first();
  await expect(item).toBeVisible();
  await panel.reload();
  await panel.getByRole('tab', { name: 'History' }).click();
  await item.click();
  await expect(panel.getByTestId('answer')).toContainText('tallest structure in the world');
  await expect(panel.getByTestId('run-input')).toHaveText('When was the Eiffel Tower completed?');
});

test('Shift+Enter makes a new line instead of sending', async ({ configureForHarness, openPanel }) => {
  await configureForHarness();
  const panel = await openPanel();
  const box = panel.getByRole('textbox', { name: 'Question' });
  await box.fill('first line');
  await box.press('Shift+Enter');
  await box.pressSequentially('second line');
  await expect(box).toHaveValue('first line\nsecond line');
  await expect(panel.getByTestId('run-input')).toHaveCount(0);
});
