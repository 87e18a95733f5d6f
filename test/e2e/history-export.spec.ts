import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';

test('history: reopen a run without re-running it, search, delete one, clear all', async ({ harness, configureForHarness, sidePanel, picture }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.95 }, answer: (q) => `Answer about ${q.replace(/\?$/, '')}.` }));
  await configureForHarness();
  const panel = await sidePanel();
  await panel.askAndWait('Who painted the Mona Lisa?');
  await expect(panel.input).toHaveText('Who painted the Mona Lisa?'); // a thread of one question
  await expect(panel.status).toHaveText('Done');
  await panel.newThread();
  await panel.askAndWait('How tall is Mount Fuji?');
  await expect(panel.input).toHaveText('How tall is Mount Fuji?'); // a thread of one question
  await expect(panel.status).toHaveText('Done');
  const callsBefore = harness.llm.chatRequests().length;

  const { history } = panel;
  await history.open();
  const items = history.items;
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText('How tall is Mount Fuji?'); // newest first
  await panel.page.setViewportSize({ width: 420, height: 360 });
  await picture(panel.page, 'panel-history.png');

  await history.search.fill('mona');
  await expect(items).toHaveCount(1);
  await history.reopen(items.first());
  await expect(panel.answer).toContainText('Answer about Who painted the Mona Lisa.');
  expect(harness.llm.chatRequests().length).toBe(callsBefore); // reopened from IndexedDB, not re-run

  await history.open();
  await history.search.fill('');
  await expect(items).toHaveCount(2);
  await history.delete(history.item('Mount Fuji'));
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('Mona Lisa');

  await history.clearAll();
  await expect(panel.page.getByText('No runs yet.')).toBeVisible();
});

test('export: Copy as Markdown and Copy as text put the answer and its sources on the clipboard', async ({ context, harness, configureForHarness, sidePanel }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.95 }, answer: 'The Louvre opened as a museum in **1793**.' }));
  await configureForHarness();
  const panel = await sidePanel();
  await panel.askAndWait('When did the Louvre open as a museum?');
  await expect(panel.input).toHaveText('When did the Louvre open as a museum?'); // a thread of one question
  await expect(panel.status).toHaveText('Done');

  const md = panel.button('Copy as Markdown');
  await md.focus();
  await panel.page.keyboard.press('Enter'); // reachable by keyboard
  await expect(panel.exportStatus).toHaveText('Copied to the clipboard');
  const markdown = await panel.clipboard();
  expect(markdown).toBe('**Q:** When did the Louvre open as a museum?\n\nThe Louvre opened as a museum in **1793**.\n');

  await panel.copy('text');
  // Plain text too says what was asked.
  await expect.poll(() => panel.clipboard()).toBe('Q: When did the Louvre open as a museum?\n\nThe Louvre opened as a museum in 1793.\n');
});
