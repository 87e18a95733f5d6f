/** What the model is sent from open tabs, in real Chromium through the real tab reader: the
 * 36 CSS-invisible placements of test/fixtures/site/hidden/placements.html, text the user typed
 * into editable areas, and a tab address with a token in its query and fragment. The fake model
 * records every prompt. */
import type { Worker } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';

const tokens = (text: string, kind: 'HIDDEN' | 'VISIBLE') => [...new Set(text.match(new RegExp(`${kind}-\\d\\d`, 'g')) ?? [])].sort();

/** The tab's text exactly as the tabs adapter reads it (lib/browser/tabs-adapter.ts). */
async function readTab(worker: Worker, url: string): Promise<string> {
  return worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    const target = { tabId: tab!.id as number };
    await chrome.scripting.executeScript({ target, files: ['/reader.js'] });
    const [res] = await chrome.scripting.executeScript({
      target,
      func: (g: string) => (globalThis as unknown as Record<string, (h: null) => { page?: { text: string } }>)[g]!(null),
      args: ['__ratifyReadTab'],
    });
    return (res!.result as { page?: { text: string } }).page?.text ?? '';
  }, url);
}

test('hidden text, typed text and address tokens from open tabs never reach the model', async ({ context, worker, harness, configureForHarness, sidePanel }) => {
  const base = harness.site.url('/hidden/placements.html');
  const hidden = await context.newPage();
  await hidden.setViewportSize({ width: 1000, height: 2000 });
  await hidden.goto(`${base}?reset_token=QUERY-TOKEN-991#FRAGMENT-TOKEN-992`);

  // A mail draft and a comment box with text the user typed, in another tab.
  const draft = await context.newPage();
  await draft.goto(harness.site.url('/articles/eiffel-tower.html'));
  await draft.evaluate(() => {
    const box = document.createElement('div');
    box.contentEditable = 'true';
    box.id = 'draft';
    const area = document.createElement('textarea');
    area.id = 'comment';
    document.querySelector('article')!.append(box, area);
  });
  await draft.locator('#draft').fill('DRAFT-SECRET-993 the vault passphrase is orchid, keep it between us.');
  await draft.locator('#comment').fill('TEXTAREA-SECRET-994 the vault passphrase is orchid.');

  // The reader itself: what it returns for the placements tab.
  const read = await readTab(worker, `${base}*`);
  const leakedByReader = tokens(read, 'HIDDEN');
  console.log(`tab reader: ${leakedByReader.length}/36 hidden placements in the text (${leakedByReader.join(' ') || 'none'}); ${tokens(read, 'VISIBLE').length}/11 visible sentences`);
  expect.soft(leakedByReader, 'hidden placements the reader returned').toEqual([]);
  expect.soft(tokens(read, 'VISIBLE'), 'visible sentences the reader dropped').toEqual(Array.from({ length: 11 }, (_, i) => `VISIBLE-${String(i + 1).padStart(2, '0')}`));

  // A question answered from the open tabs, with room for every passage of the page.
  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.1 },
      steps: ['The vault passphrase is orchid according to the vault notes.'],
      finalAnswer: 'The notes describe the vault passphrase policy.',
    }),
  );
  await configureForHarness({ pipeline: { passagesPerStep: 12, passageChars: 200 } });
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('What do the vault notes say about the vault passphrase orchid?');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 60_000 });

  const prompts = harness.llm.chatRequests().map((r) => JSON.stringify(r.body)).join('\n');
  const leakedToModel = tokens(prompts, 'HIDDEN');
  console.log(`prompts: ${leakedToModel.length}/36 hidden placements (${leakedToModel.join(' ') || 'none'}); visible: ${tokens(prompts, 'VISIBLE').join(' ')}`);
  // The page did reach the model (so the absence of hidden text means something)…
  expect(tokens(prompts, 'VISIBLE').length).toBeGreaterThan(0);
  // …without its hidden text, the typed text, or the tokens in its address.
  expect.soft(leakedToModel, 'hidden placements in prompts').toEqual([]);
  for (const secret of ['DRAFT-SECRET-993', 'TEXTAREA-SECRET-994', 'QUERY-TOKEN-991', 'FRAGMENT-TOKEN-992', 'reset_token'])
    expect.soft(prompts, `"${secret}" reached the model`).not.toContain(secret);
  // The page is still named to the model, by its address without query and fragment.
  expect(prompts).toContain(base);
});
