/**
 * Debian's Firefox ESR with the built extension, driven over WebDriver BiDi (puppeteer-core; no
 * geckodriver). The extension is installed the way BiDi's `webExtension.install` installs an
 * unpacked add-on (temporarily, as about:debugging does).
 *
 * Two things need Firefox's `--remote-allow-system-access`: opening the extension's own pages in
 * a tab (WebDriver may not navigate to moz-extension: URLs without it), and reaching the browser
 * window itself (the "chrome" scope), where the tests open the real context menu's item and read
 * the sidebar's state, as a user's clicks would.
 */
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import path from 'node:path';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const FIREFOX_EXTENSION_DIR = path.resolve('.output/firefox-mv2');
/** From wxt.config.ts (browser_specific_settings.gecko.id). */
export const GECKO_ID = 'ratify@ratify.dev';
/** Firefox gives each add-on a random UUID per profile; the pref fixes it, so URLs are known. */
const EXTENSION_UUID = '6b1c0f5e-4a8d-4c1e-9f7a-5e3d2c1b0a99';

export interface LaunchedFirefox {
  browser: Browser;
  version: string;
  /** moz-extension://…/<file> of the installed extension. */
  extensionUrl(file: string): string;
  /** A new tab showing one of the extension's pages (e.g. the sidebar's page). */
  openExtensionPage(file: string): Promise<Page>;
  /** Allows Ratify to read sites the way a user does: Settings → "Allow reading sites", whose
   * `permissions.request` Firefox grants at once here (the profile answers the prompt, see
   * launchFirefox). */
  grantSiteAccess(): Promise<void>;
  /** Evaluates an expression in the browser window (privileged "chrome" scope) and returns its
   * JSON-serialisable value. */
  inBrowserWindow<T>(expression: string): Promise<T>;
  close(): Promise<void>;
}

interface BidiConnection {
  send(method: string, params: object): Promise<{ result: unknown }>;
}
interface EvaluateResult {
  type: 'success' | 'exception';
  result?: { type: string; value?: unknown };
  exceptionDetails?: { text: string };
}

export async function launchFirefox(opts: { prefs?: Record<string, unknown>; extensionDir?: string } = {}): Promise<LaunchedFirefox> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: EXTENSION_UUID }),
      // Firefox grants an add-on's optional-permission request (made inside a click, as ever)
      // without showing its prompt: the test's "Allow". The request path is the product's own.
      'extensions.webextOptionalPermissionPrompts': false,
      ...opts.prefs,
    },
  });
  try {
    const id = await browser.installExtension(opts.extensionDir ?? FIREFOX_EXTENSION_DIR);
    if (id !== GECKO_ID) throw new Error(`installed add-on has id ${id}, expected ${GECKO_ID}`);
  } catch (e) {
    await browser.close();
    throw e;
  }
  // Puppeteer's public API has no chrome-scope calls; its BiDi connection carries them.
  const conn = (browser as unknown as { connection: BidiConnection }).connection;
  const extensionUrl = (file: string) => `moz-extension://${EXTENSION_UUID}/${file}`;

  const browserWindowContext = async (): Promise<string> => {
    const tree = (await conn.send('browsingContext.getTree', { 'moz:scope': 'chrome', maxDepth: 0 })).result as { contexts: { context: string; url: string }[] };
    const win = tree.contexts.find((c) => c.url === 'chrome://browser/content/browser.xhtml');
    if (!win) throw new Error(`no browser window among ${tree.contexts.map((c) => c.url).join(', ')}`);
    return win.context;
  };

  const openExtensionPage = async (file: string): Promise<Page> => {
    const page = await browser.newPage();
    const context = (page.mainFrame() as unknown as { _id: string })._id;
    // wait 'none' and then waiting for the document: the load moves the tab into the extension
    // process, and puppeteer's own goto() waits for a load event it never sees there.
    await conn.send('browsingContext.navigate', { context, url: extensionUrl(file), wait: 'none' });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ready = await page.evaluate(() => `${location.href} ${document.readyState}`).catch(() => '');
      if (ready === `${extensionUrl(file)} complete`) return page;
      if (Date.now() > deadline) throw new Error(`${file} did not load (last seen: ${ready || 'nothing'})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  return {
    browser,
    version: await browser.version(),
    extensionUrl,
    openExtensionPage,
    async grantSiteAccess() {
      const settings = await openExtensionPage('options.html');
      const button = await settings.waitForSelector('[data-testid=site-access-setting][data-state=not-granted] button');
      await button!.click();
      await settings.waitForSelector('[data-testid=site-access-setting][data-state=granted]', { timeout: 10_000 });
      await settings.close();
    },
    async inBrowserWindow<T>(expression: string) {
      const context = await browserWindowContext();
      const r = (await conn.send('script.evaluate', { expression: `JSON.stringify(${expression})`, target: { context }, awaitPromise: true, resultOwnership: 'none' })).result as EvaluateResult;
      if (r.type !== 'success') throw new Error(`in the browser window: ${r.exceptionDetails?.text ?? 'failed'}`);
      const json = r.result?.value;
      return (typeof json === 'string' ? JSON.parse(json) : undefined) as T;
    },
    async close() {
      await browser.close();
    },
  };
}
