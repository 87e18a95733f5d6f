/**
 * Firefox smoke: the built Firefox add-on (.output/firefox-mv2) in Debian's Firefox ESR, against
 * the same local servers as the Chromium suite (fake OpenAI-compatible LLM, fake search, fixture
 * site). It asks in the sidebar's page, verifies a selection and checks a whole page through the
 * real context menu.
 */
import { expect, test as base } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { writeFile } from 'node:fs/promises';
import { startHarness, type Harness } from '../harness/index.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { SETTINGS_VERSION } from '../../lib/settings/migrations.ts';
import { launchFirefox, type LaunchedFirefox } from './launch.ts';
import { ARTICLE, EXPECTED_MARKS, LANDMARK_CLAIMS, SUMMARY } from '../e2e/check-page-scene.ts';

const test = base.extend<{ firefox: LaunchedFirefox }, { harness: Harness }>({
  harness: [
    async ({}, use) => {
      const h = await startHarness();
      await use(h);
      await h.close();
    },
    { scope: 'worker' },
  ],
  firefox: async ({ harness }, use) => {
    harness.llm.reset();
    // Firefox suspends a non-persistent background 30 s after its last event, even mid-fetch;
    // at 1 s every model call below outlives it, so a run only finishes if the background is
    // persistent (why the Firefox build is MV2: wxt.config.ts).
    const ff = await launchFirefox({ prefs: { 'extensions.background.idle.timeout': 1000 } });
    await ff.grantSiteAccess();
    await use(ff);
    await ff.close();
  },
});

/** The sidebar's page in a tab (same extension origin and storage as the sidebar itself), set up
 * for the harness the way the options page stores settings. */
async function openPanel(ff: LaunchedFirefox, harness: Harness): Promise<Page> {
  const panel = await ff.openExtensionPage('sidepanel.html');
  await panel.evaluate(async (settings) => {
    await (globalThis as unknown as { browser: { storage: { local: { set(v: object): Promise<void> } } } }).browser.storage.local.set({ settings });
  }, { version: SETTINGS_VERSION, ...harness.settingsPatch() });
  return panel;
}

const text = (page: Page, selector: string) => page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => (e as HTMLElement).innerText.trim()), selector);

test('Firefox: the add-on answers in the sidebar page with citations and verifies a selection from the context menu', async ({ firefox, harness }, testInfo) => {
  // The sidebar is what a user opens; its page is the same document.
  const sidebar = await firefox.inBrowserWindow<{ open: boolean; id: string }>('({ open: SidebarController.isOpen, id: SidebarController.currentID })');
  expect(sidebar.id).toMatch(/ratify/);

  // Ask, with an article open as a tab: the answer cites the tab and a web result.
  const curie = await firefox.browser.newPage();
  await curie.goto(harness.site.url('/articles/marie-curie.html'));
  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.2 },
      steps: ['Marie Curie moved to Paris in 1891.', 'The Eiffel Tower was completed in 1889.'],
      facts: [
        { step: 0, phrase: 'moved to Paris' },
        { step: 1, phrase: 'completed in March 1889', revised: 'The Eiffel Tower was completed in March 1889.' },
      ],
      finalAnswer: 'Marie Curie moved to Paris in 1891, two years after the Eiffel Tower was completed in March 1889.',
    }),
  );
  harness.llm.setLatency({ firstTokenMs: 1200, tokensPerSec: 400 });
  const panel = await openPanel(firefox, harness);
  await panel.locator('textarea').fill('Did Marie Curie arrive in Paris before or after the Eiffel Tower was finished?');
  await panel.keyboard.press('Enter');
  await expect.poll(() => text(panel, '[data-testid=run-status]'), { timeout: 40_000 }).toEqual(['Done']);
  expect((await text(panel, '[data-testid=answer]'))[0]).toContain('Marie Curie moved to Paris in 1891');
  const sources = await text(panel, 'ol.sources > li');
  expect(sources).toHaveLength(2);
  expect(sources[0]).toContain('Marie Curie');
  expect(sources[0]).toContain('open tab');
  expect(sources[1]).toContain('Eiffel');
  expect(sources[1]).toContain('web');
  expect(await panel.$$eval('[data-testid=answer] [data-cite]', (els) => els.map((e) => e.getAttribute('data-cite')))).toEqual(expect.arrayContaining(['1', '2']));
  await panel.setViewport({ width: 420, height: 1300 });
  await writeFile(testInfo.outputPath('firefox-answer.png'), await panel.screenshot());
  // Every model call was made once: the background was never restarted mid-run.
  expect(harness.llm.chatRequests().map((c) => c.stage)).toEqual(['gate', 'draft', 'revise', 'revise']);

  // Verify: select three sentences on the demo page, right-click, choose "Verify with RAT".
  harness.llm.reset();
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
  await firefox.inBrowserWindow('SidebarController.hide()');
  const demo = await firefox.browser.newPage();
  await demo.goto(harness.site.url('/demo.html'));
  await demo.bringToFront();
  const selected = await demo.evaluate(() => {
    const range = document.createRange();
    range.setStartBefore(document.getElementById('claim-curie-paris')!);
    range.setEndAfter(document.getElementById('claim-eiffel-wrong')!);
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    return sel.toString();
  });
  const box = (await (await demo.$('#claim-curie-paris'))!.boundingBox())!;
  await demo.mouse.click(box.x + 10, box.y + box.height / 2, { button: 'right' });
  const activated = await firefox.inBrowserWindow<string>(`(() => {
    const menu = document.getElementById('contentAreaContextMenu');
    const item = [...menu.querySelectorAll('menuitem')].find((i) => i.label === 'Verify with RAT' && !i.hidden);
    if (menu.state !== 'open' || !item) return 'menu ' + menu.state + ', item ' + (item ? 'found' : 'missing');
    menu.activateItem(item);
    return 'activated';
  })()`);
  expect(activated).toBe('activated');
  // The menu click opens the sidebar on Ratify.
  await expect.poll(() => firefox.inBrowserWindow<{ open: boolean; id: string }>('({ open: SidebarController.isOpen, id: SidebarController.currentID })')).toEqual({ open: true, id: sidebar.id });

  const runs = await openPanel(firefox, harness);
  await expect.poll(() => text(runs, '[data-testid=run-status]'), { timeout: 40_000 }).toEqual(['Done']);
  // The selection is kept with the run, folded below its report (the verdicts come first).
  const squash = (t: string | undefined) => (t ?? '').replace(/\s+/g, ' ').trim();
  expect(squash(await runs.$eval('[data-testid=run-input]', (e) => e.textContent ?? ''))).toBe(squash(selected));
  const verdicts = await runs.$$eval('.claims [data-claim-verdict]', (els) => els.map((e) => e.getAttribute('data-claim-verdict')));
  expect(verdicts.sort()).toEqual(['corrected', 'supported', 'supported']);
  expect((await text(runs, '.claims [data-claim-verdict=corrected]'))[0]).toContain('completed in 1889 and is 330 metres tall');
  expect((await text(runs, 'ol.sources > li'))[0]).toContain('Marie Curie');

  // What the user sees in the sidebar (BiDi cannot photograph the browser window itself; the
  // page is the sidebar's document), kept with the test's results.
  await runs.setViewport({ width: 420, height: 1300 });
  await writeFile(testInfo.outputPath('firefox-verify.png'), await runs.screenshot());
});

test('Firefox: the context menu speaks the language chosen in Ratify’s settings, and follows a change', async ({ firefox, harness }) => {
  const panel = await openPanel(firefox, harness);
  const demo = await firefox.browser.newPage();
  await demo.goto(harness.site.url('/demo.html'));
  const menuLabel = async (): Promise<string> => {
    await demo.bringToFront();
    await demo.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('claim-curie-paris')!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    });
    const box = (await (await demo.$('#claim-curie-paris'))!.boundingBox())!;
    await demo.mouse.click(box.x + 10, box.y + box.height / 2, { button: 'right' });
    return firefox.inBrowserWindow<string>(`(() => {
      const menu = document.getElementById('contentAreaContextMenu');
      const item = [...menu.querySelectorAll('menuitem')].find((i) => /RAT/.test(i.label) && !i.hidden);
      const label = item ? item.label : 'missing';
      menu.hidePopup();
      return label;
    })()`);
  };
  const setLanguage = (language: string) =>
    panel.evaluate(async (language) => {
      const storage = (globalThis as unknown as { browser: { storage: { local: { get(k: string): Promise<Record<string, Record<string, unknown>>>; set(v: object): Promise<void> } } } }).browser.storage.local;
      const { settings } = await storage.get('settings');
      await storage.set({ settings: { ...settings, ui: { language } } });
    }, language);
  await expect.poll(menuLabel).toBe('Verify with RAT');
  await setLanguage('zh-CN');
  await expect.poll(menuLabel).toBe('用 RAT 核查');
  await setLanguage('en');
  await expect.poll(menuLabel).toBe('Verify with RAT');
});

test('Firefox: "Check this page" from the page\'s context menu marks every visible claim by its verdict, nothing hidden or in the menu and footer', async ({ firefox, harness }, testInfo) => {
  harness.llm.setResponder(pipelineResponder({ claims: LANDMARK_CLAIMS }));
  const panel = await openPanel(firefox, harness);
  await firefox.inBrowserWindow('SidebarController.hide()');
  for (const path of ['/articles/eiffel-tower.html', '/articles/marie-curie.html']) await (await firefox.browser.newPage()).goto(harness.site.url(path));
  const article = await firefox.browser.newPage();
  await article.goto(harness.site.url(ARTICLE));
  await article.bringToFront();
  const heading = (await (await article.$('h1'))!.boundingBox())!;
  await article.mouse.click(heading.x + 10, heading.y + heading.height / 2, { button: 'right' });
  const activated = await firefox.inBrowserWindow<string>(`(() => {
    const menu = document.getElementById('contentAreaContextMenu');
    const item = [...menu.querySelectorAll('menuitem')].find((i) => i.label === 'Check this page' && !i.hidden);
    if (menu.state !== 'open' || !item) return 'menu ' + menu.state + ', item ' + (item ? 'found' : 'missing');
    menu.activateItem(item);
    return 'activated';
  })()`);
  expect(activated).toBe('activated');

  await expect.poll(() => text(panel, '[data-testid=run-status]'), { timeout: 60_000 }).toEqual(['Done']);
  expect(await text(panel, '[data-testid=verdict-summary]')).toEqual([SUMMARY]);
  const marks = () =>
    article.evaluate(() =>
      [...document.querySelectorAll('[data-ratify-mark][tabindex="0"]')].map((m) => `${m.closest('p, nav, footer, h1')?.id || m.closest('p, nav, footer, h1')?.tagName}: ${/^Ratify: (\w+)\./.exec(m.getAttribute('aria-label') ?? '')?.[1]}`),
    );
  await expect.poll(marks).toEqual(Object.entries(EXPECTED_MARKS).flatMap(([id, vs]) => vs.map((v) => `${id}: ${v}`)));
  const corrected = (await panel.evaluate(() => document.querySelector('[data-testid=corrected]')?.textContent ?? '')) as string;
  expect(corrected).toContain('The Eiffel Tower was completed in 1889 and is 330 metres tall.');
  expect(corrected).not.toMatch(/1899|300 metres|in 1921/);
  await panel.setViewport({ width: 420, height: 1300 });
  await writeFile(testInfo.outputPath('firefox-check-page.png'), await panel.screenshot());
});
