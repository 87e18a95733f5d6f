import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { holdReplies } from '../harness/held-replies.ts';

const scenario = pipelineResponder({
  gate: { label: 'clear', confidence: 0.1 },
  steps: ['Marie Curie was born in Warsaw in 1867.', 'She moved to Paris in 1891.', 'She won the Nobel Prize in Physics in 1903.', 'She won the Nobel Prize in Chemistry in 1911.'],
  finalAnswer: 'Marie Curie, born in Warsaw in 1867, moved to Paris in 1891 and won Nobel Prizes in 1903 and 1911.',
});

test('a run survives the browser stopping the worker mid-run: it resumes from its last checkpoint', async ({ context, worker, harness, configureForHarness, sidePanel }) => {
  const tab = await context.newPage();
  await tab.goto(harness.site.url('/articles/marie-curie.html'));
  harness.llm.setResponder(scenario);
  harness.llm.setLatency({ firstTokenMs: 300, tokensPerSec: 200 });
  // One step after another, so that the worker stops between two checkpoints.
  await configureForHarness({ pipeline: { speculate: false } });
  const panel = await sidePanel();
  await panel.ask('Tell me about Marie Curie’s life.');
  // Wait until the first step is revised and checkpointed, then stop the worker.
  await expect(panel.page.locator('.step[data-step="0"]:not(.step-pending):not(.step-running)')).toBeVisible({ timeout: 20_000 });
  const callsBefore = harness.llm.chatRequests().map((r) => r.stage);
  // Mark this worker instance, so we can tell that a new one finished the run.
  await worker.evaluate(() => Object.assign(globalThis, { ratifyTestEpoch: 1 }));
  const cdp = await context.newCDPSession(panel.page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');

  await expect(panel.status).toHaveText('Done', { timeout: 30_000 });
  await expect(panel.answer).toContainText('won Nobel Prizes in 1903 and 1911');
  // Resumed, not restarted: the gate and the draft were not asked again.
  const stages = harness.llm.chatRequests().map((r) => r.stage);
  expect(stages.filter((s) => s === 'gate')).toHaveLength(1);
  expect(stages.filter((s) => s === 'draft')).toHaveLength(1);
  expect(stages.length).toBeGreaterThan(callsBefore.length);
  await expect(panel.steps).toHaveCount(4);
  // The worker that finished it is a new instance (the panel's reconnect started it).
  const current = await context.serviceWorkers().at(-1)?.evaluate(() => (globalThis as { ratifyTestEpoch?: number }).ratifyTestEpoch ?? 0);
  expect(current).toBe(0);
});

test('closing the panel mid-run loses nothing: the run finishes and reopening shows it', async ({ harness, configureForHarness, sidePanel }) => {
  harness.llm.setResponder(scenario);
  harness.llm.setLatency({ firstTokenMs: 200, tokensPerSec: 300 });
  await configureForHarness();
  const panel = await sidePanel();
  await panel.ask('Tell me about Marie Curie’s life.');
  await expect(panel.page.getByRole('status').filter({ hasText: /step|Thinking|Reading/ })).toBeVisible();
  await panel.page.close();

  await expect.poll(() => harness.llm.chatRequests().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(6); // gate, draft, 4 revisions
  const again = await sidePanel();
  await expect(again.status).toHaveText('Done', { timeout: 30_000 });
  await expect(again.answer).toContainText('won Nobel Prizes in 1903 and 1911');
});

test('Cancel stops the run at once and keeps what was done', async ({ harness, configureForHarness, sidePanel }) => {
  // The model's first reply is held until the end of the test: "at once" is before it arrives.
  const held = holdReplies(scenario, () => true);
  harness.llm.setResponder(held.responder);
  await configureForHarness();
  const panel = await sidePanel();
  await panel.ask('Tell me about Marie Curie’s life.');
  const cancel = panel.button('Cancel');
  await expect(cancel).toBeVisible();
  await expect.poll(() => held.pending()).toBe(1);
  await cancel.click();
  await expect(panel.status).toHaveText('Cancelled');
  // Cancelled while the model was still to answer, and the call it was waiting on was dropped.
  await expect.poll(() => held.abandoned()).toBe(1);
  expect(held.requests).toHaveLength(1);
  await expect(panel.button('Retry')).toBeVisible();
  await expect(panel.input).toHaveText('Tell me about Marie Curie’s life.');
  held.release();
});
