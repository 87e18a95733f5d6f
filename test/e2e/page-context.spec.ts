import { expect, test } from './fixtures.ts';
import { ask, done, summarizeThisPage } from './scenes.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';

const userMessage = (body: unknown) => ((body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? '');

test('"Summarize this page" reaches the model with the page’s title, address and text, and is answered from that page', async ({ context, harness, configureForHarness, openPanel }) => {
  const { panel, article } = await summarizeThisPage({ context, harness, configureForHarness, openPanel });

  const gate = harness.llm.chatRequests().find((r) => r.stage === 'gate');
  const prompt = userMessage(gate?.body);
  expect(prompt).toContain('Question: Summarize this page');
  // Title and the address without its query string or fragment; then the start of the readable text.
  expect(prompt).toContain(`<<<DATA kind="page" title="Marie Curie – Ratify Fixture Encyclopedia" url="${harness.site.origin}/articles/marie-curie.html">>>\nMarie Skłodowska-Curie (7 November 1867 – 4 July 1934) was a Polish`);
  // Nothing of the query string reaches the model, in any call.
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toMatch(/s3cr3t-token|utm_source/);

  // The gate decided the question is about the page; the panel says so in words and in the trace.
  await expect(panel.getByTestId('gate-line')).toContainText('This question is about the page you are on, so that page was read first.');
  await panel.getByTestId('trace').locator(':scope > summary').click();
  await panel.getByTestId('library').locator('summary').click();
  await expect(panel.getByTestId('library').locator('[data-library-status=read]').filter({ hasText: 'the page you are on' })).toContainText('Marie Curie');
  // The answer rests on the page: its first source is that open tab.
  const first = panel.locator('ol.sources > li').first();
  await expect(first).toContainText('Marie Curie');
  await expect(first).toContainText('open tab');
  await expect(panel.getByTestId('answer')).toContainText('biography of Marie Curie');

  // A citation focuses the article and selects the passage there.
  await panel.getByTestId('answer').getByRole('button', { name: /^Source 1/ }).click();
  await expect.poll(() => article.evaluate(() => window.getSelection()?.toString() ?? '')).toMatch(/born in Warsaw/);
});

test('the page is shown before asking; a page on an excluded site is not sent at all', async ({ context, harness, configureForHarness, openPanel }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9 }, answer: 'No page was given.' }));
  await configureForHarness({ privacy: { excludedDomains: ['mybank.test'] } });
  const port = new URL(harness.site.origin).port;
  const bank = await context.newPage();
  await bank.goto(`http://mybank.test:${port}/articles/louvre.html?account=12345`);
  const panel = await openPanel();
  await bank.bringToFront();
  const plan = panel.getByTestId('scope-plan');
  await expect(plan).toContainText('This page:');
  await expect(plan).toContainText('not read: excluded site');
  await ask(panel, 'Summarize this page');
  await done(panel);
  const prompt = userMessage(harness.llm.chatRequests().find((r) => r.stage === 'gate')?.body);
  expect(prompt).toBe('Question: Summarize this page');
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toMatch(/mybank|Louvre|12345/);
});
