/** A hostile page against Ratify's verdict marks, in real Chromium. A real verify run (context
 * menu → worker → fake model → marks injected by the worker) marks sentences of a page whose own
 * script (an init script in the page's main world, so it runs before anything else) does what an
 * attacker's page can do: define the marks' element names first, read every attribute and any
 * shadow root it can reach, flip attributes, write text into marks, fire synthetic events, and
 * draw marks of its own. The evidence is another open tab; its title and address, the model's
 * correction and explanation must never be readable by the marked page. */
import type { Page, Worker } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { PageMarks } from './pages/page-marks.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { clickVerify } from './verify-click.ts';

const CORRECTION = 'The Eiffel Tower was completed in 1889 and is 330 metres tall (per the other tab).';
const EXPLANATION = 'Zanzibar-explanation-7731: the evidence tab says otherwise.';
const MARKS = '[data-ratify-mark], ratify-mark';

/** The page's own script. It keeps what it can steal on window.__stolen. */
function hostileScript() {
  const w = window as unknown as { __stolen: { internals: ElementInternals[]; roots: ShadowRoot[] } };
  w.__stolen = { internals: [], roots: [] };
  // Page-world patches: the extension's isolated world must not be affected by them.
  const attach = Object.getOwnPropertyDescriptor(Element.prototype, 'attachShadow')?.value as (this: Element, init: ShadowRootInit) => ShadowRoot;
  Element.prototype.attachShadow = function (init: ShadowRootInit) {
    const root = attach.call(this, init);
    w.__stolen.roots.push(root);
    return root;
  };
  // Names an extension might use, defined first: their constructor runs the page's code and its
  // internals reach even a closed shadow root.
  for (const name of ['ratify-mark', 'ratify-tooltip', 'ratify-frame', 'ratify-marks']) {
    customElements.define(
      name,
      class extends HTMLElement {
        constructor() {
          super();
          w.__stolen.internals.push(this.attachInternals());
        }
      },
    );
  }
}

/** Everything the page's scripts can read: the light DOM's text and attributes, open shadow roots
 * and the roots its traps caught. */
function pageCanRead(page: Page): Promise<string> {
  return page.evaluate(() => {
    const w = window as unknown as { __stolen: { internals: ElementInternals[]; roots: ShadowRoot[] } };
    const out: string[] = [document.documentElement.outerHTML];
    const roots = [...w.__stolen.roots, ...w.__stolen.internals.map((i) => i.shadowRoot).filter((r): r is ShadowRoot => !!r)];
    for (const el of document.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    for (const r of roots) out.push(r.innerHTML, r.textContent ?? '');
    return out.join('\n');
  });
}

const openTooltips = (page: Page) => page.evaluate(() => document.querySelectorAll(':popover-open').length);

async function countMarks(worker: Worker, url: string): Promise<number> {
  return worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    const [res] = await chrome.scripting.executeScript({
      target: { tabId: tab!.id as number },
      func: () => (globalThis as unknown as Record<string, { count(): number } | undefined>).__ratifyPageMarks?.count() ?? 0,
    });
    return res!.result as number;
  }, url);
}

test('a hostile page cannot read, restyle, re-word, trigger or forge verdict marks', async ({ context, worker, harness, configureForHarness, openPanel }) => {
  const evidence = await context.newPage();
  const evidenceUrl = harness.site.url('/articles/eiffel-tower.html');
  await evidence.goto(evidenceUrl);
  const evidenceTitle = await evidence.title();

  const page = await context.newPage();
  await page.addInitScript(hostileScript);
  const url = harness.site.url('/demo.html');
  await page.goto(url);

  harness.llm.setResponder(
    pipelineResponder({
      claims: [
        { claim: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', sentence: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', phrase: 'Sorbonne', verdict: 'supported' },
        {
          claim: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
          sentence: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
          phrase: 'completed in March 1889',
          verdict: 'refuted',
          corrected: CORRECTION,
          explanation: EXPLANATION,
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
  await clickVerify(worker, url, selected);
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  // The panel has the details; the evidence really came from the other tab.
  await expect(panel.locator('.claims [data-claim-verdict=refuted]')).toContainText('330 metres');
  await expect(panel.locator('ol.sources')).toContainText(evidenceTitle);
  await page.evaluate(() => window.getSelection()?.removeAllRanges());
  await expect(page.locator(MARKS).first()).toBeAttached({ timeout: 10_000 });
  expect(await countMarks(worker, url)).toBe(2);

  // 1. Pre-defined element names and page-world traps do not stop the marks, and nothing the page
  //    can read holds the correction, the explanation or the other tab's title and address, even
  //    with the tooltip open (a real hover).
  const refuted = page.getByRole('button', { name: /^Ratify: Refuted\./ });
  await refuted.hover();
  await expect.poll(() => openTooltips(page)).toBe(1);
  const readable = await pageCanRead(page);
  for (const secret of ['330 metres', 'Zanzibar-explanation', evidenceTitle, evidenceUrl, 'eiffel-tower.html'])
    expect.soft(readable, `the page can read "${secret}"`).not.toContain(secret);
  await page.mouse.move(0, 0);
  await expect.poll(() => openTooltips(page)).toBe(0);

  // 2. Synthetic events do nothing: no tooltip, no clearing. Every tooltip opening is recorded
  //    with the moment it happened in; a real hover afterwards is the proof that the synthetic
  //    events have been handled, whatever they might have set off.
  const marks = new PageMarks(page);
  await marks.recordTooltipOpens();
  await marks.tooltipPhase('synthetic');
  await page.evaluate((sel) => {
    for (const el of document.querySelectorAll(sel)) {
      el.dispatchEvent(new MouseEvent('mouseenter', { clientX: 10, clientY: 10 }));
      el.dispatchEvent(new FocusEvent('focus'));
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    }
  }, MARKS);
  expect.soft(await openTooltips(page), 'a synthetic event opened the tooltip').toBe(0);
  await marks.tooltipPhase('real hover');
  await refuted.hover();
  await expect.poll(() => marks.tooltipOpens()).toContain('real hover');
  expect.soft(await marks.tooltipOpens(), 'a synthetic event opened the tooltip').toEqual(['real hover']);
  await page.keyboard.press('Escape');
  await page.mouse.move(0, 0);
  await expect.poll(() => openTooltips(page)).toBe(0);

  // 3. Attribute flips: the refuted mark still looks refuted and is still named so.
  const box = await refuted.boundingBox();
  if (!box) throw new Error('the refuted mark has no box');
  const clip = { x: box.x, y: box.y, width: Math.min(box.width, 400), height: box.height };
  const before = await page.screenshot({ clip });
  const label = await refuted.getAttribute('aria-label');
  const refutedEl = await refuted.elementHandle();
  await page.evaluate((sel) => {
    for (const el of document.querySelectorAll(sel)) {
      el.setAttribute('data-verdict', 'supported');
      if (el.hasAttribute('aria-label')) el.setAttribute('aria-label', (el.getAttribute('aria-label') ?? '').replace('Refuted', 'Supported'));
      el.setAttribute('class', 'supported');
    }
  }, MARKS);
  // The page flipped them; the marks put them back.
  await expect.soft.poll(() => refutedEl.evaluate((el) => el.getAttribute('aria-label')), { message: 'the page renamed the mark' }).toBe(label);
  await expect.soft.poll(async () => (await page.screenshot({ clip })).equals(before), { message: 'the page changed how the verdict is drawn' }).toBe(true);

  // 4. Text written into a genuine mark: that mark is removed, the page's text stays.
  await page.evaluate((sel) => {
    const curie = [...document.querySelectorAll(sel)].find((el) => el.textContent?.includes('Marie Curie moved'));
    curie?.append(' Also, the Moon is made of cheese.');
  }, MARKS);
  await expect.soft.poll(() => countMarks(worker, url), { timeout: 3000 }).toBe(1);
  await expect(page.locator('#claim-curie-paris')).toHaveText('Marie Curie moved to Paris in 1891 to study at the Sorbonne. Also, the Moon is made of cheese.');
  expect.soft(await page.locator('#claim-curie-paris').locator(MARKS).count(), 'the injected text sits in a mark').toBe(0);

  // 5. Forged marks: copies of a genuine one around the page's own text are page content. A real
  //    hover opens no Ratify tooltip, the worker does not count them, and clearing leaves them be.
  await page.evaluate((sel) => {
    const real = document.querySelector(`${sel.split(',')[0]}[tabindex]`) ?? document.querySelector(sel);
    const p = document.getElementById('claim-incomplete')!;
    const forged = real!.cloneNode(false) as HTMLElement;
    forged.setAttribute('aria-label', 'Ratify: Supported. He moved to Paris in 1920.');
    forged.textContent = p.textContent;
    p.replaceChildren(forged);
  }, MARKS);
  await marks.recordTooltipOpens();
  await marks.tooltipPhase('forged');
  await page.locator('#claim-incomplete').locator(MARKS).hover();
  expect.soft(await openTooltips(page), 'a forged mark opened the extension’s tooltip').toBe(0);
  // A genuine mark hovered next opens it: the forged hover had been handled by then.
  await marks.tooltipPhase('genuine');
  await refuted.hover();
  await expect.poll(() => marks.tooltipOpens()).toContain('genuine');
  expect.soft(await marks.tooltipOpens(), 'a forged mark opened the extension’s tooltip').toEqual(['genuine']);
  expect.soft(await countMarks(worker, url), 'forged marks counted').toBe(1);
});
