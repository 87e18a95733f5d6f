/**
 * Launching Debian's Chromium with the built extension, shared by the e2e fixtures
 * (./fixtures.ts) and the extension benchmark (bench/extension/measure.ts), so both measure and
 * test the same browser set-up.
 */
import { chromium, type BrowserContext } from '@playwright/test';
import path from 'node:path';

export const EXTENSION_DIR = path.resolve('.output/chrome-mv3');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface LaunchOptions {
  /** UI language of the browser (and so of the extension's UI); Playwright's `locale` fixture
   * type allows undefined, passed through as before. */
  locale: string | undefined;
  /** Added after the standard arguments (e.g. `--remote-debugging-port=0` for the benchmark). */
  extraArgs?: string[];
  /** Default true; the `npm start` demo opens a window when there is a display. */
  headless?: boolean;
  /** Default CHROMIUM. */
  executablePath?: string;
  /** The unpacked extension to load; default EXTENSION_DIR (the current build). */
  extensionDir?: string;
  /** Other Playwright context options (viewport, signal handling). */
  contextOptions?: Omit<Parameters<typeof chromium.launchPersistentContext>[1], 'args' | 'executablePath' | 'headless' | 'locale'>;
}

/** A fresh persistent context in `userDataDir` (extensions only load into persistent contexts). */
export function launchWithExtension(userDataDir: string, { locale, extraArgs = [], headless = true, executablePath = CHROMIUM, extensionDir = EXTENSION_DIR, contextOptions = {} }: LaunchOptions): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    ...contextOptions,
    executablePath,
    headless,
    locale,
    args: [
      ...(locale ? [`--lang=${locale}`] : []),
      '--no-sandbox',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-gpu',
      '--disable-quic',
      // Fixture hosts with real-looking names (e.g. mybank.test for the excluded-domains rule)
      // all resolve to this machine; nothing leaves it.
      '--host-resolver-rules=MAP *.test 127.0.0.1',
      ...extraArgs,
    ],
  });
}

/** The extension's id, from its service worker (which may start a moment after the browser). */
export async function extensionIdOf(context: BrowserContext): Promise<string> {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  return new URL(worker.url()).host;
}

/**
 * Gives Ratify access to sites (its optional host permission) through the path a user has in
 * Chromium besides the permission dialog, which Playwright cannot answer
 * (microsoft/playwright#32755): the user allows the extension on all sites on its details page
 * (chrome://extensions/?id=…, whose "Site access" is backed by `chrome.developerPrivate`), then
 * presses Ratify's own "Allow reading sites" in Settings. That press calls
 * `permissions.request`, which Chrome grants without showing its dialog again because the user
 * already allowed it. (The details page alone does not activate an optional permission: measured
 * with Chromium 156, `permissions.contains` stays false and tabs cannot be scripted until the
 * extension requests it.)
 */
export async function grantSiteAccess(context: BrowserContext, extensionId: string): Promise<void> {
  await allowOnDetailsPage(context, extensionId);
  const settings = await context.newPage();
  await settings.goto(`chrome-extension://${extensionId}/options.html`);
  const setting = settings.locator('[data-testid=site-access-setting]');
  await setting.getByRole('button').click();
  await setting.and(settings.locator('[data-state=granted]')).waitFor({ timeout: 10_000 });
  await settings.close();
}

/** The first half of grantSiteAccess: the user allows Ratify on all sites on its details page.
 * Ratify's own request (its button) then activates the permission without a dialog. */
export async function allowOnDetailsPage(context: BrowserContext, extensionId: string): Promise<void> {
  const details = await context.newPage();
  await details.goto(`chrome://extensions/?id=${extensionId}`);
  const error = await details.evaluate(
    (id) =>
      new Promise<string>((resolve) => {
        const dp = (globalThis as unknown as { chrome: { developerPrivate: { addHostPermission(id: string, host: string, done: () => void): void }; runtime: { lastError?: { message?: string } } } }).chrome;
        dp.developerPrivate.addHostPermission(id, '<all_urls>', () => resolve(dp.runtime.lastError?.message ?? ''));
      }),
    extensionId,
  );
  await details.close();
  if (error) throw new Error(`chrome://extensions refused site access: ${error}`);
}
