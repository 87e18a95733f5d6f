/**
 * Benchmark part 4b: as fast with a hundred tabs as with one (issue 25).
 *
 *   npx tsx bench/extension/many-tabs.ts [--tabs 1,25,100] [--no-build] [--out FILE]
 *
 * The built extension in Debian's Chromium, with access to sites granted, against the fake LLM
 * under part 1's latency model (400 ms to the first token, 50 output tokens/s) and the fake
 * search engines. For each tab count N, N generated article pages (~20 KB of text each, one of
 * them holding the answer) are opened as tabs, then the same question is asked three times, each
 * in a new thread, timed in the panel from the click to: the draft's first text, the first
 * passage shown, and "Done":
 *
 *  - cold: reading ahead off (Settings → Privacy), tabs read when the question needs them;
 *  - warm, second question: reading ahead off, the same tabs again (read during the first);
 *  - read ahead: reading ahead on, asked once the background reading has gone quiet.
 *
 * Also: the worker's V8 heap after a GC and the extension's storage (IndexedDB and the rest,
 * `navigator.storage.estimate()`) at the end of each N. Writes bench/results/many-tabs.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BrowserContext, Page } from '@playwright/test';
import { startHarness } from '../../test/harness/index.ts';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { grantSiteAccess, launchWithExtension } from '../../test/e2e/launch.ts';
import { ensureBuilt, extensionWorker } from './build.ts';
import { attachWorkerHeap } from './worker-heap.ts';
import { formatManyTabs, type ManyTabsRow, type Timing } from './many-tabs-format.ts';

const { values: opts } = parseArgs({
  options: {
    tabs: { type: 'string', default: '1,25,100' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/results/many-tabs.json' },
  },
});
const COUNTS = String(opts.tabs).split(',').map(Number);
const LATENCY = { firstTokenMs: 400, tokensPerSec: 50 };
const QUESTION = 'When did the Varnholt observatory first record the Kessel comet?';
const ANSWER_FACT = 'The Varnholt observatory first recorded the Kessel comet on 14 March 1911';
const log = (msg: string) => process.stderr.write(`[bench:many-tabs] ${msg}\n`);

const WORDS = 'river stone harbor lantern meadow copper orchard signal timber valley granite beacon thistle marble cobalt prairie summit cellar ferry willow'.split(' ');
/** A page of plain prose, ~20 KB, different per index (words drawn by a fixed recurrence). */
function article(i: number, withAnswer: boolean): string {
  let x = i * 7919 + 13;
  const word = () => WORDS[(x = (x * 1103515245 + 12345) % 2147483648) % WORDS.length];
  const paras: string[] = [];
  for (let p = 0; p < 24; p++) {
    const sentences = Array.from({ length: 8 }, () => `The ${word()} near the ${word()} ${word()} was noted by the ${word()} society in ${1850 + ((x >> 8) % 150)}.`);
    if (withAnswer && p === 12) sentences.splice(3, 0, `${ANSWER_FACT}, from its dome above the town.`);
    paras.push(`<p>${sentences.join(' ')}</p>`);
  }
  return `<!doctype html><html lang="en"><head><title>Field notes ${i}</title></head><body><article><h1>Field notes ${i}</h1>${paras.join('\n')}</article></body></html>`;
}

async function ask(panel: Page, n: number): Promise<Timing> {
  // Each question in a new thread (the button is absent before the first run: nothing to do).
  if (await panel.getByRole('button', { name: 'New thread' }).isVisible()) await panel.getByRole('button', { name: 'New thread' }).click();
  const box = panel.getByRole('textbox', { name: 'Question' });
  await box.fill(QUESTION);
  const t0 = await panel.evaluate(() => performance.now());
  await box.press('Enter');
  // Polled in the page: the first draft text, the first passage, "Done" for this (the n-th) run.
  return panel.evaluate(
    async ({ t0, n }) => {
      const out = { draftMs: -1, firstPassageMs: -1, doneMs: -1 };
      const deadline = t0 + 120_000;
      while (performance.now() < deadline) {
        const runs = document.querySelectorAll('article.run');
        const run = runs[runs.length - 1];
        const t = performance.now() - t0;
        if (run) {
          if (out.draftMs < 0 && run.querySelector('.draft, [data-step]')) out.draftMs = t;
          if (out.firstPassageMs < 0 && run.querySelector('.passage')) out.firstPassageMs = t;
          if (run.querySelector('[data-testid=run-status]')?.textContent === 'Done' && document.querySelectorAll('[data-testid=run-status]').length >= 1) {
            out.doneMs = t;
            break;
          }
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      void n;
      return out;
    },
    { t0, n },
  );
}

async function setReadAhead(panel: Page, on: boolean): Promise<void> {
  await panel.evaluate(async (on) => {
    const { settings } = await chrome.storage.local.get<{ settings: { privacy?: Record<string, unknown> } }>('settings');
    await chrome.storage.local.set({ settings: { ...settings, privacy: { ...settings.privacy, readAhead: on } } });
  }, on);
}

async function measure(n: number): Promise<ManyTabsRow> {
  const harness = await startHarness({ llm: { latency: LATENCY } });
  const dir = await mkdtemp(path.join(tmpdir(), 'ratify-many-tabs-'));
  let context: BrowserContext | undefined;
  try {
    for (let i = 0; i < n; i++) harness.site.addPage(`/notes/${i}.html`, article(i, i === n - 1));
    harness.llm.setResponder(
      pipelineResponder({
        gate: { label: 'clear', confidence: 0.2, search: ['Varnholt observatory Kessel comet'] },
        steps: ['The Varnholt observatory recorded the Kessel comet.', 'It was first recorded in 1911.'],
        facts: [{ phrase: 'first recorded the Kessel comet on 14 March 1911' }],
        finalAnswer: 'On 14 March 1911.',
      }),
    );
    context = await launchWithExtension(dir, { locale: 'en-US' });
    const worker = await extensionWorker(context);
    const id = new URL(worker.url()).host;
    await grantSiteAccess(context, id);
    await worker.evaluate((settings) => chrome.storage.local.set({ settings }), harness.settingsPatch() as Record<string, unknown>);
    const panel = await context.newPage();
    await panel.goto(`chrome-extension://${id}/sidepanel.html`);
    await setReadAhead(panel, false);
    log(`${n} tabs: opening`);
    for (let i = 0; i < n; i++) {
      const p = await context.newPage();
      await p.goto(harness.site.url(`/notes/${i}.html`));
    }
    await panel.bringToFront();
    const cold = await ask(panel, 1);
    const warm = await ask(panel, 2);
    await setReadAhead(panel, true);
    // The worker reads ahead when tabs load or when it starts: reload every tab, then wait until
    // the reading has gone quiet (no read for 3 s).
    for (const p of context.pages()) if (p !== panel && !p.url().startsWith('chrome')) await p.reload();
    await panel.waitForTimeout(3000 + n * 60);
    await panel.bringToFront();
    const readAhead = await ask(panel, 3);
    const heap = await attachWorkerHeap(context, worker.url());
    const workerHeapBytes = (await heap.usage({ gc: true })).usedSize;
    await heap.detach();
    const storageBytes = await panel.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
    log(`${n} tabs: cold ${cold.doneMs.toFixed(0)} ms, warm ${warm.doneMs.toFixed(0)} ms, read ahead ${readAhead.doneMs.toFixed(0)} ms`);
    return { tabs: n, cold, warm, readAhead, workerHeapBytes, storageBytes };
  } finally {
    await context?.close();
    await harness.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBuilt(Boolean(opts['no-build']));
  const rows: ManyTabsRow[] = [];
  for (const n of COUNTS) rows.push(await measure(n));
  mkdirSync(path.dirname(String(opts.out)), { recursive: true });
  writeFileSync(String(opts.out), `${JSON.stringify({ latency: LATENCY, rows }, null, 2)}\n`);
  console.log(formatManyTabs(rows));
}
