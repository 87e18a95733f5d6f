import { expect, test } from './fixtures.ts';
import { clickVerify } from './verify-click.ts';

test('"Verify with RAT" on a selection creates a run holding the selection and its page', async ({ context, worker, harness, configureForHarness, openPanel }) => {
  await configureForHarness();
  const page = await context.newPage();
  const url = harness.site.url('/articles/marie-curie.html');
  await page.goto(url);
  const title = await page.title();
  // Select the first sentence of the first paragraph, as a user would with the mouse.
  const selected = await page.evaluate(() => {
    const p = document.querySelector('article p, main p, p')!;
    const range = document.createRange();
    range.selectNodeContents(p);
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    return sel.toString();
  });
  expect(selected.length).toBeGreaterThan(20);

  const panel = await openPanel();
  // The native menu cannot be clicked headless: dispatch the click to the worker's real listener.
  await clickVerify(worker, url, selected);

  await expect(panel.getByTestId('run-input')).toHaveText(selected.trim());
  await expect(panel.locator('.run')).toContainText(title);

  // The run is stored in IndexedDB with the selection and the page URL.
  const stored = await panel.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((ok, fail) => {
      const r = indexedDB.open('ratify');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error ?? new Error('IndexedDB request failed'));
    });
    const all = await new Promise<unknown[]>((ok) => {
      const req = db.transaction('runs').objectStore('runs').getAll();
      req.onsuccess = () => ok(req.result);
    });
    return all as { mode: string; input: { text: string; page?: { url: string; title: string } } }[];
  });
  expect(stored).toHaveLength(1);
  expect(stored[0]!.mode).toBe('verify');
  expect(stored[0]!.input.text).toBe(selected.trim());
  expect(stored[0]!.input.page?.url).toBe(url);
  expect(stored[0]!.input.page?.title).toBe(title);
});

test('the context-menu item exists for selections', async ({ worker }) => {
  // update() fails with "Cannot find menu item" unless the worker registered the item.
  const updateError = () =>
    worker.evaluate(
      () =>
        new Promise<string>((resolve) => {
          chrome.contextMenus.update('ratify-verify', {}, () => resolve(chrome.runtime.lastError?.message ?? 'ok'));
        }),
    );
  await expect.poll(updateError).toBe('ok');
  const missing = await worker.evaluate(
    () =>
      new Promise<string>((resolve) => {
        chrome.contextMenus.update('no-such-item', {}, () => resolve(chrome.runtime.lastError?.message ?? 'ok'));
      }),
  );
  expect(missing).toMatch(/cannot find/i);
});
