/** `npm start` on a machine without a display (a fresh clone on a server, CI): it says at once
 * that no window can be shown, goes through the demo itself in the headless browser, and prints
 * what Ratify did (a verified sentence, an answered question, pictures of both). */
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';

test('npm start without a display says what it does and shows the flow in the terminal', async () => {
  test.setTimeout(150_000);
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  // The extension is built (the e2e suite builds it first); npm start's own build step is skipped.
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/harness/start-demo.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((ok) => child.on('exit', ok));
  try {
    await expect.poll(() => out, { timeout: 120_000 }).toContain('Press Ctrl+C');
  } finally {
    child.kill('SIGINT');
  }
  expect(await exited).toBe(0);
  expect(out).toMatch(/^No display \(DISPLAY and WAYLAND_DISPLAY are unset\), so Chromium runs without a window/);
  expect(out).toContain('1. On the demo page, "The Eiffel Tower was completed in 1899 and is 300 metres tall." is selected and "Verify with RAT" chosen…');
  expect(out).toMatch(/• ✎ Corrected: The Eiffel Tower was completed in 1899 and is 300 metres tall\. → The Eiffel Tower was completed in 1889/);
  expect(out).toMatch(/Answer: .*Pierre Curie and Henri Becquerel/);
  const pictures = [...out.matchAll(/Picture of the panel: (\S+)/g)].map((m) => m[1]!);
  expect(pictures).toHaveLength(2);
  for (const picture of pictures) expect(existsSync(picture)).toBe(true);
  await rm(path.dirname(pictures[0]!), { recursive: true, force: true });
  expect(out).toContain('to click through the demo yourself, run `npm start` where a');
});
