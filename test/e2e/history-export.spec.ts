import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import type { Page } from '@playwright/test';

async function ask(panel: Page, q: string) {
  const box = panel.getByRole('textbox', { name: 'Question' });
  await box.fill(q);
  await box.press('Enter');
  // This run's own "Done": the panel shows the new question first, so a "Done" left on screen by
  // the previous run cannot satisfy the wait.
  await expect(panel.getByTestId('run-input')).toHaveText(q);
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 20_000 });
}

test('history: reopen a run without re-running it, search, delete one, clear all', async ({ harness, configureForHarness, openPanel, picture }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.95 }, answer: (q) => `Answer about ${q.replace(/\?$/, '')}.` }));
  await configureForHarness();
  const panel = await openPanel();
  await ask(panel, 'Who painted the Mona Lisa?');
  await panel.getByRole('button', { name: 'New thread' }).click();
  await ask(panel, 'How tall is Mount Fuji?');
  const callsBefore = harness.llm.chatRequests().length;

  await panel.getByRole('tab', { name: 'History' }).click();
  const items = panel.locator('.history-list li');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText('How tall is Mount Fuji?'); // newest first
  await panel.setViewportSize({ width: 420, height: 360 });
  await picture(panel, 'panel-history.png');

  await panel.getByRole('searchbox', { name: 'Search history' }).fill('mona');
  await expect(items).toHaveCount(1);
  await items.first().getByRole('button').first().click();
  await expect(panel.getByTestId('answer')).toContainText('Answer about Who painted the Mona Lisa.');
  expect(harness.llm.chatRequests().length).toBe(callsBefore); // reopened from IndexedDB, not re-run

  await panel.getByRole('tab', { name: 'History' }).click();
  await panel.getByRole('searchbox', { name: 'Search history' }).fill('');
  await expect(items).toHaveCount(2);
  await items.filter({ hasText: 'Mount Fuji' }).getByRole('button', { name: /^Delete/ }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('Mona Lisa');

  panel.once('dialog', (d) => void d.accept());
  await panel.getByRole('button', { name: 'Clear all' }).click();
  await expect(panel.getByText('No runs yet.')).toBeVisible();
});

test('export: Copy as Markdown and Copy as text put the answer and its sources on the clipboard', async ({ context, harness, configureForHarness, openPanel }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.95 }, answer: 'The Louvre opened as a museum in **1793**.' }));
  await configureForHarness();
  const panel = await openPanel();
  await ask(panel, 'When did the Louvre open as a museum?');

  const md = panel.getByRole('button', { name: 'Copy as Markdown' });
  await md.focus();
  await panel.keyboard.press('Enter'); // reachable by keyboard
  await expect(panel.getByTestId('export-status')).toHaveText('Copied to the clipboard');
  const markdown = await panel.evaluate(() => navigator.clipboard.readText());
  expect(markdown).toBe('**Q:** When did the Louvre open as a museum?\n\nThe Louvre opened as a museum in **1793**.\n');

  await panel.getByRole('button', { name: 'Copy as text' }).click();
  // Plain text too says what was asked.
  await expect.poll(() => panel.evaluate(() => navigator.clipboard.readText())).toBe('Q: When did the Louvre open as a museum?\n\nThe Louvre opened as a museum in 1793.\n');
});
