/** The panel's own first-hour slips: the @ picker with nothing to pick, a question asked while an
 * answer is being written, and the history (which page, nothing-selected runs, deleting). */
import { expect, test } from './fixtures.ts';

import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { clickVerify } from './verify-click.ts';

const userMessage = (body: unknown) => ((body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? '');

test('Enter in the @ picker when only greyed-out tabs match sends nothing; the list says why and Escape closes it', async ({ context, harness, configureForHarness, sidePanel, picture }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9 }, answer: 'An answer.' }));
  await configureForHarness();
  const version = await context.newPage();
  await version.goto('chrome://version');
  const panelView = await sidePanel();
  const panel = panelView.page;
  const box = panel.getByRole('textbox', { name: 'Question' });
  await box.pressSequentially('@About');
  const option = panel.getByRole('option').filter({ hasText: 'About Version' });
  await expect(option).toHaveAttribute('aria-disabled', 'true');
  await box.press('Enter');
  await expect(box).toHaveValue('@About');
  await expect(panel.getByTestId('picker-nothing')).toHaveText('None of these can be chosen. Escape closes this list (Enter then asks).');
  await panel.setViewportSize({ width: 420, height: 600 });
  await picture(panel, 'picker-nothing.png');
  expect(harness.llm.chatRequests()).toHaveLength(0);
  await expect(panel.locator('article.run')).toHaveCount(0);
  await box.press('Escape');
  await expect(panel.getByRole('listbox')).toHaveCount(0);
  // A question sent closes the picker.
  await box.fill('What is');
  await box.pressSequentially(' @');
  await expect(panel.getByRole('listbox')).toHaveCount(1);
  await box.press('Escape');
  await box.press('Enter');
  await panelView.waitForRun(1);
  await expect(panel.getByRole('listbox')).toHaveCount(0);
});

test('a question asked while the answer is being written waits for it, says so, and then sees it', async ({ harness, configureForHarness, sidePanel, picture }) => {
  const base = pipelineResponder({
    gate: { label: 'clear', confidence: 0.2, question: (q) => (/born/.test(q) ? 'Where was Marie Curie born?' : q) },
    steps: (q) => (/born/.test(q) ? ['Marie Curie was born in Warsaw.'] : ['Marie Curie was a physicist and chemist.']),
    facts: [{ phrase: 'born in Warsaw' }, { phrase: 'physicist and chemist' }],
    finalAnswer: 'Marie Curie was a physicist and chemist.',
  });
  // The first answer's revision is held until the test lets it go: the question is asked mid-answer.
  let release: () => void = () => {};
  const released = new Promise<void>((ok) => (release = ok));
  harness.llm.setResponder(async (req) => {
    if (req.stage === 'revise') await released;
    return base(req);
  });
  await configureForHarness();
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('Who was Marie Curie?');
  await expect(panel.getByTestId('run-status')).toHaveText('Running');
  await panelView.ask('Where was she born?');
  const pending = panel.getByTestId('pending');
  await expect(pending).toContainText('Your question waits for the answer above');
  await expect(pending).toContainText('It is asked as soon as that answer is finished, and sees it.');
  await expect(panel.getByRole('textbox', { name: 'Question' })).toHaveValue('');
  // Only one run at a time in the thread.
  await expect(panel.locator('article.run')).toHaveCount(1);
  await panel.setViewportSize({ width: 420, height: 900 });
  await picture(panel, 'question-waits.png');
  release();
  await panelView.waitForRun(2);
  await expect(pending).toHaveCount(0);
  await expect(panel.locator('article.run')).toHaveCount(2);
  const drafts = harness.llm.chatRequests().filter((r) => r.stage === 'draft');
  expect(drafts).toHaveLength(2);
  // The second question's calls were made with the first answer in the conversation.
  expect(userMessage(drafts[1]?.body)).toContain('Q1: Who was Marie Curie?\nA1: Marie Curie was a physicist and chemist.');
});

test('history: a question about a page names the page; Verify with nothing selected leaves no untitled row; ✕ can be undone', async ({ context, worker, harness, configureForHarness, sidePanel, picture }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9, aboutPage: true }, finalAnswer: 'A biography of Marie Curie.' }));
  await configureForHarness();
  const article = await context.newPage();
  const url = harness.site.url('/articles/marie-curie.html');
  await article.goto(url);
  const panelView = await sidePanel();
  const panel = panelView.page;
  await article.bringToFront();
  await panel.getByTestId('page-chip').getByText('Marie Curie').first().waitFor();
  await panelView.ask('Summarize this page');
  await panelView.waitForRun(1);
  // Verify pressed with nothing selected: the panel says so; history keeps nothing of it.
  await clickVerify(worker, url, '');
  await expect(panel.getByRole('alert')).toContainText('Nothing to check', { timeout: 20_000 });

  await panel.getByRole('tab', { name: 'History' }).click();
  const items = panel.locator('.history-list li');
  await expect(items).toHaveCount(1);
  await expect(items.first().getByTestId('history-page')).toHaveText('on “Marie Curie – Ratify Fixture Encyclopedia”');
  await panel.setViewportSize({ width: 420, height: 400 });
  await picture(panel, 'history-page.png');

  await items.first().getByRole('button', { name: /^Delete/ }).click();
  await expect(items).toHaveCount(0);
  const deleted = panel.getByTestId('thread-deleted');
  await expect(deleted).toContainText('Deleted “Summarize this page”.');
  await picture(panel, 'history-deleted.png');
  await deleted.getByRole('button', { name: 'Undo' }).click();
  await expect(items).toHaveCount(1);
  await expect(deleted).toHaveCount(0);
  await items.first().getByRole('button').first().click();
  await expect(panel.getByTestId('answer')).toContainText('A biography of Marie Curie.');
});
