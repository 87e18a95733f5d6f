import { expect, test } from './fixtures.ts';

import { demoResponder } from '../harness/demo-responder.ts';

// What a reader checks in each answer; a new suggestion on the demo page needs an entry here.
const EXPECTED: Record<string, RegExp[]> = {
  'Who shared the 1903 Nobel Prize in Physics with Marie Curie?': [/Pierre Curie/, /Henri Becquerel/],
  'How tall is the Eiffel Tower, and who built it?': [/330 metres/, /Gustave Eiffel/],
  '屠呦呦是从哪本古籍中得到提取青蒿素的启发的？': [/葛洪/, /《肘后备急方》/],
};

test('npm start’s demo model answers every question the demo page suggests, in the extension, with sources', async ({ context, harness, configureForHarness, sidePanel }) => {
  harness.llm.setResponder(demoResponder(harness.site.docs));
  await configureForHarness();
  // As `npm start` opens it: the demo page and two articles.
  const demo = await context.newPage();
  await demo.goto(harness.site.url('/demo.html'));
  for (const p of ['/articles/marie-curie.html', '/articles/eiffel-tower.html']) await (await context.newPage()).goto(harness.site.url(p));
  const suggested = await demo.locator('h2:has-text("Questions to ask") + ul > li').allTextContents();
  expect(suggested).toHaveLength(3);
  const panelView = await sidePanel();
  const panel = panelView.page;
  for (const [i, q] of suggested.entries()) {
    expect(EXPECTED[q], `no expectation for "${q}"`).toBeDefined();
    await panel.getByRole('button', { name: 'New thread' }).click();
    await panelView.ask(q);
    await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
    const answer = panel.getByTestId('answer');
    for (const fact of EXPECTED[q]!) await expect(answer, `${i + 1}. ${q}`).toContainText(fact);
    await expect(panel.locator('ol.sources > li').first()).toBeVisible();
  }
});
