/** The store listing's images (store/images/, described in store/README.md) and the extension's
 * icons (public/icon/), from the real extension in Chromium: each screenshot is the page the user
 * reads beside the side panel, 1280×800 as both stores ask; the promo tile is 440×280. */
import type { BrowserContext, Page } from '@playwright/test';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../e2e/fixtures.ts';
import { chooseTabs, followUp, summarizeThisPage, verifyWithMarks } from '../e2e/scenes.ts';

const STORE_DIR = path.resolve('store/images');
const ICON_DIR = path.resolve('public/icon');
const SHOT = { width: 1280, height: 800 };
const PANEL_WIDTH = 420;

/** The page at the left, a rule, the panel at the right: one 1280×800 picture. */
async function beside(context: BrowserContext, page: Page, panel: Page, file: string): Promise<void> {
  const pageWidth = SHOT.width - PANEL_WIDTH - 1;
  await page.setViewportSize({ width: pageWidth, height: SHOT.height });
  await panel.setViewportSize({ width: PANEL_WIDTH, height: SHOT.height });
  for (const p of [page, panel]) await p.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  const left = (await page.screenshot()).toString('base64');
  const right = (await panel.screenshot()).toString('base64');
  await compose(context, `<div style="display:flex"><img src="data:image/png;base64,${left}"><div style="width:1px;background:#b8c0ca"></div><img src="data:image/png;base64,${right}"></div>`, SHOT, file);
}

async function compose(context: BrowserContext, body: string, size: { width: number; height: number }, file: string, opts: { transparent?: boolean } = {}): Promise<void> {
  const frame = await context.newPage();
  await frame.setViewportSize(size);
  await frame.setContent(`<!doctype html><html><body style="margin:0;overflow:hidden">${body}</body></html>`);
  await frame.evaluate(() => Promise.all([...document.images].map((i) => i.decode())));
  await mkdir(path.dirname(file), { recursive: true });
  await frame.screenshot({ path: file, omitBackground: opts.transparent });
  await frame.close();
}

const scrollTop = (p: Page) => p.evaluate(() => window.scrollTo(0, 0));

test('icons: 16, 32, 48, 96 and 128 px', async ({ context }) => {
  const full = await readFile(path.resolve('store/icon.svg'), 'utf8');
  const small = await readFile(path.resolve('store/icon-small.svg'), 'utf8');
  const svg = (src: string, size: number) => src.replace('<svg ', `<svg width="${size}" height="${size}" `);
  for (const size of [16, 32]) await compose(context, svg(small, size), { width: size, height: size }, path.join(ICON_DIR, `${size}.png`), { transparent: true });
  for (const size of [48, 96]) await compose(context, svg(full, size), { width: size, height: size }, path.join(ICON_DIR, `${size}.png`), { transparent: true });
  // The Chrome Web Store's 128 px icon: 96 px of artwork with 16 px of transparent margin.
  await compose(context, `<div style="padding:16px">${svg(full, 96)}</div>`, { width: 128, height: 128 }, path.join(ICON_DIR, '128.png'), { transparent: true });
});

test('promo tile, 440×280', async ({ context }) => {
  const icon = (await readFile(path.resolve('store/icon.svg'), 'utf8')).replace('<svg ', '<svg width="112" height="112" ');
  await compose(
    context,
    `<div style="width:440px;height:280px;box-sizing:border-box;padding:0 28px;display:flex;align-items:center;gap:22px;background:linear-gradient(135deg,#f4f7ff 0%,#dfe8ff 100%);font-family:'Noto Sans',system-ui,sans-serif;color:#1b1f24">
      <div style="flex:none;filter:drop-shadow(0 6px 14px rgba(39,84,197,.35))">${icon}</div>
      <div><div style="font-size:44px;font-weight:700;letter-spacing:-0.5px;color:#1f3f99">Ratify</div>
      <div style="font-size:17px;line-height:1.4;margin-top:6px;white-space:nowrap">Check what you read.<br>Ask what you want to know.<br>Answers cite their sources.</div></div>
    </div>`,
    { width: 440, height: 280 },
    path.join(STORE_DIR, 'promo-tile-440x280.png'),
  );
});

test('1: Verify with RAT, marks in the page and the corrections in the panel', async ({ context, worker, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView, page } = await verifyWithMarks({ context, worker, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await page.evaluate(() => window.getSelection()?.removeAllRanges());
  await page.bringToFront();
  await scrollTop(panel);
  await beside(context, page, panel, path.join(STORE_DIR, 'en', '1-verify.png'));
});

test('2: a question about the page being read', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView, article } = await summarizeThisPage({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await scrollTop(panel);
  await beside(context, article, panel, path.join(STORE_DIR, 'en', '2-this-page.png'));
});

test('3: tabs chosen with @ answer the question', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView, tabs } = await chooseTabs({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await scrollTop(panel);
  await beside(context, tabs[1]!, panel, path.join(STORE_DIR, 'en', '3-chosen-tabs.png'));
});

test('4: a follow-up in a thread, and the history', async ({ context, harness, configureForHarness, sidePanel }) => {
  const article = await context.newPage();
  await article.goto(harness.site.url('/articles/marie-curie.html'));
  const { panel: panelView } = await followUp({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await panel.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await beside(context, article, panel, path.join(STORE_DIR, 'en', '4-thread.png'));
  await panel.getByRole('button', { name: 'New thread' }).click();
  await panelView.ask('How tall is Mount Fuji?');
  await panelView.waitForRun(1);
  await panel.getByRole('tab', { name: 'History' }).click();
  await panel.locator('.history-list li').nth(1).waitFor();
  await beside(context, article, panel, path.join(STORE_DIR, 'en', '5-history.png'));
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('1: the welcome card beside a page', async ({ context, harness, openPanel }) => {
    const page = await context.newPage();
    await page.goto(harness.site.url('/articles/tu-youyou.html'));
    const panel = await openPanel();
    await expect(panel.getByTestId('onboarding')).toContainText('欢迎使用 Ratify');
    await beside(context, page, panel, path.join(STORE_DIR, 'zh-CN', '1-welcome.png'));
  });

  test('2: the settings', async ({ context, extensionId }) => {
    const options = await context.newPage();
    await options.setViewportSize(SHOT);
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    await expect(options.getByRole('heading', { level: 1 })).toHaveText('Ratify 设置');
    await options.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await mkdir(path.join(STORE_DIR, 'zh-CN'), { recursive: true });
    await options.screenshot({ path: path.join(STORE_DIR, 'zh-CN', '2-settings.png') });
  });
});
