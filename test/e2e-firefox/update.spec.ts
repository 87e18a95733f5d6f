/**
 * Firefox: an update keeps the user's data. The previous release (test/e2e/older-build.ts) is
 * installed, given settings, site access and a thread; then this build is installed over it in
 * the same session with the same add-on id — an upgrade, as an update from addons.mozilla.org is —
 * and the settings, site access and history are checked where the user sees them, and the thread
 * is continued.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { olderBuild, type OlderBuild } from '../e2e/older-build.ts';
import { FIREFOX_EXTENSION_DIR, GECKO_ID, launchFirefox } from './launch.ts';
import { expect, FirefoxPanel, test as base } from './fixtures.ts';

const test = base.extend<object, { older: OlderBuild }>({
  older: [async ({}, use) => use(await olderBuild()), { scope: 'worker', timeout: 300_000 }],
});

type Manifest = { version: string; icons?: unknown };
const manifestOf = (panel: FirefoxPanel) => panel.page.evaluate(() => (globalThis as unknown as { browser: { runtime: { getManifest(): Manifest } } }).browser.runtime.getManifest());

test('Firefox: an update from the previous release keeps settings, site access and threads, and they are usable', async ({ harness, older }) => {
  test.setTimeout(150_000);
  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'incomplete', question: (q, prompt) => (/she/.test(q) && prompt.includes('Marie Curie') ? q.replace('she', 'Marie Curie') : q), confidence: 0.2 },
      steps: (q) => (/born/.test(q) ? ['Marie Curie was born in Warsaw.'] : ['Marie Curie was a physicist and chemist who shared the 1903 Nobel Prize in Physics.']),
      facts: [{ phrase: 'born in Warsaw' }, { phrase: 'Nobel Prize in Physics' }],
    }),
  );
  const ff = await launchFirefox({ extensionDir: older.firefox });
  try {
    // --- The previous release, used.
    const first = await FirefoxPanel.open(ff);
    const olderManifest = JSON.parse(await readFile(path.join(older.firefox, 'manifest.json'), 'utf8')) as Manifest;
    // Which build runs (the icons came after 0.1.0; Firefox reports none as null).
    expect(await manifestOf(first)).toMatchObject({ version: olderManifest.version, icons: olderManifest.icons ?? null });
    await first.configure({ ...harness.settingsPatch(), version: older.settingsVersion });
    await ff.grantSiteAccess();
    const article = await ff.browser.newPage();
    await article.goto(harness.site.url('/articles/marie-curie.html'));
    await first.page.bringToFront();
    await first.askAndWait('Who was Marie Curie?', 1);
    const settingsBefore = await first.settings();
    await first.page.close();

    // --- The update: this build installed over it, same add-on id.
    expect(await ff.browser.installExtension(FIREFOX_EXTENSION_DIR)).toBe(GECKO_ID);
    const panel = await FirefoxPanel.open(ff);
    const current = JSON.parse(await readFile(path.join(FIREFOX_EXTENSION_DIR, 'manifest.json'), 'utf8')) as { icons: Record<string, string> };
    // This build runs now (Firefox gives the icons as full URLs).
    expect(Object.keys((await manifestOf(panel)).icons ?? {})).toEqual(Object.keys(current.icons));
    expect(await panel.settings()).toEqual(settingsBefore);

    const options = await ff.openExtensionPage('options.html');
    expect(await options.$eval('[data-testid=site-access-setting]', (e) => e.getAttribute('data-state'))).toBe('granted');
    expect(await options.evaluate(() => [...document.querySelectorAll('input')].map((i) => i.value))).toContain(harness.llm.baseURL);
    await options.close();

    // History keeps the thread; reopened, it goes on with its conversation.
    await panel.page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[role=tab]')].find((t) => t.innerText.trim() === 'History')?.click());
    await expect.poll(() => panel.texts('.history-list li .history-text')).toEqual(['Who was Marie Curie?']);
    await panel.page.locator('.history-list li .history-item').click();
    await expect.poll(() => panel.answers()).toEqual([expect.stringContaining('Nobel Prize in Physics')]);
    await panel.askAndWait('Where was she born?', 2);
    expect((await panel.answers())[1]).toContain('born in Warsaw');
    const lastGate = harness.llm.chatRequests().filter((r) => r.stage === 'gate').at(-1);
    expect(JSON.stringify(lastGate?.body)).toContain('Q1: Who was Marie Curie?');
  } finally {
    await ff.close();
  }
});
