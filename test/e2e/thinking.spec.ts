import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { withoutBesideDraft } from '../harness/fake-llm-request.ts';

const THOUGHT = 'The user asks a date. Maybe {"answer": "1900"}? I could cite [P1]. No: 1889, say it plainly.';

test('a thinking model: its thought (braces, "[P1]") is never the answer; the trace shows it folded, with its length', async ({ harness, configureForHarness, sidePanel }) => {
  const answer = 'The Eiffel Tower was completed in 1889.';
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9 }, answer }));
  // Qwen3 / DeepSeek-R1 through a local server: the thought comes first, in the content.
  harness.llm.setModelBehaviour({ thinking: { style: 'think-tag', text: THOUGHT } });
  await configureForHarness();

  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('When was the Eiffel Tower completed?');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 20_000 });
  await expect(panel.getByTestId('answer')).toHaveText(answer);
  await expect(panel.getByTestId('answer')).not.toContainText('1900');
  expect(withoutBesideDraft(harness.llm.chatRequests().map((c) => c.stage))).toEqual(['gate', 'answer']);

  await panel.getByTestId('trace').locator('summary').first().click();
  const thinking = panel.getByTestId('thinking');
  await expect(thinking.locator('summary')).toHaveText(`The model thought before answering (${(2 * THOUGHT.length).toLocaleString('en-US')} characters)`);
  await expect(thinking).not.toHaveAttribute('open', '');
  await panel.screenshot({ path: test.info().outputPath('thinking-trace.png') });
});
