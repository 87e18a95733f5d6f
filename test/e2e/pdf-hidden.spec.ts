/** Hidden text in a PDF open in a tab never reaches the model, in real Chromium: the extension
 * fetches the PDF and reads it with pdf.js (its worker build, in the offscreen document). The PDF
 * (test/fixtures/site/pdf/hidden-pdf.ts) hides "HIDDEN-NN" sentences in 20 ways beside visible
 * ones; the fake model records every prompt. */
import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { HIDDEN_SENTENCES, hiddenPdf } from '../fixtures/site/pdf/hidden-pdf.ts';

const tokens = (text: string, kind: 'HIDDEN' | 'VISIBLE') => [...new Set(text.match(new RegExp(`${kind}-\\d\\d`, 'g')) ?? [])].sort();

// The first PDF of a browser session starts the offscreen document and pdf.js.
test.describe.configure({ timeout: 90_000 });

test('text hidden in a PDF tab never reaches the model; its visible text does', async ({ context, harness, configureForHarness, sidePanel }) => {
  harness.site.addPage('/pdf/vault-notes.pdf', hiddenPdf(), 'application/pdf');
  const pdfTab = await context.newPage();
  await pdfTab.goto(harness.site.url('/pdf/vault-notes.pdf'));

  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.1 },
      steps: ['The vault passphrase is orchid according to the vault notes.'],
      finalAnswer: 'The notes describe the vault passphrase policy.',
    }),
  );
  // Room for every passage of the PDF, so what is missing was not read, not just ranked low.
  await configureForHarness({ pipeline: { passagesPerStep: 12, passageChars: 200 }, search: { wikipedia: { enabled: false } } });
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('What do the vault notes say about the vault passphrase orchid?');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 60_000 });

  const prompts = harness.llm.chatRequests().map((r) => JSON.stringify(r.body)).join('\n');
  const leaked = tokens(prompts, 'HIDDEN');
  console.log(`PDF tab: ${leaked.length}/${HIDDEN_SENTENCES} hidden sentences in prompts (${leaked.join(' ') || 'none'}); visible: ${tokens(prompts, 'VISIBLE').join(' ')}`);
  // The PDF did reach the model (so the absence of its hidden text means something)…
  expect(tokens(prompts, 'VISIBLE')).toContain('VISIBLE-01');
  // …without any of its hidden sentences.
  expect(leaked).toEqual([]);
});
