import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { clickVerify } from './verify-click.ts';

// test/fixtures/site/pdf/glacier-survey.pdf (made by make-pdf.ts beside it): four pages, the
// findings on page 3. The fixture site serves it as application/pdf.
const PDF_PATH = '/pdf/glacier-survey.pdf';
const FINDING = 'The Kessler Glacier retreated 212 metres between 2014 and 2024.';

// The first PDF of a browser session starts the offscreen document and pdf.js (a 1.3 MB worker):
// on a shared, busy machine that alone can take seconds.
test.describe.configure({ timeout: 90_000 });

/** The URL of tab `id` as the browser has it now. */
const tabUrl = (worker: import('@playwright/test').Worker, id: number) => worker.evaluate(async (tabId) => (await chrome.tabs.get(tabId)).url ?? '', id);

test('a PDF open in a tab is a source: its citation names the page and opens the PDF there', async ({ context, worker, harness, configureForHarness, sidePanel, picture }) => {
  const pdfUrl = harness.site.url(PDF_PATH);
  const pdfTab = await context.newPage();
  await pdfTab.goto(pdfUrl);
  const pdfTabId = await worker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]?.id ?? -1, pdfUrl);
  expect(pdfTabId).toBeGreaterThan(0);

  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.2 },
      steps: ['The Kessler Glacier retreated about 200 metres in the last decade.'],
      facts: [{ step: 0, phrase: 'retreated 212 metres', revised: FINDING }],
      finalAnswer: `${FINDING} Its terminus now lies at 2,380 metres.`,
    }),
  );
  await configureForHarness({ search: { wikipedia: { enabled: false } } });
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('How far has the Kessler Glacier retreated?');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 45_000 });

  // The PDF tab was read (not skipped as "no readable text") and is the cited source, on page 3.
  await panel.getByTestId('trace').locator(':scope > summary').click();
  const library = panel.getByTestId('library');
  await library.locator('summary').click();
  await expect(library.locator(':is([data-library-status=read], [data-library-status=cached])', { hasText: /glacier-survey\.pdf|Kessler/ })).toContainText('open tab');
  const source = panel.locator('ol.sources > li').filter({ hasText: 'Survey of the Kessler Glacier, 2024' });
  await expect(source).toContainText('open tab');
  const quote = source.locator('.quote').filter({ hasText: 'retreated 212 metres' });
  await expect(quote.locator('.quote-page')).toHaveText('p. 3');
  await library.locator('summary').click(); // folded again for the picture
  await panel.setViewportSize({ width: 420, height: 900 });
  await picture(panel, 'pdf-citation.png');

  // The citation turns the open PDF tab to page 3 and brings it forward.
  await quote.click();
  await expect.poll(() => tabUrl(worker, pdfTabId)).toBe(`${pdfUrl}#page=3`);
  await expect.poll(() => worker.evaluate(async (id) => (await chrome.tabs.get(id)).active, pdfTabId)).toBe(true);

  // With the tab closed, it opens the PDF at page 3 in a new tab.
  await pdfTab.close();
  await panel.bringToFront();
  await panel.getByTestId('answer').getByRole('button', { name: /^Source 1/ }).click();
  await expect
    .poll(() => worker.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.url ?? t.pendingUrl ?? '')))
    .toContain(`${pdfUrl}#page=3`);
});

test('"Verify with RAT" on a selection inside a PDF: the PDF is the origin, the panel says marks cannot be drawn there', async ({ context, worker, harness, configureForHarness, openPanel, picture }) => {
  // Evidence in another tab; the PDF, as the selection's own page, is never evidence for itself.
  harness.site.addPage('/notes/kessler.html', `<!DOCTYPE html><html lang="en"><head><title>Field notes: Kessler Glacier</title></head><body><article><h1>Field notes</h1><p>${FINDING} The survey used radar along four profiles.</p></article></body></html>`);
  const notes = await context.newPage();
  await notes.goto(harness.site.url('/notes/kessler.html'));
  const pdfUrl = harness.site.url(PDF_PATH);
  const pdfTab = await context.newPage();
  await pdfTab.goto(pdfUrl);

  harness.llm.setResponder(pipelineResponder({ claims: [{ claim: FINDING, phrase: 'retreated 212 metres', verdict: 'supported' }] }));
  await configureForHarness({ search: { wikipedia: { enabled: false } } });
  const panel = await openPanel();
  // Chrome's viewer is its own frame where content scripts cannot run: the menu's selectionText
  // is all there is, with the PDF tab as the tab clicked in.
  await clickVerify(worker, pdfUrl, FINDING);

  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 45_000 });
  await expect(panel.getByTestId('run-input')).toHaveText(FINDING);
  await expect(panel.locator('.claims > li')).toHaveCount(1);
  await expect(panel.locator('.claims > li').first()).toHaveAttribute('data-claim-verdict', 'supported');
  await expect(panel.getByTestId('marks-pdf')).toHaveText(/in a PDF, where marks cannot be drawn/);
  await panel.setViewportSize({ width: 420, height: 900 });
  await picture(panel, 'pdf-verify.png');
  // The source is the notes tab, not the PDF the selection came from (skipped as its source).
  const sources = panel.locator('ol.sources > li');
  await expect(sources).toHaveCount(1);
  await expect(sources.first()).toContainText('Field notes');
  await panel.getByTestId('trace').locator(':scope > summary').click();
  const library = panel.getByTestId('library');
  await library.locator('summary').click();
  await expect(library.locator('[data-library-status=skipped]', { hasText: /glacier-survey\.pdf|Kessler Glacier, 2024/ })).toContainText("the page being checked");
});
