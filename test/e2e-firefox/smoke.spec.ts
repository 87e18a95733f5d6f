/**
 * Firefox smoke: the built Firefox add-on (.output/firefox-mv2) in Debian's Firefox ESR, against
 * the same local servers as the Chromium suite (fake OpenAI-compatible LLM, fake search, fixture
 * site). It asks in the sidebar's page, verifies a selection and checks a whole page through the
 * real context menu.
 */
import { writeFile } from 'node:fs/promises';
import { notBeside } from '../harness/fake-llm-request.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { ARTICLE, EXPECTED_MARKS, LANDMARK_CLAIMS, SUMMARY } from '../e2e/check-page-scene.ts';
import { contextMenu, expect, FirefoxPanel, selectBetween, sidebarState, test } from './fixtures.ts';

// Firefox suspends a non-persistent background 30 s after its last event, even mid-fetch; at 1 s
// every model call below outlives it, so a run only finishes if the background is persistent (why
// the Firefox build is MV2: wxt.config.ts).
test.use({ prefs: { 'extensions.background.idle.timeout': 1000 } });

test('Firefox: the add-on answers in the sidebar page with citations and verifies a selection from the context menu', async ({ firefox, harness }, testInfo) => {
  // The sidebar is what a user opens; its page is the same document.
  const sidebar = await sidebarState(firefox);
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
  const panel = await FirefoxPanel.forHarness(firefox, harness);
  await panel.askAndWait('Did Marie Curie arrive in Paris before or after the Eiffel Tower was finished?');
  expect((await panel.answers())[0]).toContain('Marie Curie moved to Paris in 1891');
  const sources = await panel.sources();
  expect(sources).toHaveLength(2);
  expect(sources[0]).toContain('Marie Curie');
  expect(sources[0]).toContain('open tab');
  expect(sources[1]).toContain('Eiffel');
  expect(sources[1]).toContain('web');
  expect(await panel.page.$$eval('[data-testid=answer] [data-cite]', (els) => els.map((e) => e.getAttribute('data-cite')))).toEqual(expect.arrayContaining(['1', '2']));
  await panel.page.setViewport({ width: 420, height: 1300 });
  await writeFile(testInfo.outputPath('firefox-answer.png'), await panel.page.screenshot());
  // Every model call was made once: the background was never restarted mid-run.
  const stages = harness.llm.chatRequests().map((c) => c.stage ?? '');
  expect(stages.filter(notBeside)).toEqual(['gate', 'draft', 'revise', 'revise']);
  expect(stages.filter((s) => !notBeside(s)).length).toBeLessThanOrEqual(1);

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
  const selected = await selectBetween(demo, 'claim-curie-paris', 'claim-eiffel-wrong');
  expect(await contextMenu(firefox, demo, '#claim-curie-paris', 'Verify with RAT')).toBe('activated');
  // The menu click opens the sidebar on Ratify.
  await expect.poll(() => sidebarState(firefox)).toEqual({ open: true, id: sidebar.id });

  const runs = await FirefoxPanel.forHarness(firefox, harness);
  await runs.waitForRuns(1);
  // The selection is kept with the run, folded below its report (the verdicts come first).
  const squash = (t: string | undefined) => (t ?? '').replace(/\s+/g, ' ').trim();
  expect(squash(await runs.page.$eval('[data-testid=run-input]', (e) => e.textContent ?? ''))).toBe(squash(selected));
  const verdicts = await runs.page.$$eval('.claims [data-claim-verdict]', (els) => els.map((e) => e.getAttribute('data-claim-verdict')));
  expect(verdicts.sort()).toEqual(['corrected', 'supported', 'supported']);
  expect((await runs.texts('.claims [data-claim-verdict=corrected]'))[0]).toContain('completed in 1889 and is 330 metres tall');
  expect((await runs.sources())[0]).toContain('Marie Curie');

  // What the user sees in the sidebar (BiDi cannot photograph the browser window itself; the
  // page is the sidebar's document), kept with the test's results.
  await runs.page.setViewport({ width: 420, height: 1300 });
  await writeFile(testInfo.outputPath('firefox-verify.png'), await runs.page.screenshot());
});

test('Firefox: the context menu speaks the language chosen in Ratify’s settings, and follows a change', async ({ firefox, harness }) => {
  const panel = await FirefoxPanel.forHarness(firefox, harness);
  const demo = await firefox.browser.newPage();
  await demo.goto(harness.site.url('/demo.html'));
  const menuLabel = async (): Promise<string> => {
    await demo.bringToFront();
    await selectBetween(demo, 'claim-curie-paris', 'claim-curie-paris');
    return contextMenu(firefox, demo, '#claim-curie-paris', /RAT/, { choose: false });
  };
  const setLanguage = async (language: string) => {
    const { settings } = (await panel.settings()) as { settings: Record<string, unknown> };
    await panel.configure({ ...settings, ui: { language } } as Parameters<FirefoxPanel['configure']>[0]);
  };
  await expect.poll(menuLabel).toBe('Verify with RAT');
  await setLanguage('zh-CN');
  await expect.poll(menuLabel).toBe('用 RAT 核查');
  await setLanguage('en');
  await expect.poll(menuLabel).toBe('Verify with RAT');
});

test('Firefox: "Check this page" from the page\'s context menu marks every visible claim by its verdict, nothing hidden or in the menu and footer', async ({ firefox, harness }, testInfo) => {
  harness.llm.setResponder(pipelineResponder({ claims: LANDMARK_CLAIMS }));
  const panel = await FirefoxPanel.forHarness(firefox, harness);
  await firefox.inBrowserWindow('SidebarController.hide()');
  for (const path of ['/articles/eiffel-tower.html', '/articles/marie-curie.html']) await (await firefox.browser.newPage()).goto(harness.site.url(path));
  const article = await firefox.browser.newPage();
  await article.goto(harness.site.url(ARTICLE));
  await article.bringToFront();
  expect(await contextMenu(firefox, article, 'h1', 'Check this page')).toBe('activated');

  await panel.waitForRuns(1, 60_000);
  expect(await panel.texts('[data-testid=verdict-summary]')).toEqual([SUMMARY]);
  const marks = () =>
    article.evaluate(() =>
      [...document.querySelectorAll('[data-ratify-mark][tabindex="0"]')].map((m) => `${m.closest('p, nav, footer, h1')?.id || m.closest('p, nav, footer, h1')?.tagName}: ${/^Ratify: (\w+)\./.exec(m.getAttribute('aria-label') ?? '')?.[1]}`),
    );
  await expect.poll(marks).toEqual(Object.entries(EXPECTED_MARKS).flatMap(([id, vs]) => vs.map((v) => `${id}: ${v}`)));
  const corrected = await panel.page.evaluate(() => document.querySelector('[data-testid=corrected]')?.textContent ?? '');
  expect(corrected).toContain('The Eiffel Tower was completed in 1889 and is 330 metres tall.');
  expect(corrected).not.toMatch(/1899|300 metres|in 1921/);
  await panel.page.setViewport({ width: 420, height: 1300 });
  await writeFile(testInfo.outputPath('firefox-check-page.png'), await panel.page.screenshot());
});
