/** Check this page, end to end in Chromium: a news article with planted errors, the true facts in
 * two open tabs, a hidden (opacity: 0) false sentence and claim-like text in its menu and footer. */
import { expect, test } from './fixtures.ts';
import { holdReplies } from '../harness/held-replies.ts';
import type { LlmRequest, Responder } from '../harness/fake-llm.ts';
import { line, SECTION } from '../harness/prompt-reader.ts';
import { EXPECTED_MARKS, LANDMARK_CLAIMS, startPageCheck, SUMMARY, finished } from './check-page-scene.ts';
import { PageMarks } from './pages/page-marks.ts';

/** The least check-worthy claim of the article, checked last. */
const NOTEBOOKS = LANDMARK_CLAIMS.find((c) => c.claim.includes('notebooks'))?.claim;


test('Check this page: every visible claim is marked with its verdict as it lands, nothing hidden or in the menu and footer; the report, the corrected text and both exports agree', async ({
  context,
  harness,
  configureForHarness,
  sidePanel,
  picture,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // One claim's check is held at the model, so the run is still going when the first marks land
  // (however fast the machine), and they are shown to land before the last verdict.
  let held: ReturnType<typeof holdReplies> | undefined;
  const last = (req: LlmRequest) => req.stage === 'page-check' && line(req.lastUser, SECTION.claim) === NOTEBOOKS;
  const wrap = (model: Responder): Responder => (held = holdReplies(model, last)).responder;
  const { panel, article, url } = await startPageCheck({ context, harness, configureForHarness, sidePanel }, { latency: { firstTokenMs: 250, tokensPerSec: 400 }, wrap });

  const marks = new PageMarks(article);
  // While it runs: progress in the panel, and the first marks before the last verdict.
  await expect(panel.page.getByText(/\d of \d+ checked/).first()).toBeVisible();
  await expect(marks.pieces.first()).toBeAttached({ timeout: 20_000 });
  await expect.poll(() => held?.pending()).toBe(1);
  expect(await panel.status.first().textContent()).toBe('Running');
  held?.release();
  await expect(panel.page.getByTestId('page-web-note')).toContainText('its claims were searched on the web. Nothing from your other tabs was sent.');
  await finished(panel);

  // The report: verdict first, then the claims in page order.
  await expect(panel.verdictSummary).toHaveText(SUMMARY);
  const claims = panel.claims;
  await expect(claims).toHaveCount(8);
  expect(await panel.verdicts()).toEqual(['corrected', 'supported', 'refuted', 'supported', 'supported', 'supported', 'corrected', 'unverifiable']);
  await expect(claims.nth(0)).toContainText('→ The Eiffel Tower was completed in 1889 and is 330 metres tall.');
  await expect(claims.nth(0).getByRole('button', { name: /^Source \d/ })).not.toHaveCount(0);

  // In the page: each visible claim's sentence marked with its verdict; the counts match.
  for (const [id, verdicts] of Object.entries(EXPECTED_MARKS)) {
    await expect(marks.marksIn(`#${id}`)).toHaveCount(verdicts.length);
    expect(await marks.verdicts(`#${id}`), id).toEqual(verdicts);
  }
  const all = await marks.verdicts();
  const count = (v: string) => all.filter((x) => x === v).length;
  expect(`${all.length} claims: ${count('Supported')} supported · ${count('Corrected')} corrected · ${count('Refuted')} refuted · ${count('Unverifiable')} unverifiable`).toBe(SUMMARY);
  // Nothing in the hidden sentence, the menu, the footer, the opinion or the question.
  for (const where of ['#s-hidden', 'nav', 'footer', 'h1', '.byline']) await expect(marks.piecesIn(where)).toHaveCount(0);
  expect(await article.locator('#s-nobel').evaluate((p) => [...p.querySelectorAll('[data-ratify-mark]')].map((m) => m.textContent).join(''))).not.toContain('In our view');
  // The model never saw them either: the claims call had the article's visible text only.
  const listing = JSON.stringify(harness.llm.chatRequests().find((r) => r.stage === 'page-claims')?.body);
  expect(listing).toContain('She won the Nobel Prize in Chemistry in 1921');
  for (const unseen of ['Lyon', '80,000 readers', '400 journalists', 'Eiffel Tower – Ratify Fixture', 'Gustave Eiffel, whose company']) expect(listing).not.toContain(unseen);
  // One call for the claims, one per claim.
  expect(harness.llm.chatRequests().filter((r) => r.stage === 'page-claims')).toHaveLength(1);
  expect(harness.llm.chatRequests().filter((r) => r.stage === 'page-check')).toHaveLength(8);

  // The corrected text: every correction, no false claim.
  const corrected = panel.corrected;
  await expect(corrected).toContainText('The Eiffel Tower was completed in 1889 and is 330 metres tall.');
  await expect(corrected).toContainText('Maurice Koechlin and Émile Nouguier');
  await expect(corrected).toContainText('Nobel Prize in Chemistry in 1911');
  for (const wrong of ['1899', '300 metres', 'Gustave Eiffel alone', 'in 1921']) await expect(corrected).not.toContainText(wrong);

  // Both exports carry the page, the date and every verdict, correction and source.
  await panel.copy('Markdown');
  await expect(panel.exportStatus.first()).toHaveText('Copied to the clipboard');
  const md = await panel.clipboard();
  expect(md).toContain('# Fact-check: Two landmarks of Paris science and steel');
  expect(md).toContain(`Page: \`${url}\``);
  expect(md).toMatch(/Checked: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  expect(md).toContain(`**${SUMMARY}**`);
  expect(md).toContain('✎ Corrected: The Eiffel Tower was completed in 1899 and is 300 metres tall. → **The Eiffel Tower was completed in 1889 and is 330 metres tall.**');
  expect(md).toContain('✗ Refuted: The Eiffel Tower was designed by Gustave Eiffel alone');
  expect(md).toMatch(/\*\*Sources\*\*\n\n1\. \[Eiffel Tower/);
  await panel.copy('text');
  await expect.poll(() => panel.clipboard()).toContain('[Corrected] Marie Curie won the Nobel Prize in Chemistry in 1921');
  const text = await panel.clipboard();
  expect(text).toContain(`Page: ${url}`);
  expect(text).toContain('   → Marie Curie won the Nobel Prize in Chemistry in 1911 for the discovery of polonium and radium.');
  expect(text).toContain('[Unverifiable] Marie Curie');
  expect(text).toMatch(/\nSources:\n\[1\] Eiffel Tower/);

  // History lists the check by the page's title.
  await panel.history.open();
  await expect(panel.history.items.first()).toContainText('Two landmarks of Paris science and steel');
  await expect(panel.history.items.first()).toContainText('Page check');
  await panel.showThread();

  await panel.page.setViewportSize({ width: 420, height: 1400 });
  await picture(panel.page, 'panel-check-page.png');

  // A reload takes the marks away; the panel offers the earlier check and draws its marks again.
  await article.reload();
  await expect(marks.pieces).toHaveCount(0);
  const earlier = panel.page.getByTestId('earlier-check');
  await expect(earlier).toBeVisible({ timeout: 15_000 });
  await expect(earlier).toContainText(/Checked (now|\d+ seconds? ago|1 minute ago): 2 corrected · 1 refuted/);
  await expect(earlier).toContainText('8 of 8 checked sentences are still on the page unchanged');
  await earlier.getByRole('button', { name: 'Show the results' }).click();
  await expect(marks.marks).toHaveCount(8);
  await expect(earlier).toHaveCount(0);
});

test('Check this page: a claim clicked shows its mark; a mark\'s tooltip covers no other mark and its "Show in Ratify" brings the claim up', async ({ context, harness, configureForHarness, sidePanel, picture }) => {
  const { panel, article } = await startPageCheck({ context, harness, configureForHarness, sidePanel });
  await finished(panel);
  const marks = new PageMarks(article);
  await expect(marks.marks).toHaveCount(8);
  await article.setViewportSize({ width: 700, height: 560 });
  await article.evaluate(() => window.scrollTo(0, document.body.scrollHeight));

  // A claim in the panel: the article scrolls to its mark and shows its tooltip.
  await panel.claims.nth(0).getByRole('button', { name: /The Eiffel Tower was completed in 1899/ }).click();
  const eiffel = marks.marksIn('#s-eiffel').first();
  await expect(eiffel).toBeInViewport();
  await marks.expectTooltipOpen();

  // Each mark's tooltip, opened by hovering it, covers none of the other marks.
  const stops = marks.marks;
  for (let i = 0; i < 8; i++) {
    const mark = stops.nth(i);
    await mark.scrollIntoViewIfNeeded();
    await mark.hover();
    await marks.expectTooltipOpen();
    const { box } = await marks.openTooltip();
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
    await marks.expectTooltipClosed();
  }

  // "Show in Ratify" in the refuted sentence's tooltip: the panel brings that claim up.
  const refuted = marks.marksIn('#s-design').first();
  await refuted.scrollIntoViewIfNeeded();
  await refuted.hover();
  const { show } = await marks.openTooltip();
  if (!show) throw new Error('the tooltip offers no "Show in Ratify"');
  await article.mouse.move(show.x, show.y, { steps: 4 });
  await article.mouse.click(show.x, show.y);
  const focused = panel.page.locator('.claims > li[data-focused]');
  await expect(focused).toHaveCount(1);
  await expect(focused).toContainText('Gustave Eiffel alone');
});

test('Check this page: cancel stops before the checks in flight answer and Retry continues; a question asked meanwhile is answered in its own thread while the check goes on', async ({ context, harness, configureForHarness, sidePanel }) => {
  // The claims come at once; each check's reply is held (until released before Retry).
  let held: ReturnType<typeof holdReplies> | undefined;
  const wrap = (model: Responder): Responder => (held = holdReplies(model, (req) => req.stage === 'page-check')).responder;
  const { panel } = await startPageCheck({ context, harness, configureForHarness, sidePanel }, { wrap });
  const checks = held!;
  await expect(panel.page.getByRole('status').getByText(/^0 of 8 checked$/)).toBeVisible({ timeout: 20_000 });

  // A question while the page is being checked: it runs at once, in a thread of its own.
  await panel.ask('Summarize this page');
  await expect(panel.page.getByTestId('live-check')).toContainText('Checking Two landmarks of Paris science and steel');
  await expect(panel.page.locator('article.run[data-mode=ask]')).toHaveCount(1);
  await expect(panel.page.locator('article.run[data-mode=page]')).toHaveCount(0);
  await expect(panel.page.locator('article.run[data-mode=ask] [data-testid=run-status]')).toHaveText('Done', { timeout: 20_000 });

  // Back to the check, then cancel it while its checks wait on the model.
  await panel.page.getByTestId('live-check').getByRole('button', { name: 'Show' }).click();
  const check = panel.page.locator('article.run[data-mode=page]');
  await expect(check).toBeVisible();
  await expect.poll(() => checks.pending()).toBeGreaterThan(0);
  await check.getByRole('button', { name: 'Cancel' }).click();
  await expect(check.getByTestId('run-status')).toHaveText('Cancelled');
  // Cancelled before any check answered: the calls in flight were dropped, none was answered.
  await expect.poll(() => checks.abandoned()).toBe(checks.requests.length);
  const checksAtCancel = harness.llm.chatRequests().filter((r) => r.stage === 'page-check').length;
  const checked = Number(/^(\d) of 8 checked/.exec((await check.getByTestId('verdict-summary').textContent()) ?? '')?.[1]);
  expect(checked).toBeLessThan(8);

  // Retry continues: the list is not made again, the claims already checked are kept, the others
  // are checked.
  checks.release();
  await check.getByRole('button', { name: 'Retry' }).click();
  await finished(panel);
  expect(harness.llm.chatRequests().filter((r) => r.stage === 'page-claims')).toHaveLength(1);
  expect(harness.llm.chatRequests().filter((r) => r.stage === 'page-check')).toHaveLength(checksAtCancel + 8 - checked);
  await expect(panel.verdictSummary).toHaveText(SUMMARY);
});
