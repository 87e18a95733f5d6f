/** The side panel's main situations (test/e2e/scenes.ts), each at 320 and 600 px, light and dark. */
import { test } from '../e2e/fixtures.ts';
import { answerFirst, chooseTabs, followUp, summarizeThisPage } from '../e2e/scenes.ts';
import { shoot } from './shoot.ts';

test('page context: "Summarize this page"', async ({ context, harness, configureForHarness, openPanel }) => {
  const { panel } = await summarizeThisPage({ context, harness, configureForHarness, openPanel });
  await shoot(panel, 'panel-page');
});

test('a follow-up, understood from the thread', async ({ context, harness, configureForHarness, openPanel }) => {
  const { panel } = await followUp({ context, harness, configureForHarness, openPanel });
  await shoot(panel, 'panel-thread');
});

test('choosing tabs with @', async ({ context, harness, configureForHarness, openPanel }) => {
  const { panel } = await chooseTabs({ context, harness, configureForHarness, openPanel }, { run: false });
  await shoot(panel, 'panel-tab-picker', { fullPage: false, height: 560 });
});

test('answer first, with a table', async ({ context, harness, configureForHarness, openPanel }) => {
  const { panel } = await answerFirst({ context, harness, configureForHarness, openPanel });
  await shoot(panel, 'panel-answer-first');
});

test('the welcome card', async ({ openPanel }) => {
  const panel = await openPanel();
  await panel.getByTestId('onboarding').waitFor();
  await panel.getByText('An API key', { exact: true }).click();
  await shoot(panel, 'panel-welcome');
});
