/**
 * `npm start`: Ratify running in Chromium with something to try, on a fresh machine, no key needed.
 *
 * Starts the local fixture site and search endpoints, and a "demo model" (answers from the
 * fixture articles) unless a real OpenAI-compatible endpoint is given:
 *
 *   RATIFY_BASE_URL=https://api.openai.com/v1 RATIFY_MODEL=gpt-4o-mini RATIFY_API_KEY=sk-… npm start
 *
 * then launches Chromium with the built extension (.output/chrome-mv3) in a fresh profile, writes
 * the settings, and opens the demo page, two articles and the side panel page. Ctrl+C closes the
 * browser and the servers.
 *
 * Flags: --headless (no window), --screenshot FILE (headless: ask a demo question in the panel,
 * save a picture of it, exit). Env: CHROMIUM_PATH (default /usr/bin/chromium).
 *
 * Where no window can be shown (Linux without DISPLAY or WAYLAND_DISPLAY) it says so at once, and
 * shows the flow in the terminal instead (./demo-tour.ts): a verified sentence and an answered
 * question, printed and pictured; the servers keep running for any browser.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { EXTENSION_DIR, grantSiteAccess, launchWithExtension } from '../e2e/launch.ts';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SettingsPatch } from '../../lib/settings/schema.ts';
import { SETTINGS_VERSION } from '../../lib/settings/migrations.ts';
import { DEMO_MODEL, demoResponder } from './demo-responder.ts';
import { tour } from './demo-tour.ts';
import { startHarness, type Harness } from './index.ts';

const DEMO_QUESTION = 'Who shared the 1903 Nobel Prize in Physics with Marie Curie?';

const { values: flags } = parseArgs({
  options: {
    headless: { type: 'boolean', default: false },
    screenshot: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (flags.help) {
  console.log(`Usage: npm start [-- --headless] [-- --screenshot FILE]

  --headless         run Chromium without a window (the servers keep running until Ctrl+C)
  --screenshot FILE  headless: ask "${DEMO_QUESTION}" in the side panel, save a PNG, exit

Environment:
  RATIFY_BASE_URL, RATIFY_MODEL, RATIFY_API_KEY   use a real OpenAI-compatible endpoint instead of the demo model
  CHROMIUM_PATH                                   the Chromium binary (default /usr/bin/chromium)`);
  process.exit(0);
}

function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  // Branded Google Chrome ignores --load-extension since version 137, so only Chromium builds are tried.
  const candidates: Record<string, string[]> = {
    linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'],
    darwin: ['/Applications/Chromium.app/Contents/MacOS/Chromium'],
    win32: [path.join(process.env.LOCALAPPDATA ?? '', 'Chromium/Application/chrome.exe')],
  };
  return (candidates[process.platform] ?? []).find((p) => existsSync(p));
}

/** A window needs a display on Linux; macOS and Windows always have one. */
function hasDisplay(): boolean {
  return process.platform !== 'linux' || !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function realEndpoint(): { baseURL: string; model: string; apiKey: string } | undefined {
  const baseURL = process.env.RATIFY_BASE_URL?.trim();
  if (!baseURL) return undefined;
  const model = process.env.RATIFY_MODEL?.trim();
  if (!model) fail('RATIFY_BASE_URL is set but RATIFY_MODEL is not: say which model to use (e.g. RATIFY_MODEL=gpt-4o-mini).');
  return { baseURL, model, apiKey: process.env.RATIFY_API_KEY ?? '' };
}

function fail(message: string): never {
  console.error(`\n✗ ${message}\n`);
  process.exit(1);
}

const exe = chromiumPath();
if (!exe) {
  fail(
    process.platform === 'linux'
      ? 'Chromium not found. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH.'
      : 'Chromium not found. Install Chromium (Google Chrome no longer loads unpacked extensions from the command line) and set CHROMIUM_PATH to its binary.',
  );
}
if (!existsSync(path.join(EXTENSION_DIR, 'manifest.json'))) fail(`No built extension in ${EXTENSION_DIR}. Run "npx wxt build" first (npm start does it for you).`);

const real = realEndpoint();
const screenshot = flags.screenshot ? path.resolve(flags.screenshot) : undefined;
const noDisplay = !hasDisplay();
const headless = flags.headless || !!screenshot || noDisplay;
// No window can be shown and none was asked away: the flow is shown in the terminal instead.
const touring = noDisplay && !flags.headless && !screenshot;

const harness: Harness = await startHarness({ llm: { models: [DEMO_MODEL, 'fake-embedding'] } });
harness.llm.setResponder(demoResponder(harness.site.docs));
// A little latency so the answer visibly streams in; none when only taking a picture.
if (!screenshot) harness.llm.setLatency({ firstTokenMs: 400, tokensPerSec: 80 });

const profile = await mkdtemp(path.join(tmpdir(), 'ratify-demo-'));
let context: BrowserContext | undefined;
let stopping: Promise<void> | undefined;

/** Closes everything once; later calls (Ctrl+C, the window closing) wait for the same cleanup. */
async function stop(code = 0): Promise<never> {
  stopping ??= (async () => {
    // Shutting down: whatever is already closed stays closed.
    await context?.close().catch(() => undefined);
    await harness.close().catch(() => undefined); // see above
    await rm(profile, { recursive: true, force: true }).catch(() => undefined); // see above
  })();
  await stopping;
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));

try {
  if (touring) {
    console.log(`No display (DISPLAY and WAYLAND_DISPLAY are unset), so Chromium runs without a window: there is no page here to
select text in or right-click. Instead, Ratify goes through the demo itself and tells you what it does.
(On a machine with a desktop, \`npm start\` opens a Chromium window with the demo page and the panel.)
`);
  }
  context = await launchWithExtension(profile, {
    locale: undefined,
    headless,
    executablePath: exe,
    extraArgs: ['--no-default-browser-check'],
    contextOptions: {
      // Our own handlers close the browser, the servers and the temp profile in order.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      viewport: headless ? { width: 1280, height: 860 } : null,
    },
  });
  // The user closing the window ends the demo too.
  context.on('close', () => void stop(0));

  const worker: Worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  const extensionId = new URL(worker.url()).host;
  // The demo reads its article tabs at once: the profile starts with Ratify allowed to read sites,
  // as after its first-use prompt (Settings → Privacy takes it back, to see the prompt).
  await grantSiteAccess(context, extensionId);

  const settings: SettingsPatch = real
    ? { ...harness.settingsPatch(), llm: { preset: 'custom', baseURL: real.baseURL, apiKey: real.apiKey, model: real.model } }
    : { ...harness.settingsPatch(), llm: { preset: 'custom', baseURL: harness.llm.baseURL, apiKey: harness.apiKey, model: DEMO_MODEL } };
  await worker.evaluate((s) => chrome.storage.local.set({ settings: s }), { version: SETTINGS_VERSION, ...settings } as Record<string, unknown>);

  const site = harness.site;
  const [first] = context.pages();
  const demo = first ?? (await context.newPage());
  await demo.goto(site.url('/demo.html'));
  for (const p of ['/articles/marie-curie.html', '/articles/eiffel-tower.html']) await (await context.newPage()).goto(site.url(p));
  const panel = await context.newPage();
  if (screenshot) await panel.setViewportSize({ width: 440, height: 860 });
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);

  if (screenshot) {
    await askAndCapture(panel, screenshot);
    await stop(0);
  }

  if (touring) {
    await tour({ context, worker, demo, panel, question: DEMO_QUESTION, pictures: await mkdtemp(path.join(tmpdir(), 'ratify-demo-pictures-')) });
  } else {
    await demo.bringToFront();
  }
  printRunning(harness, extensionId, headless);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  await stop(1);
}

async function askAndCapture(panel: Page, file: string): Promise<void> {
  const box = panel.getByRole('textbox', { name: 'Question' });
  await box.fill(DEMO_QUESTION);
  await box.press('Enter');
  const status = panel.getByTestId('run-status');
  await status.waitFor({ timeout: 15_000 });
  // Wait for the run to end, whatever its outcome, so the picture shows a finished run.
  await panel.waitForFunction(() => /done|failed|cancel|interrupt|完成|失败/i.test(document.querySelector('[data-testid="run-status"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
  await panel.screenshot({ path: file, fullPage: true });
  console.log(`Screenshot of the side panel (${(await status.textContent())?.trim()}): ${file}`);
}

function printRunning(h: Harness, extensionId: string, headless: boolean): void {
  const model = real ? `${real.model} at ${real.baseURL} (from RATIFY_BASE_URL / RATIFY_MODEL)` : `"${DEMO_MODEL}", a demo model that only knows the fixture articles (not a real LLM)`;
  console.log(`
Ratify is running${headless ? ' (headless Chromium)' : ''}.

  Browser    ${exe}  (fresh profile ${profile})
  Extension  ${EXTENSION_DIR}  (id ${extensionId})
  Model      ${model}
  Demo page  ${h.site.url('/demo.html')}
  Panel      chrome-extension://${extensionId}/sidepanel.html
             ${headless ? '(a page of the headless browser)' : 'open as an ordinary tab (the last one), so it is there at once. The real side panel\n             is the same page beside the one you read: Alt+Shift+R, or Ratify in the toolbar\'s\n             puzzle-piece menu (pin it there to keep the button).'}

Local servers:
${h.describe().replace(/^/gm, '  ')}

${
    headless
      ? `The browser has no window${touring ? ' (no display)' : ' (--headless)'}: the servers above keep running for other tools on this
machine (curl, another browser); to click through the demo yourself, run \`npm start\` where a
desktop can show a window.`
      : `Try it: on the demo page select a sentence, right-click → "Verify with RAT"; right-click the page →
"Check this page" (or Alt+Shift+C); or ask in the side panel: "${DEMO_QUESTION}"`
  }

Press Ctrl+C to close the browser and stop the servers.`);
}
