import { expect, test } from './fixtures.ts';
import { PageMarks } from './pages/page-marks.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { clickVerify } from './verify-click.ts';

test('Verify with RAT: sentences are marked by verdict in the page and the panel shows the corrected text with sources', async ({
  context,
  worker,
  harness,
  configureForHarness,
  openPanel,
  picture,
}) => {
  const evidence = await context.newPage();
  await evidence.goto(harness.site.url('/articles/marie-curie.html'));
  const page = await context.newPage();
  const demoUrl = harness.site.url('/demo.html');
  await page.goto(demoUrl);

  harness.llm.setResponder(
    pipelineResponder({
      claims: [
        { claim: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', sentence: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', phrase: 'moved to Paris', verdict: 'supported' },
        {
          claim: 'Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.',
          sentence: 'She won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.',
          phrase: 'Nobel Prize in Chemistry',
          verdict: 'supported',
        },
        {
          claim: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
          sentence: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
          phrase: 'completed in March 1889',
          verdict: 'corrected',
          corrected: 'The Eiffel Tower was completed in 1889 and is 330 metres tall.',
        },
      ],
    }),
  );
  await configureForHarness();
  const panel = await openPanel();

  const selected = await page.evaluate(() => {
    const range = document.createRange();
    range.setStartBefore(document.getElementById('claim-curie-paris')!);
    range.setEndAfter(document.getElementById('claim-eiffel-wrong')!);
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    return sel.toString();
  });
  await clickVerify(worker, demoUrl, selected);

  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  const claims = panel.locator('.claims > li');
  await expect(claims).toHaveCount(3);
  await expect(panel.locator('.claims [data-claim-verdict=supported]')).toHaveCount(2);
  await expect(panel.locator('.claims [data-claim-verdict=corrected]')).toContainText('completed in 1889 and is 330 metres tall');
  await expect(panel.getByRole('region', { name: 'Corrected text' })).toContainText('330 metres');
  // The page the selection came from is never evidence for itself.
  await expect(panel.locator('.passage').first()).toBeAttached();
  for (const p of await panel.locator('.passage').all()) expect(await p.locator('strong').innerText()).not.toBe('Ratify demo page');
  await expect(panel.locator('ol.sources > li').first()).toContainText('Marie Curie');

  // In the page: one mark per checked sentence, by verdict, with icon and label (not colour alone).
  await expect(page.getByRole('button', { name: /^Ratify: Supported\./ }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Ratify: Corrected\./ })).toBeVisible();
  const labels = await page.locator('[data-ratify-mark][tabindex="0"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  expect(labels).toHaveLength(3);
  expect(labels.join(' | ')).toMatch(/corrected/i);
  await page.evaluate(() => window.getSelection()?.removeAllRanges());
  await page.setViewportSize({ width: 900, height: 420 });
  await page.getByRole('button', { name: /^Ratify: Corrected\./ }).hover();
  await new PageMarks(page).expectTooltipOpen();
  await picture(page, 'verify-page.png');

  await panel.setViewportSize({ width: 420, height: 1500 });
  await picture(panel, 'panel-verify.png');

  // Marks can be cleared from the panel; the page text is left as it was.
  await panel.getByRole('button', { name: 'Clear marks in the page' }).click();
  await expect(page.locator('[data-ratify-mark]')).toHaveCount(0);
  await expect(page.locator('#claim-eiffel-wrong')).toHaveText('The Eiffel Tower was completed in 1899 and is 300 metres tall.');
});

test('Verify with RAT: a selection in which the model finds no separate claim is checked as a whole, and the panel says so', async ({ context, worker, harness, configureForHarness, openPanel, picture }) => {
  const evidence = await context.newPage();
  await evidence.goto(harness.site.url('/articles/marie-curie.html'));
  const page = await context.newPage();
  const demoUrl = harness.site.url('/demo.html');
  await page.goto(demoUrl);
  harness.llm.setResponder(pipelineResponder({ claims: [] }));
  await configureForHarness();
  const panel = await openPanel();
  const selected = await page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('claim-curie-paris')!);
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    return sel.toString();
  });
  await clickVerify(worker, demoUrl, selected);
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  await expect(panel.getByTestId('gate-line')).toHaveText('The model found no separate claims in the selection, so it was checked as a whole against sources.');
  await expect(panel.locator('.claims > li')).toHaveCount(1);
  await expect(panel.locator('.claims > li').first()).toContainText(selected.trim());
  await picture(panel, 'panel-verify-whole.png');
});
