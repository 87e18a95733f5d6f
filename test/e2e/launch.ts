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
  /** Other Playwright context options (viewport, signal handling). */
  contextOptions?: Omit<Parameters<typeof chromium.launchPersistentContext>[1], 'args' | 'executablePath' | 'headless' | 'locale'>;
}

/** A fresh persistent context in `userDataDir` (extensions only load into persistent contexts). */
export function launchWithExtension(userDataDir: string, { locale, extraArgs = [], headless = true, executablePath = CHROMIUM, contextOptions = {} }: LaunchOptions): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    ...contextOptions,
    executablePath,
    headless,
    locale,
    args: [
      ...(locale ? [`--lang=${locale}`] : []),
      '--no-sandbox',
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
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
