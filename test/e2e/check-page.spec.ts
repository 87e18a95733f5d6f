/** Check this page, end to end in Chromium: a news article with planted errors, the true facts in
 * two open tabs, a hidden (opacity: 0) false sentence and claim-like text in its menu and footer. */
import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { ask } from './scenes.ts';
import type { Responder } from '../harness/fake-llm.ts';
import { EXPECTED_MARKS, startPageCheck, SUMMARY, finished } from './check-page-scene.ts';

interface CdpNode {
  backendNodeId: number;
  nodeType: number;
  nodeName: string;
  attributes?: string[];
  children?: CdpNode[];
  shadowRoots?: CdpNode[];
}

/** The open tooltip's box and its "Show in Ratify" button, as the browser lays them out (they are
 * in a closed shadow root, out of reach of the page and of Playwright's selectors). */
async function tooltipBox(cdp: CDPSession): Promise<{ x: number; y: number; width: number; height: number; show?: { x: number; y: number } } | undefined> {
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: CdpNode };
  const attr = (n: CdpNode, name: string) => {
    const a = n.attributes ?? [];
    const i = a.indexOf(name);
    return i >= 0 && i % 2 === 0 ? a[i + 1] : undefined;
  };
  const find = (n: CdpNode, pred: (n: CdpNode) => boolean): CdpNode | undefined => {
    if (pred(n)) return n;
    for (const c of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) {
      const f = find(c, pred);
      if (f) return f;
    }
    return undefined;
  };
  const host = find(root, (n) => n.nodeName === 'DIV' && attr(n, 'popover') !== undefined && !!n.shadowRoots?.length && attr(n, 'data-open') !== undefined);
  const box = host?.shadowRoots?.[0] && find(host.shadowRoots[0], (n) => n.nodeName === 'DIV' && (attr(n, 'class') ?? '').startsWith('box'));
  if (!box) return undefined;
  const quad = async (id: number) => ((await cdp.send('DOM.getBoxModel', { backendNodeId: id })) as { model: { border: number[] } }).model.border;
  const [x1 = 0, y1 = 0, , , x2 = 0, y2 = 0] = await quad(box.backendNodeId);
  const show = find(box, (n) => n.nodeName === 'BUTTON' && attr(n, 'class') === 'show');
  const s = show ? await quad(show.backendNodeId) : undefined;
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1, ...(s ? { show: { x: ((s[0] ?? 0) + (s[4] ?? 0)) / 2, y: ((s[1] ?? 0) + (s[5] ?? 0)) / 2 } } : {}) };
}

/** The tooltip once it is open and laid out. */
async function openTooltip(cdp: CDPSession) {
  let box: Awaited<ReturnType<typeof tooltipBox>>;
  await expect.poll(async () => (box = await tooltipBox(cdp)) !== undefined && box.width > 0).toBe(true);
  return box!;
}

const marksIn = (article: Page, id: string) => article.locator(`#${id} [data-ratify-mark][tabindex="0"]`);

test('Check this page: every visible claim is marked with its verdict as it lands, nothing hidden or in the menu and footer; the report, the corrected text and both exports agree', async ({
  context,
  harness,
  configureForHarness,
  openPanel,
  picture,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Slow enough to see the checks land one after another.
  const { panel, article, url } = await startPageCheck({ context, harness, configureForHarness, openPanel }, { latency: { firstTokenMs: 250, tokensPerSec: 400 } });

  // While it runs: progress in the panel, and the first marks before the last verdict.
  await expect(panel.getByText(/\d of \d+ checked/).first()).toBeVisible();
  await expect(article.locator('[data-ratify-mark]').first()).toBeAttached({ timeout: 20_000 });
  expect(await panel.getByTestId('run-status').first().textContent()).toBe('Running');
  await expect(panel.getByTestId('page-web-note')).toContainText('its claims were searched on the web. Nothing from your other tabs was sent.');
  await finished(panel);

  // The report: verdict first, then the claims in page order.
  await expect(panel.getByTestId('verdict-summary')).toHaveText(SUMMARY);
  const claims = panel.locator('.claims > li');
  await expect(claims).toHaveCount(8);
  expect(await claims.evaluateAll((li) => li.map((l) => l.getAttribute('data-claim-verdict')))).toEqual(['corrected', 'supported', 'refuted', 'supported', 'supported', 'supported', 'corrected', 'unverifiable']);
  await expect(claims.nth(0)).toContainText('→ The Eiffel Tower was completed in 1889 and is 330 metres tall.');
  await expect(claims.nth(0).getByRole('button', { name: /^Source \d/ })).not.toHaveCount(0);

  // In the page: each visible claim's sentence marked with its verdict; the counts match.
  for (const [id, verdicts] of Object.entries(EXPECTED_MARKS)) {
    await expect(marksIn(article, id)).toHaveCount(verdicts.length);
    const labels = await marksIn(article, id).evaluateAll((els) => els.map((e) => /^Ratify: (\w+)\./.exec(e.getAttribute('aria-label') ?? '')?.[1]));
    expect(labels, id).toEqual(verdicts);
  }
  const all = await article.locator('[data-ratify-mark][tabindex="0"]').evaluateAll((els) => els.map((e) => /^Ratify: (\w+)\./.exec(e.getAttribute('aria-label') ?? '')?.[1]));
  const count = (v: string) => all.filter((x) => x === v).length;
  expect(`${all.length} claims: ${count('Supported')} supported · ${count('Corrected')} corrected · ${count('Refuted')} refuted · ${count('Unverifiable')} unverifiable`).toBe(SUMMARY);
  // Nothing in the hidden sentence, the menu, the footer, the opinion or the question.
  for (const where of ['#s-hidden', 'nav', 'footer', 'h1', '.byline']) await expect(article.locator(`${where} [data-ratify-mark]`)).toHaveCount(0);
  expect(await article.locator('#s-nobel').evaluate((p) => [...p.querySelectorAll('[data-ratify-mark]')].map((m) => m.textContent).join(''))).not.toContain('In our view');
  // The model never saw them either: the claims call had the article's visible text only.
  const listing = JSON.stringify(harness.llm.chatRequests().find((r) => r.stage === 'page-claims')?.body);
  expect(listing).toContain('She won the Nobel Prize in Chemistry in 1921');
  for (const unseen of ['Lyon', '80,000 readers', '400 journalists', 'Eiffel Tower – Ratify Fixture', 'Gustave Eiffel, whose company']) expect(listing).not.toContain(unseen);
  // One call for the claims, one per claim.
  expect(harness.llm.chatRequests().filter((r) => r.stage === 'page-claims')).toHaveLength(1);
  expect(harness.llm.chatRequests().filter((r) => r.stage === 'page-check')).toHaveLength(8);

  // The corrected text: every correction, no false claim.
  const corrected = panel.getByTestId('corrected');
  await expect(corrected).toContainText('The Eiffel Tower was completed in 1889 and is 330 metres tall.');
  await expect(corrected).toContainText('Maurice Koechlin and Émile Nouguier');
  await expect(corrected).toContainText('Nobel Prize in Chemistry in 1911');
  for (const wrong of ['1899', '300 metres', 'Gustave Eiffel alone', 'in 1921']) await expect(corrected).not.toContainText(wrong);

  // Both exports carry the page, the date and every verdict, correction and source.
  await panel.getByRole('button', { name: 'Copy as Markdown' }).click();
  await expect(panel.getByTestId('export-status').first()).toHaveText('Copied to the clipboard');
  const md = await panel.evaluate(() => navigator.clipboard.readText());
  expect(md).toContain('# Fact-check: Two landmarks of Paris science and steel');
  expect(md).toContain(`Page: \`${url}\``);
  expect(md).toMatch(/Checked: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  expect(md).toContain(`**${SUMMARY}**`);
  expect(md).toContain('✎ Corrected: The Eiffel Tower was completed in 1899 and is 300 metres tall. → **The Eiffel Tower was completed in 1889 and is 330 metres tall.**');
  expect(md).toContain('✗ Refuted: The Eiffel Tower was designed by Gustave Eiffel alone');
  expect(md).toMatch(/\*\*Sources\*\*\n\n1\. \[Eiffel Tower/);
  await panel.getByRole('button', { name: 'Copy as text' }).click();
  await expect.poll(() => panel.evaluate(() => navigator.clipboard.readText())).toContain('[Corrected] Marie Curie won the Nobel Prize in Chemistry in 1921');
  const text = await panel.evaluate(() => navigator.clipboard.readText());
  expect(text).toContain(`Page: ${url}`);
  expect(text).toContain('   → Marie Curie won the Nobel Prize in Chemistry in 1911 for the discovery of polonium and radium.');
  expect(text).toContain('[Unverifiable] Marie Curie');
  expect(text).toMatch(/\nSources:\n\[1\] Eiffel Tower/);

  // History lists the check by the page's title.
  await panel.getByRole('tab', { name: 'History' }).click();
  await expect(panel.locator('.history-list li').first()).toContainText('Two landmarks of Paris science and steel');
  await expect(panel.locator('.history-list li').first()).toContainText('Page check');
  await panel.getByRole('tab', { name: 'Ask' }).click();

  await panel.setViewportSize({ width: 420, height: 1400 });
  await picture(panel, 'panel-check-page.png');

  // A reload takes the marks away; the panel offers the earlier check and draws its marks again.
  await article.reload();
  await expect(article.locator('[data-ratify-mark]')).toHaveCount(0);
  const earlier = panel.getByTestId('earlier-check');
  await expect(earlier).toBeVisible({ timeout: 15_000 });
  await expect(earlier).toContainText(/Checked (now|\d+ seconds? ago|1 minute ago): 2 corrected · 1 refuted/);
  await expect(earlier).toContainText('8 of 8 checked sentences are still on the page unchanged');
  await earlier.getByRole('button', { name: 'Show the results' }).click();
  await expect(article.locator('[data-ratify-mark][tabindex="0"]')).toHaveCount(8);
  await expect(earlier).toHaveCount(0);
});

test('Check this page: a claim clicked shows its mark; a mark\'s tooltip covers no other mark and its "Show in Ratify" brings the claim up', async ({ context, harness, configureForHarness, openPanel, picture }) => {
  const { panel, article } = await startPageCheck({ context, harness, configureForHarness, openPanel });
  await finished(panel);
  await expect(article.locator('[data-ratify-mark][tabindex="0"]')).toHaveCount(8);
  await article.setViewportSize({ width: 700, height: 560 });
  await article.evaluate(() => window.scrollTo(0, document.body.scrollHeight));

  // A claim in the panel: the article scrolls to its mark and shows its tooltip.
  await panel.locator('.claims > li').nth(0).getByRole('button', { name: /The Eiffel Tower was completed in 1899/ }).click();
  const eiffel = marksIn(article, 's-eiffel').first();
  await expect(eiffel).toBeInViewport();
  await expect(article.locator('body > div[popover]')).toHaveAttribute('data-open', '');

  // Each mark's tooltip, opened by hovering it, covers none of the other marks.
  const cdp = await context.newCDPSession(article);
  const stops = article.locator('[data-ratify-mark][tabindex="0"]');
  for (let i = 0; i < 8; i++) {
    const mark = stops.nth(i);
    await mark.scrollIntoViewIfNeeded();
    await mark.hover();
    await expect(article.locator('body > div[popover]')).toHaveAttribute('data-open', '');
    const box = await openTooltip(cdp);
    const others = await article.evaluate((n) => {
      const own = [...document.querySelectorAll('[data-ratify-mark][tabindex="0"]')][n];
      return [...document.querySelectorAll('[data-ratify-mark]')]
        .filter((m) => m !== own && !(own && m !== own && ownPieces(own).includes(m)))
        .flatMap((m) => [...m.getClientRects()].map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })));
      function ownPieces(first: Element): Element[] {
        // A mark in pieces (across a link): its later pieces follow its first, up to the next tab stop.
        const all = [...document.querySelectorAll('[data-ratify-mark]')];
        const out: Element[] = [];
        for (let k = all.indexOf(first) + 1; k < all.length && !all[k]!.hasAttribute('tabindex'); k++) out.push(all[k]!);
        return out;
      }
    }, i);
    for (const r of others) {
      const overlaps = box.x < r.x + r.w && r.x < box.x + box.width && box.y < r.y + r.h && r.y < box.y + box.height;
      expect(overlaps, `tooltip of mark ${i} covers another mark`).toBe(false);
    }
    if (i === 2) await picture(article, 'page-check-tooltip.png');
    await article.mouse.move(1, 1);
    await expect(article.locator('body > div[popover]')).not.toHaveAttribute('data-open', '');
  }

  // "Show in Ratify" in the refuted sentence's tooltip: the panel brings that claim up.
  const refuted = marksIn(article, 's-design').first();
  await refuted.scrollIntoViewIfNeeded();
  await refuted.hover();
  const box = await openTooltip(cdp);
  await article.mouse.move(box.show!.x, box.show!.y, { steps: 4 });
  await article.mouse.click(box.show!.x, box.show!.y);
  const focused = panel.locator('.claims > li[data-focused]');
  await expect(focused).toHaveCount(1);
  await expect(focused).toContainText('Gustave Eiffel alone');
});

test('Check this page: cancel stops within a second and Retry continues; a question asked meanwhile is answered in its own thread while the check goes on', async ({ context, harness, configureForHarness, openPanel }) => {
  // The claims come at once; each check takes a while (until `slow` is off).
  let slow = true;
  const wrap = (model: Responder): Responder => async (req) => {
    if (req.stage === 'page-check' && slow) await new Promise((r) => setTimeout(r, 4_000));
    return model(req);
  };
  const { panel } = await startPageCheck({ context, harness, configureForHarness, openPanel }, { wrap });
  await expect(panel.getByRole('status').getByText(/^0 of 8 checked$/)).toBeVisible({ timeout: 20_000 });

  // A question while the page is being checked: it runs at once, in a thread of its own.
  await ask(panel, 'Summarize this page');
  await expect(panel.getByTestId('live-check')).toContainText('Checking Two landmarks of Paris science and steel');
  await expect(panel.locator('article.run[data-mode=ask]')).toHaveCount(1);
  await expect(panel.locator('article.run[data-mode=page]')).toHaveCount(0);
  await expect(panel.locator('article.run[data-mode=ask] [data-testid=run-status]')).toHaveText('Done', { timeout: 20_000 });

  // Back to the check, then cancel it.
  await panel.getByTestId('live-check').getByRole('button', { name: 'Show' }).click();
  const check = panel.locator('article.run[data-mode=page]');
  await expect(check).toBeVisible();
  const t0 = Date.now();
  await check.getByRole('button', { name: 'Cancel' }).click();
  await expect(check.getByTestId('run-status')).toHaveText('Cancelled', { timeout: 1_500 });
  expect(Date.now() - t0).toBeLessThan(1_500);
  const checksAtCancel = harness.llm.chatRequests().filter((r) => r.stage === 'page-check').length;
  const checked = Number(/^(\d) of 8 checked/.exec((await check.getByTestId('verdict-summary').textContent()) ?? '')?.[1]);
  expect(checked).toBeLessThan(8);

  // Retry continues: the list is not made again, the claims already checked are kept, the others
  // are checked.
  slow = false;
  await check.getByRole('button', { name: 'Retry' }).click();
  await finished(panel);
  expect(harness.llm.chatRequests().filter((r) => r.stage === 'page-claims')).toHaveLength(1);
  expect(harness.llm.chatRequests().filter((r) => r.stage === 'page-check')).toHaveLength(checksAtCancel + 8 - checked);
  await expect(panel.getByTestId('verdict-summary')).toHaveText(SUMMARY);
});
