/** Verdict marks in a real page: injected on demand into a fixture article the way
 * lib/browser/marks.ts does it (scripting.executeScript with files, then a func), then checked
 * for what a reader sees and for what the page's own scripts must not notice. */
import type { Page, Worker } from '@playwright/test';
import type { PageMark, ShowMarksResult } from '../../lib/page-marks/types.ts';
import { expect, test } from './fixtures.ts';
import { PageMarks } from './pages/page-marks.ts';

const ARTICLE = '/articles/marie-curie.html';

const MARKS: PageMark[] = [
  { sentence: 'In late 1891 she moved to Paris, where she enrolled at the University of Paris (the Sorbonne).', verdict: 'supported' },
  // Spans the page script's <a> below: several text nodes and an inline element.
  {
    sentence: 'In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie and Henri Becquerel, in recognition of their research on radiation phenomena.',
    verdict: 'corrected',
  },
  { sentence: 'She earned a degree in physics in 1893 and a degree in mathematics in 1894.', verdict: 'refuted' },
  { sentence: 'The metal structure weighs about 7,300 tonnes.', verdict: 'unverifiable' }, // not on this page
  {
    sentence: 'During the First World War she developed mobile X-ray units, known as "petites Curies", to help surgeons treat wounded soldiers near the front.',
    verdict: 'unverifiable',
  },
];

/** The adapter's two calls, from the worker, exactly as lib/browser/marks.ts makes them. */
async function showMarks(worker: Worker, url: string, marks: PageMark[]): Promise<ShowMarksResult> {
  return worker.evaluate(
    async ({ url, marks }) => {
      const [tab] = await chrome.tabs.query({ url });
      const target = { tabId: tab!.id as number };
      await chrome.scripting.executeScript({ target, files: ['/marks.js'] });
      const [res] = await chrome.scripting.executeScript({
        target,
        func: (key: string, m: unknown, o: unknown) =>
          (globalThis as unknown as Record<string, { show(m: unknown, o: unknown): unknown }>)[key]!.show(m, o),
        args: ['__ratifyPageMarks', marks, { language: 'en' }],
      });
      return res!.result as ShowMarksResult;
    },
    { url, marks },
  );
}

async function clearMarks(worker: Worker, url: string): Promise<void> {
  await worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    await chrome.scripting.executeScript({
      target: { tabId: tab!.id as number },
      func: (key: string) => (globalThis as unknown as Record<string, { clear(): void } | undefined>)[key]?.clear(),
      args: ['__ratifyPageMarks'],
    });
  }, url);
}

/** What the page's own script sets up: a link inside a paragraph, listeners, and a record of
 * where every block sits. */
async function preparePage(page: Page) {
  await page.evaluate(() => {
    const p = [...document.querySelectorAll('p')].find((x) => x.textContent?.startsWith('In 1903'));
    if (!p) throw new Error('fixture changed');
    p.innerHTML = p.innerHTML.replace('Nobel Prize in Physics', '<a href="#nobel" id="page-link">Nobel Prize <b>in</b> Physics</a>');
    const w = window as unknown as Record<string, unknown>;
    w.pageClicks = [];
    p.addEventListener('click', (e) => {
      (w.pageClicks as string[]).push((e.target as Element).closest('a')?.id ?? 'none');
    });
    w.firstTextOf = new Map([...document.querySelectorAll('article p')].map((el) => [el, el.firstChild]));
  });
}

const blockBoxes = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('h1, h2, p, article, footer, header, a')]
      .filter((el) => !el.closest('[data-ratify-mark]'))
      .map((el) => {
        // Page coordinates: hovering and clicking may scroll the viewport.
        const r = el.getBoundingClientRect();
        return `${el.tagName} ${(r.x + scrollX).toFixed(1)} ${(r.y + scrollY).toFixed(1)} ${r.width.toFixed(1)} ${r.height.toFixed(1)}`;
      }),
  );

test('marks each checked sentence by verdict, explains it on hover and focus, and clears without a trace', async ({ context, worker, harness, picture }) => {
  const url = harness.site.url(ARTICLE);
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.setViewportSize({ width: 900, height: 900 });
  await page.goto(url);
  await preparePage(page);
  const htmlBefore = await page.locator('article').evaluate((el) => el.innerHTML);
  const boxesBefore = await blockBoxes(page);

  // A first set, then a second: re-injecting marks.js and showing again replaces, never nests.
  await showMarks(worker, url, MARKS.slice(0, 1));
  const res = await showMarks(worker, url, MARKS);
  expect(res).toEqual({ shown: 4, missing: ['The metal structure weighs about 7,300 tonnes.'] });
  expect(await page.locator('[data-ratify-mark] [data-ratify-mark]').count()).toBe(0);

  // The linked sentence is in pieces around and inside the page's <a> and <b>.
  expect(await page.locator('[data-ratify-mark]').count()).toBeGreaterThanOrEqual(6);
  await expect(page.locator('#page-link [data-ratify-mark]').first()).toHaveText('Nobel Prize ');

  // One tab stop per mark, named with its verdict and the page's own sentence; no attribute
  // carries anything else (the page's scripts can read every attribute).
  const stops = page.locator('[data-ratify-mark][tabindex="0"]');
  await expect(stops).toHaveCount(4);
  expect(await stops.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([
    'Ratify: Supported. In late 1891 she moved to Paris, where she enrolled at the University of Paris (the Sorbonne). Details are in the Ratify side panel.',
    'Ratify: Refuted. She earned a degree in physics in 1893 and a degree in mathematics in 1894. Details are in the Ratify side panel.',
    expect.stringMatching(/^Ratify: Corrected\. In 1903 Marie Curie shared the Nobel Prize in Physics with Pierre Curie .* Details are in the Ratify side panel\.$/),
    expect.stringMatching(/^Ratify: Unverifiable\. During the First World War/),
  ]);
  await expect(page.getByRole('button', { name: /^Ratify: Refuted\./ })).toBeVisible();

  // The page did not move: every block outside the marks (and the marked paragraphs) keeps its box.
  expect(await blockBoxes(page)).toEqual(boxesBefore);
  // Nothing but the marks and one (closed) tooltip host was added; no style leaked into the page.
  expect(await page.evaluate(() => document.querySelectorAll('style, link[rel=stylesheet]').length)).toBe(1);
  expect(await page.evaluate(() => document.adoptedStyleSheets.length)).toBe(0);

  // Hover: the tooltip shows the verdict and says where the details are.
  const marks = new PageMarks(page);
  const corrected = page.locator('#page-link [data-ratify-mark]');
  await corrected.first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await corrected.first().hover();
  const host = marks.tooltipHost;
  await expect(host).toHaveAttribute('data-open', '');
  let tip = await marks.tooltip();
  expect(tip.shadowType).toBe('closed');
  expect(tip.text).toContain('Corrected');
  // What the verdict means: a correction is promised only where there is one.
  expect(tip.text).toContain('A detail is wrong. The correction and its sources are in the Ratify side panel.');
  expect(tip.links).toEqual([]);
  await picture(page, 'page-marks.png', { clip: { x: 40, y: 140, width: 820, height: 620 } });

  // Escape closes it.
  await page.keyboard.press('Escape');
  await expect(host).not.toHaveAttribute('data-open');

  // Keyboard: focus shows the tooltip for that mark; Enter moves into it; Escape comes back.
  const refuted = page.getByRole('button', { name: /^Ratify: Refuted\./ });
  await refuted.focus();
  await expect(host).toHaveAttribute('data-open', '');
  tip = await marks.tooltip();
  expect(tip.text).toContain('Refuted');
  await page.keyboard.press('Enter');
  await expect(host).toBeFocused(); // focus is inside its shadow root
  await page.keyboard.press('Escape');
  await expect(host).not.toHaveAttribute('data-open');
  await expect(refuted).toBeFocused();

  // The page's own handlers still run, and its link still works, when the click lands on a mark.
  await page.locator('#page-link [data-ratify-mark]').first().click();
  expect(await page.evaluate(() => (window as unknown as { pageClicks: string[] }).pageClicks)).toEqual(['page-link']);
  await expect(page).toHaveURL(/#nobel$/);

  // The "Clear marks" control in the tooltip puts the page back exactly.
  await page.mouse.move(0, 0);
  await page.getByRole('button', { name: /^Ratify: Supported\./ }).hover();
  await expect(host).toHaveAttribute('data-open', '');
  await expect.poll(async () => (await marks.tooltip()).text).toContain('Sources back this sentence.');
  expect((await marks.tooltip()).text).not.toContain('correction');
  const at = await (await marks.tooltip()).button('Clear marks');
  await page.mouse.click(at.x, at.y);
  await expect(page.locator('[data-ratify-mark]')).toHaveCount(0);
  await expect(host).toHaveCount(0);
  expect(await page.locator('article').evaluate((el) => el.innerHTML)).toBe(htmlBefore);
  expect(
    await page.evaluate(() => {
      const m = (window as unknown as { firstTextOf: Map<Element, Node | null> }).firstTextOf;
      return [...m].every(([el, first]) => el.firstChild === first && el.isConnected);
    }),
  ).toBe(true);
  expect(await blockBoxes(page)).toEqual(boxesBefore);

  // clearMarks() from the worker does the same, and is harmless when there is nothing to clear.
  await showMarks(worker, url, MARKS);
  await expect(page.locator('[data-ratify-mark]')).not.toHaveCount(0);
  await clearMarks(worker, url);
  await clearMarks(worker, url);
  await expect(page.locator('[data-ratify-mark]')).toHaveCount(0);
  expect(await page.locator('article').evaluate((el) => el.innerHTML)).toBe(htmlBefore);

  expect(dialogs).toEqual([]);
  expect(await page.title()).not.toBe('pwned');
});
