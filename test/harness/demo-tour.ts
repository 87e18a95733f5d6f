/**
 * `npm start` where no window can be shown (Linux without DISPLAY / WAYLAND_DISPLAY): the flow a
 * user would click through, done in the headless browser and told in the terminal. "Verify with
 * RAT" on a sentence of the demo page (the native menu cannot be clicked headless, so its click
 * goes to the worker's real menu listener, as in the e2e tests), then a question asked in the
 * panel page; each result is printed and pictured.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test';
import path from 'node:path';
import { clickVerify } from '../e2e/verify-click.ts';

const VERIFY_SENTENCE = 'claim-eiffel-wrong';

/** Waits for the newest run in the panel to end; its status text. */
async function finished(panel: Page, n: number): Promise<string> {
  const status = panel.getByTestId('run-status').nth(n - 1);
  await status.waitFor({ timeout: 20_000 });
  await panel.waitForFunction(
    (i) => /done|failed|cancel|interrupt|完成|失败/i.test(document.querySelectorAll('[data-testid="run-status"]')[i]?.textContent ?? ''),
    n - 1,
    { timeout: 90_000 },
  );
  return (await status.textContent())?.trim() ?? '';
}

const indent = (s: string) => s.replace(/\s+/g, ' ').trim();

export async function tour(o: { context: BrowserContext; worker: Worker; demo: Page; panel: Page; question: string; pictures: string }): Promise<void> {
  const { demo, panel } = o;
  const say = (s = '') => console.log(s);

  const sentence = (await demo.locator(`#${VERIFY_SENTENCE}`).textContent())?.trim() ?? '';
  say(`1. On the demo page, "${sentence}" is selected and "Verify with RAT" chosen…`);
  await demo.evaluate((id) => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById(id)!);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(range);
  }, VERIFY_SENTENCE);
  await clickVerify(o.worker, demo.url(), sentence);
  await panel.bringToFront();
  say(`   ${await finished(panel, 1)}.`);
  for (const claim of await panel.locator('.claims > li').all()) {
    const verdict = indent(await claim.locator('.verdict, [class*=verdict]').first().innerText().catch(() => ''));
    const text = indent(await claim.locator('.claim-line .claim-text').innerText());
    const fix = (await claim.locator('.correction').count()) ? ` ${indent(await claim.locator('.correction').innerText())}` : '';
    say(`   • ${verdict ? `${verdict}: ` : ''}${text}${fix}`);
  }
  const verifyPicture = path.join(o.pictures, 'verify.png');
  await panel.screenshot({ path: verifyPicture, fullPage: true });
  say(`   Picture of the panel: ${verifyPicture}`);

  say();
  say(`2. In the panel, a new thread and the question "${o.question}"…`);
  await panel.getByRole('button', { name: /New thread|新对话/ }).click();
  const box = panel.getByRole('textbox', { name: /Question|问题/ });
  await box.fill(o.question);
  await box.press('Enter');
  await panel.getByTestId('run-input').filter({ hasText: o.question }).waitFor({ timeout: 20_000 });
  say(`   ${await finished(panel, 1)}.`);
  const answer = panel.getByTestId('answer');
  if (await answer.count()) say(`   Answer: ${indent(await answer.innerText())}`);
  for (const source of await panel.locator('ol.sources > li').all()) say(`   Source: ${indent(await source.innerText()).slice(0, 160)}`);
  const askPicture = path.join(o.pictures, 'ask.png');
  await panel.screenshot({ path: askPicture, fullPage: true });
  say(`   Picture of the panel: ${askPicture}`);
}
