/**
 * The Firefox specs' one set-up: the local test world (fake LLM, fake search, fixture site) per
 * worker, Firefox ESR with the built add-on per test (launch.ts), and the sidebar's page and the
 * browser's context menu as a user meets them.
 */
import { expect, test as base } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import type { Harness } from '../harness/index.ts';
import { harnessPerWorker } from '../e2e/harness-fixture.ts';
import type { SettingsPatch } from '../../lib/settings/schema.ts';
import { SETTINGS_VERSION } from '../../lib/settings/migrations.ts';
import { launchFirefox, type LaunchedFirefox } from './launch.ts';

export { expect };

export interface FirefoxOptions {
  /** Extra Firefox preferences for this test's browser. */
  prefs: Record<string, unknown>;
  /** Start with Ratify allowed to read sites (Settings → "Allow reading sites"). Default true. */
  siteAccess: boolean;
}

export const test = base.extend<{ firefox: LaunchedFirefox } & FirefoxOptions, { harness: Harness }>({
  harness: harnessPerWorker,
  prefs: [{}, { option: true }],
  siteAccess: [true, { option: true }],
  firefox: async ({ harness, prefs, siteAccess }, use) => {
    harness.llm.reset();
    const ff = await launchFirefox({ prefs });
    if (siteAccess) await ff.grantSiteAccess();
    await use(ff);
    await ff.close();
  },
});

/** The sidebar's page in a tab (same extension origin and storage as the sidebar itself). */
export class FirefoxPanel {
  constructor(readonly page: Page) {}

  /** Opens the panel's page and stores `settings` the way the options page does. */
  static async open(ff: LaunchedFirefox, settings?: SettingsPatch & { version?: number }): Promise<FirefoxPanel> {
    const panel = new FirefoxPanel(await ff.openExtensionPage('sidepanel.html'));
    if (settings) await panel.configure(settings);
    return panel;
  }
  /** Settings pointing at the harness (as the Chromium specs' configureForHarness). */
  static forHarness(ff: LaunchedFirefox, harness: Harness, patch: SettingsPatch = {}): Promise<FirefoxPanel> {
    return FirefoxPanel.open(ff, { ...harness.settingsPatch(), ...patch });
  }

  async configure(settings: SettingsPatch & { version?: number }): Promise<void> {
    await this.page.evaluate(async (s) => {
      const storage = (globalThis as unknown as { browser: { storage: { local: { set(v: object): Promise<void> } } } }).browser.storage.local;
      await storage.set({ settings: s });
    }, { version: SETTINGS_VERSION, ...settings });
  }
  /** The stored settings, as the extension reads them. */
  settings(): Promise<Record<string, unknown>> {
    return this.page.evaluate(() => (globalThis as unknown as { browser: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } } }).browser.storage.local.get('settings'));
  }

  /** Each element's visible text, in document order. */
  texts(selector: string): Promise<string[]> {
    return this.page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => (e as HTMLElement).innerText.trim()), selector);
  }
  attr(selector: string, name: string): Promise<string | null> {
    return this.page.evaluate((s, n) => document.querySelector(s)?.getAttribute(n) ?? null, selector, name);
  }
  statuses(): Promise<string[]> {
    return this.texts('[data-testid=run-status]');
  }
  answers(): Promise<string[]> {
    return this.texts('[data-testid=answer]');
  }
  sources(): Promise<string[]> {
    return this.texts('ol.sources > li');
  }

  /** Types a question and sends it (Enter). */
  async ask(question: string): Promise<void> {
    await this.page.locator('textarea').fill(question);
    await this.page.keyboard.press('Enter');
  }
  /** Waits until the thread shows `runs` runs, all done. */
  async waitForRuns(runs = 1, timeout = 40_000): Promise<void> {
    await expect.poll(() => this.statuses(), { timeout }).toEqual(Array<string>(runs).fill('Done'));
  }
  async askAndWait(question: string, runs = 1): Promise<void> {
    await this.ask(question);
    await this.waitForRuns(runs);
  }
}

/** Selects the page's text from the start of one element to the end of another; returns it. */
export function selectBetween(page: Page, fromId: string, toId: string): Promise<string> {
  return page.evaluate(
    (a, b) => {
      const range = document.createRange();
      range.setStartBefore(document.getElementById(a)!);
      range.setEndAfter(document.getElementById(b)!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
      return getSelection()!.toString();
    },
    fromId,
    toId,
  );
}

/** Right-clicks an element of the page and, in the browser's real context menu, chooses the item
 * `label` (a RegExp source matches the first item whose label it matches). Returns 'activated', or
 * what was wrong. With `choose: false` the menu is only read and closed: the item's label. */
export async function contextMenu(ff: LaunchedFirefox, page: Page, selector: string, label: string | RegExp, o: { choose?: boolean } = {}): Promise<string> {
  const box = await (await page.$(selector))?.boundingBox();
  if (!box) throw new Error(`nothing to right-click at ${selector}`);
  await page.mouse.click(box.x + 10, box.y + box.height / 2, { button: 'right' });
  const match = typeof label === 'string' ? `i.label === ${JSON.stringify(label)}` : `new RegExp(${JSON.stringify(label.source)}).test(i.label)`;
  return ff.inBrowserWindow<string>(`(() => {
    const menu = document.getElementById('contentAreaContextMenu');
    const item = [...menu.querySelectorAll('menuitem')].find((i) => ${match} && !i.hidden);
    ${
      o.choose === false
        ? `const label = item ? item.label : 'missing';
    menu.hidePopup();
    return label;`
        : `if (menu.state !== 'open' || !item) return 'menu ' + menu.state + ', item ' + (item ? 'found' : 'missing');
    menu.activateItem(item);
    return 'activated';`
    }
  })()`);
}

/** Whether the sidebar is open, and on which panel. */
export function sidebarState(ff: LaunchedFirefox): Promise<{ open: boolean; id: string }> {
  return ff.inBrowserWindow<{ open: boolean; id: string }>('({ open: SidebarController.isOpen, id: SidebarController.currentID })');
}
