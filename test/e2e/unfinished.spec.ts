import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { positionOf, SECTION } from '../harness/prompt-reader.ts';

const scripted = pipelineResponder({
  gate: { label: 'clear', confidence: 0.1 },
  steps: ['Marie Curie was born in Warsaw in 1867.', 'She moved to Paris in 1891.'],
  facts: [
    { step: 0, phrase: 'born in Warsaw' },
    { step: 1, phrase: 'In late 1891 she moved to Paris' },
  ],
  finalAnswer: 'Marie Curie was born in Warsaw in 1867 and moved to Paris in 1891.',
});

test('an answer cut off by an error is labelled unfinished, is not offered for export, and Retry continues where it stopped', async ({ context, harness, configureForHarness, sidePanel, picture }) => {
  test.setTimeout(90_000); // the client's own retries of the broken reply take a few seconds
  const tab = await context.newPage();
  await tab.goto(harness.site.url('/articles/marie-curie.html'));
  // The last step's reply breaks off while it writes the answer, on every try, until healed.
  let healed = false;
  harness.llm.setResponder(async (req) => {
    const reply = await scripted(req);
    const at = positionOf(req.lastUser, SECTION.currentStep);
    if (healed || req.stage !== 'revise' || at?.at !== 2 || at.total !== 2 || !('json' in reply)) return reply;
    const content = JSON.stringify(reply.json);
    return { fault: { kind: 'truncate', afterChars: Math.floor(content.length * 0.97), content } };
  });
  await configureForHarness({ pipeline: { speculate: false } });
  const panel = await sidePanel();
  await panel.ask('Where was Marie Curie born, and when did she move to Paris?');

  await expect(panel.status).toHaveText('Failed', { timeout: 30_000 });
  const alert = panel.alert;
  // Step 2 was committed before its answer broke off (its text, citations and judgement had streamed).
  await expect(alert.getByTestId('stopped-at')).toHaveText('Stopped at writing the answer. Retry continues from there; Run again starts over.');
  const unfinished = panel.page.getByTestId('unfinished');
  await expect(unfinished).toHaveText('Unfinished — the run stopped at writing the answer. This is not the final answer: it has no sources and is not exported.');
  const answer = panel.answer;
  await expect(answer).toContainText('Marie Curie was born in Warsaw in 1867 and moved to Paris in 1891.');
  // No citation pointing nowhere, and nothing to copy as if it were final.
  await expect(answer.locator('.cite')).toHaveCount(0);
  await expect(answer).not.toContainText(/\[\d+\]/);
  await expect(panel.button('Copy as Markdown')).toHaveCount(0);
  await expect(panel.button('Copy as text')).toHaveCount(0);
  await expect(panel.button('Run again')).toBeVisible();
  await picture(panel.page, 'unfinished-answer.png', { fullPage: true });

  healed = true;
  const before = harness.llm.chatRequests().length;
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(panel.status).toHaveText('Done', { timeout: 30_000 });
  // Continued, not restarted: only the missing answer was written.
  expect(harness.llm.chatRequests().slice(before).map((r) => r.stage)).toEqual(['compose']);
  await expect(unfinished).toHaveCount(0);
  await expect(panel.alert).toHaveCount(0);
  // Both steps' evidence, as a chip that opens its source: one passage of the article (its opening
  // sections, joined) holds both facts, and the source shows each step's quote.
  await expect(answer).toHaveText(/^Marie Curie was born in Warsaw in 1867 and moved to Paris in 1891\.\s*1$/);
  await expect(answer.locator('button.cite')).toHaveCount(1);
  const source = panel.sources;
  await expect(source).toHaveCount(1);
  await expect(source.first()).toContainText('Marie Curie');
  await expect(source.first().locator('button.quote')).toHaveText(['1“born in Warsaw”', '1“In late 1891 she moved to Paris”']);
  await expect(panel.button('Copy as Markdown')).toBeVisible();
  await picture(panel.page, 'continued-answer.png', { fullPage: true });
});
