import { expect, test } from './fixtures.ts';
import { summarizeThisPage } from './scenes.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';

const userMessage = (body: unknown) => ((body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? '');

test('"Summarize this page" reaches the model with the page’s title, address and text, and is answered from that page', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView, article } = await summarizeThisPage({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;

  const promptOf = (stage: string) => userMessage(harness.llm.chatRequests().find((r) => r.stage === stage)?.body);
  // The gate, which writes the web searches, never sees the page (lib/core/flow.ts): only the question.
  expect(promptOf('gate')).toContain('Question: Summarize this page');
  expect(promptOf('gate')).not.toMatch(/Marie|kind="page"/);
  // The draft reads it: title and the address without its query string or fragment, then the start
  // of the readable text.
  expect(promptOf('draft')).toContain(`<<<DATA kind="page" title="Marie Curie – Ratify Fixture Encyclopedia" url="${harness.site.origin}/articles/marie-curie.html">>>\nMarie Skłodowska-Curie (7 November 1867 – 4 July 1934) was a Polish`);
  // Nothing of the query string reaches the model, in any call.
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toMatch(/s3cr3t-token|utm_source/);

  // The gate decided the question is about the page; the panel says so in words and in the trace.
  await expect(panel.getByTestId('gate-line')).toContainText('This question is about the page you are on, so that page was read first.');
  await panel.getByTestId('trace').locator(':scope > summary').click();
  await panel.getByTestId('library').locator('summary').click();
  await expect(panel.getByTestId('library').locator(':is([data-library-status=read], [data-library-status=cached])').filter({ hasText: 'the page you are on' })).toContainText('Marie Curie');
  // The answer rests on the page: its first source is that open tab.
  const first = panel.locator('ol.sources > li').first();
  await expect(first).toContainText('Marie Curie');
  await expect(first).toContainText('open tab');
  await expect(panel.getByTestId('answer')).toContainText('biography of Marie Curie');

  // A citation focuses the article and selects the passage there.
  await panel.getByTestId('answer').getByRole('button', { name: /^Source 1/ }).click();
  await expect.poll(() => article.evaluate(() => window.getSelection()?.toString() ?? '')).toMatch(/born in Warsaw/);
});

test('the page is shown before asking; a page on an excluded site is not sent at all', async ({ context, harness, configureForHarness, sidePanel }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9 }, answer: 'No page was given.' }));
  await configureForHarness({ privacy: { excludedDomains: ['mybank.test'] } });
  const port = new URL(harness.site.origin).port;
  const bank = await context.newPage();
  await bank.goto(`http://mybank.test:${port}/articles/louvre.html?account=12345`);
  const panelView = await sidePanel();
  const panel = panelView.page;
  await bank.bringToFront();
  const chip = panel.getByTestId('page-chip');
  await expect(chip).toContainText('This page:');
  await expect(chip).toContainText('not read: excluded site');
  await panelView.ask('Summarize this page');
  await panelView.waitForRun(1);
  const prompt = userMessage(harness.llm.chatRequests().find((r) => r.stage === 'gate')?.body);
  expect(prompt).toBe('Question: Summarize this page');
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toMatch(/mybank|Louvre|12345/);
});

test('the page the user is on is a source like any tab: its chip removed, nothing of it reaches the model; put back, it does', async ({ context, harness, configureForHarness, sidePanel }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.3, aboutPage: true }, steps: ['The page is about Marie Curie.'], facts: [{ step: 0, phrase: 'Warsaw' }] }));
  await configureForHarness();
  const article = await context.newPage();
  await article.goto(harness.site.url('/articles/marie-curie.html'));
  const panelView = await sidePanel();
  const panel = panelView.page;
  await article.bringToFront();
  const chip = panel.getByTestId('page-chip');
  await expect(chip).toContainText('Marie Curie');
  await chip.getByRole('button', { name: 'Leave this page out: it will not be sent to the model' }).click();
  await expect(chip).toHaveCount(0);
  await panelView.ask('Summarize this page');
  await panelView.waitForRun(1);
  const seen = () => harness.llm.chatRequests().map((r) => JSON.stringify(r.body));
  expect(seen().length).toBeGreaterThan(0);
  for (const body of seen()) expect(body).not.toMatch(/Skłodowska|marie-curie\.html|Ratify Fixture Encyclopedia/);

  // Put back: the next question reads it.
  await panel.getByTestId('add-page').click();
  await expect(chip).toContainText('Marie Curie');
  const before = harness.llm.chatRequests().length;
  await panelView.ask('Summarize this page');
  await panelView.waitForRun(2);
  const draft = harness.llm.chatRequests().slice(before).find((r) => r.stage === 'draft');
  expect(userMessage(draft?.body)).toContain('kind="page" title="Marie Curie – Ratify Fixture Encyclopedia"');
});
