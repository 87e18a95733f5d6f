/** Marks only on what the user can see (issue 20, item 4): a verified paragraph holds a sentence
 * the page hides (opacity 0). It is not sent as part of the selection, not checked, and gets no
 * mark, even when the model names it as a claim; the panel says how many sentences were left out
 * and why. Before, the hidden sentence got a "Supported" mark the page could read: an oracle for
 * another tab's secret. */
import type { Worker } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { clickVerify } from './verify-click.ts';

const VISIBLE_1 = 'Marie Curie won the Nobel Prize in Physics in 1903.';
const HIDDEN = 'The account code begins with the digit 9.';
const VISIBLE_2 = 'She was born in Warsaw in 1867.';

async function marksOnPage(worker: Worker, url: string): Promise<number> {
  return worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    const [res] = await chrome.scripting.executeScript({
      target: { tabId: tab!.id as number },
      func: () => (globalThis as unknown as Record<string, { count(): number } | undefined>).__ratifyPageMarks?.count() ?? 0,
    });
    return res!.result as number;
  }, url);
}

test('a hidden sentence inside a verified selection is neither checked nor marked, and the panel says so', async ({ context, worker, harness, configureForHarness, openPanel }) => {
  harness.site.addPage('/hidden/oracle.html', `<!doctype html><html><head><title>Curie notes</title></head><body><article><p id="para">${VISIBLE_1} <span id="hid" style="opacity:0">${HIDDEN}</span> ${VISIBLE_2}</p></article></body></html>`);
  harness.llm.setResponder(
    pipelineResponder({
      // A model told to by the page would name the hidden sentence as a claim too: it must get no mark.
      claims: [
        { claim: VISIBLE_1, sentence: VISIBLE_1, phrase: 'Nobel Prize', verdict: 'supported' },
        { claim: HIDDEN, sentence: HIDDEN, phrase: 'Nobel Prize', verdict: 'supported' },
        { claim: VISIBLE_2, sentence: VISIBLE_2, phrase: 'Warsaw', verdict: 'supported' },
      ],
    }),
  );
  await configureForHarness();
  const evidence = await context.newPage();
  await evidence.goto(harness.site.url('/articles/marie-curie.html'));
  const page = await context.newPage();
  const url = harness.site.url('/hidden/oracle.html');
  await page.goto(url);
  const panel = await openPanel();
  await page.bringToFront();
  const selected = await page.evaluate(() => {
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('para')!);
    sel.addRange(range);
    return sel.toString();
  });
  // The browser's own selection text holds the hidden sentence; Ratify must not use it.
  expect(selected).toContain(HIDDEN);
  await clickVerify(worker, url, selected);
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });

  // The selection sent to the model (the search plan and the claims call) is its visible text.
  const first = harness.llm.chatRequests().filter((r) => r.stage === 'searches' || r.stage === 'claims');
  expect(first).toHaveLength(2);
  for (const r of first) {
    expect(JSON.stringify(r.body)).toContain('Marie Curie won the Nobel Prize in Physics in 1903.');
    expect(JSON.stringify(r.body)).not.toContain('account code');
  }
  await expect(panel.getByTestId('hidden-skipped')).toContainText('Hidden on the page, so neither checked nor marked: 1 of the sentences you selected.');
  await expect(panel.getByTestId('run-input')).not.toContainText('account code');

  // Marks on the two visible sentences only.
  await expect.poll(() => marksOnPage(worker, url)).toBe(2);
  // The hidden sentence is as the page wrote it: one text node, no mark around or in it.
  const hidden = await page.evaluate(() => {
    const el = document.getElementById('hid')!;
    return { nodes: el.childNodes.length, text: el.textContent, wrapped: el.parentElement!.id };
  });
  expect(hidden).toEqual({ nodes: 1, text: HIDDEN, wrapped: 'para' });
});
