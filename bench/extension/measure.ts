/**
 * Benchmark part 4: the extension's own costs, measured in Debian's Chromium with Playwright.
 *
 *   npx tsx bench/extension/measure.ts [--samples 7] [--history-samples 5] [--no-build] [--out FILE]
 *
 * (a) gzipped JavaScript per entrypoint (./sizes.ts says what is counted);
 * (b) side panel first render: navigation start → the ask box exists and a frame has passed,
 *     median of `--samples` loads, each in a new tab;
 * (c) the history list with 1,000 stored runs (./seed-runs.ts): History tab click → items shown,
 *     and a search keystroke → the list narrowed, medians of `--history-samples` fresh tabs;
 * (d) the service worker's V8 heap (./worker-heap.ts) after a GC, before and after 20 real runs
 *     through the panel against the fake LLM (10 answered directly, 10 through RAT with search).
 * Writes bench/results/extension.json, which bench/run.ts merges into its table as part 4, and
 * prints a short table. Rebuilds .output/chrome-mv3 first when it is missing or older than the
 * sources (unless --no-build). Absolute times depend on the machine: read them as reference.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BrowserContext, Page } from '@playwright/test';
import { startHarness, type Harness, type Responder } from '../../test/harness/index.ts';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { line, SECTION } from '../../test/harness/prompt-reader.ts';
import { EXTENSION_DIR, grantSiteAccess, launchWithExtension } from '../../test/e2e/launch.ts';
import { firstRender, installFirstRenderProbe, median, timeHistoryOpen, timeSearch } from './panel-timing.ts';
import { expectedList, makeRuns, storeRuns } from './seed-runs.ts';
import { measureEntrySizes, type EntrySize } from './sizes.ts';
import { attachWorkerHeap } from './worker-heap.ts';
import { ensureBuilt, extensionWorker } from './build.ts';

const { values: opts } = parseArgs({
  options: {
    samples: { type: 'string', default: '7' },
    'history-samples': { type: 'string', default: '5' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/results/extension.json' },
  },
});
const SAMPLES = Number(opts.samples);
const HISTORY_SAMPLES = Number(opts['history-samples']);
if (!(Number.isInteger(SAMPLES) && SAMPLES >= 1 && Number.isInteger(HISTORY_SAMPLES) && HISTORY_SAMPLES >= 1)) throw new Error('--samples and --history-samples take a whole number ≥ 1');
const HISTORY_RUNS = 1000;
/** Matches ~7 % of the seeded runs (see seed-runs.ts), so the list visibly narrows. */
const HISTORY_QUERY = 'krakatoa';
const WORKER_RUNS = 20;

export interface ExtensionResults {
  sizes: Record<string, EntrySize>;
  panelFirstRenderMs: { median: number; samples: number[] };
  history1000: { openMs: number; searchMs: number; runs: number; query: string; matches: number; openSamples: number[]; searchSamples: number[] };
  workerHeap: { beforeBytes: number; afterBytes: number; runs: number; llmCallsByStage: Record<string, number>; method: string };
  chromium: string;
}

const log = (msg: string) => process.stderr.write(`[bench:extension] ${msg}\n`);
const round1 = (x: number) => Math.round(x * 10) / 10;

// ---------------------------------------------------------------------------------------------
// Build

// (in ./build.ts)

// ---------------------------------------------------------------------------------------------
// Browser helpers

async function openPanel(context: BrowserContext, panelUrl: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(panelUrl);
  await page.locator('#ask-input').waitFor();
  return page;
}

// ---------------------------------------------------------------------------------------------
// (d) The scripted model for the 20 runs: the question decides the path.

const RAT_TOPICS = [
  { q: 'When was Marie Curie born, and which Nobel Prizes did she win?', steps: ['Marie Curie was born in Warsaw on 7 November 1867.', 'She won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.'] },
  { q: 'When was the Eiffel Tower completed and how tall is it?', steps: ['The Eiffel Tower was completed in March 1889.', 'It is 330 metres tall including its antennas.'] },
  { q: 'Who designed the Eiffel Tower?', steps: ['The design is credited to Maurice Koechlin and Émile Nouguier.', 'Stephen Sauvestre reworked its appearance.', 'Gustave Eiffel\'s company built it.'] },
  { q: 'Where did Marie Curie study?', steps: ['Marie Curie studied at the clandestine Flying University in Warsaw.', 'She moved to Paris in late 1891 to study at the Sorbonne.'] },
  { q: 'What did Marie Curie discover?', steps: ['Marie Curie discovered polonium and radium.', 'Her research was on radioactivity.'] },
];
const DIRECT_QUESTIONS = ['What is the capital of France?', 'How many days are in a leap year?', 'What is the boiling point of water at sea level?', 'Who wrote Romeo and Juliet?', 'What is the chemical symbol for gold?'];

/** 20 questions, alternating a direct answer and a RAT run; repeats get a suffix so each is new. */
function workerQuestions(): { q: string; rat: boolean }[] {
  return Array.from({ length: WORKER_RUNS }, (_, i) => {
    const k = i >> 1;
    const again = k >= 5 ? ' (again)' : '';
    return i % 2 ? { q: RAT_TOPICS[k % 5]!.q.replace(/\?$/, `${again}?`), rat: true } : { q: DIRECT_QUESTIONS[k % 5]!.replace(/\?$/, `${again}?`), rat: false };
  });
}

function mixedResponder(questions: { q: string; rat: boolean }[]): Responder {
  const stepsFor = (q: string) => RAT_TOPICS.find((t) => q.startsWith(t.q.slice(0, -1)))?.steps ?? [`Think about: ${q}`];
  const rat = pipelineResponder({
    gate: { label: 'clear', confidence: 0.2 }, // below β′ 0.5: retrieve
    steps: stepsFor,
    facts: [{ phrase: '7 November 1867' }, { phrase: 'Nobel Prize' }, { phrase: 'March 1889' }, { phrase: '330 metres' }, { phrase: 'Maurice Koechlin' }, { phrase: 'radium' }, { phrase: 'Flying University' }],
  });
  const direct = pipelineResponder({ gate: { label: 'clear', confidence: 0.92 }, answer: (q) => `A confident, direct answer to "${q}", written the way a model would in two or three sentences without needing sources.` });
  const ratQuestions = new Set(questions.filter((x) => x.rat).map((x) => x.q));
  return (req) => {
    const q = line(req.lastUser, SECTION.question) ?? '';
    return (ratQuestions.has(q) ? rat : direct)(req);
  };
}

async function askAndWait(panel: Page, q: string): Promise<void> {
  // Each question on its own: asked under an answer, it would continue that thread, and the
  // thread shows every earlier run's "Done" too.
  await panel.getByRole('button', { name: 'New thread' }).click();
  const box = panel.locator('#ask-input');
  await box.fill(q);
  await box.press('Enter');
  // The previous run also says "Done": wait for this question to be the one shown first.
  await panel.getByTestId('run-input').filter({ hasText: q }).waitFor({ timeout: 20_000 });
  await panel.getByTestId('run-status').filter({ hasText: /^Done$/ }).waitFor({ timeout: 30_000 });
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = Date.now();
  // Never hang a CI job: the whole thing takes well under a minute on 2 cores.
  setTimeout(() => {
    log('timed out after 150 s');
    process.exit(1);
  }, 150_000).unref();

  ensureBuilt(Boolean(opts['no-build']));
  const sizes = measureEntrySizes(EXTENSION_DIR);
  log(`sizes: ${Object.keys(sizes).join(', ')}`);

  const harness: Harness = await startHarness();
  const dir = await mkdtemp(path.join(tmpdir(), 'ratify-bench-'));
  const context = await launchWithExtension(dir, { locale: 'en-US' });
  try {
    const worker = await extensionWorker(context);
    // Runs read the fixture tabs: the profile allows Ratify to read sites, as after its first-use prompt.
    await grantSiteAccess(context, new URL(worker.url()).host);
    const panelUrl = `chrome-extension://${new URL(worker.url()).host}/sidepanel.html`;
    await worker.evaluate((settings) => chrome.storage.local.set({ settings }), harness.settingsPatch() as Record<string, unknown>);
    await installFirstRenderProbe(context);

    // (b) first render, each load in a new tab.
    const renders: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const page = await context.newPage();
      await page.goto(panelUrl);
      renders.push(round1((await firstRender(page)).frameMs));
      await page.close();
    }
    log(`first render: ${renders.join(', ')} ms`);

    // (d) worker heap around 20 runs. Before: the worker has started, served a panel, been GC'd.
    const questions = workerQuestions();
    harness.llm.setResponder(mixedResponder(questions));
    const heap = await attachWorkerHeap(context, worker.url());
    const panel = await openPanel(context, panelUrl);
    const before = await heap.usage();
    for (const [i, { q }] of questions.entries()) {
      await askAndWait(panel, q);
      if ((i + 1) % 5 === 0) log(`worker runs: ${i + 1}/${WORKER_RUNS}`);
    }
    const after = await heap.usage();
    await heap.detach();
    await panel.close();
    const stages: Record<string, number> = {};
    for (const c of harness.llm.chatRequests()) stages[c.stage ?? '?'] = (stages[c.stage ?? '?'] ?? 0) + 1;
    log(`worker heap: ${before.usedSize} → ${after.usedSize} bytes; LLM calls by stage: ${JSON.stringify(stages)}`);
    // Without retrieval the RAT runs draft and compose but never revise: say so, the heap figure
    // then says nothing about passages held by the worker.
    if (!stages.revise) log('warning: no RAT step was revised (the extension found no evidence), so the runs exercised no retrieval');

    // (c) history with exactly 1,000 runs: the 20 above are replaced by the seeded ones.
    const runs = makeRuns(HISTORY_RUNS);
    const matches = expectedList(runs, HISTORY_QUERY).length;
    const shown = expectedList(runs).length;
    const seeder = await openPanel(context, panelUrl);
    await storeRuns(seeder, runs, { clear: true });
    await seeder.close();
    const openSamples: number[] = [];
    const searchSamples: number[] = [];
    for (let i = 0; i < HISTORY_SAMPLES; i++) {
      const page = await openPanel(context, panelUrl);
      openSamples.push(round1(await timeHistoryOpen(page)));
      // Wait for the full first page of the list before searching, so the search is measured alone.
      await page.locator('.history-list li').nth(shown - 1).waitFor();
      searchSamples.push(round1(await timeSearch(page, HISTORY_QUERY, matches)));
      await page.close();
    }
    log(`history open: ${openSamples.join(', ')} ms; search: ${searchSamples.join(', ')} ms`);

    const results: ExtensionResults = {
      sizes,
      panelFirstRenderMs: { median: round1(median(renders)), samples: renders },
      history1000: { openMs: round1(median(openSamples)), searchMs: round1(median(searchSamples)), runs: HISTORY_RUNS, query: HISTORY_QUERY, matches, openSamples, searchSamples },
      workerHeap: { beforeBytes: before.usedSize, afterBytes: after.usedSize, runs: WORKER_RUNS, llmCallsByStage: stages, method: 'CDP Runtime.getHeapUsage after HeapProfiler.collectGarbage' },
      chromium: context.browser()?.version() ?? 'unknown',
    };
    mkdirSync(path.dirname(opts.out), { recursive: true });
    writeFileSync(opts.out, JSON.stringify(results, null, 2) + '\n');
    printTable(results);
    log(`wrote ${opts.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await context.close();
    await harness.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function printTable(r: ExtensionResults): void {
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  const rows: [string, string][] = [
    ...Object.entries(r.sizes).map(([name, s]): [string, string] => [`${name} JS (gzip -9)`, `${kb(s.gzipBytes)}  (raw ${kb(s.bytes)}, ${s.files.length} file${s.files.length > 1 ? 's' : ''})`]),
    ['side panel first render', `${r.panelFirstRenderMs.median} ms  (median of ${r.panelFirstRenderMs.samples.length})`],
    [`history, ${r.history1000.runs} runs: open`, `${r.history1000.openMs} ms  (median of ${r.history1000.openSamples.length})`],
    [`history, ${r.history1000.runs} runs: search`, `${r.history1000.searchMs} ms  ("${r.history1000.query}" → ${r.history1000.matches} runs)`],
    [`worker heap, ${r.workerHeap.runs} runs`, `${(r.workerHeap.beforeBytes / 2 ** 20).toFixed(2)} → ${(r.workerHeap.afterBytes / 2 ** 20).toFixed(2)} MB  (after GC)`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  console.log(`Part 4: the extension (${r.chromium})`);
  for (const [k, v] of rows) console.log(`  ${k.padEnd(w)}  ${v}`);
}

await main();
