import { expect, test } from './fixtures.ts';
import { dataBlocks, pipelineResponder } from '../harness/pipeline-responder.ts';
import { pagesCached } from './page-cache.ts';

test('an English question is answered from a French tab, through a query the model writes in French from the library catalogue', async ({ context, harness, configureForHarness, sidePanel }) => {
  const louvre = await context.newPage();
  await louvre.goto(harness.site.url('/articles/louvre.html'));
  const eiffel = await context.newPage();
  await eiffel.goto(harness.site.url('/articles/eiffel-tower.html'));

  const scripted = pipelineResponder({
    gate: { label: 'clear', confidence: 0.2 },
    facts: [{ phrase: 'inaugurée en 1989' }],
    // Asked again, the model stays in the question's language: only the catalogue says French.
    retryQuery: () => 'year the glass pyramid was inaugurated',
    finalAnswer: 'The glass pyramid was inaugurated in 1989.',
  });
  harness.llm.setResponder((req) => {
    if (req.stage !== 'draft') return scripted(req);
    // As the draft prompt asks: a query in the language of a source the catalogue lists.
    const catalogue = dataBlocks(req.lastUser).find((b) => b.attrs.kind === 'catalogue')?.text ?? '';
    const french = /Louvre.*language: fr/.test(catalogue) ? ' || pyramide de verre inaugurée' : '';
    return { json: { steps: [{ step: 'The glass pyramid was inaugurated in 1989.', query: `glass pyramid entrance inaugurated${french}` }] } };
  });
  await configureForHarness({});

  const panelView = await sidePanel();
  const panel = panelView.page;
  // The tabs have been open a while, as a user's are: read ahead, so their languages are known.
  await expect.poll(() => pagesCached(panel), { timeout: 15_000 }).toContain(harness.site.url('/articles/louvre.html'));
  await panelView.ask('In which year was the glass pyramid at the main entrance inaugurated?');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });

  // The draft prompt listed the open tabs with their languages, never their text.
  const draft = harness.llm.chatRequests().find((r) => r.stage === 'draft');
  expect(JSON.stringify(draft?.body)).toContain('language: fr');
  expect(JSON.stringify(draft?.body)).not.toContain('Ieoh Ming Pei');

  await expect(panel.getByTestId('answer')).toContainText('inaugurated in 1989');
  const sources = panel.locator('ol.sources > li');
  await expect(sources).toHaveCount(1);
  await expect(sources.nth(0)).toContainText('Louvre');
  await expect(sources.nth(0)).toContainText('open tab');
  await expect(sources.nth(0)).toContainText('inaugurée en 1989');
});
