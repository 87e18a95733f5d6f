/** npm run bench [-- options]: Ratify against the reference RAT loop (part 1), the gate's
 * economics (part 2), retrieval (part 3, from bench/retrieval) and the extension in the browser
 * (part 4, from bench/results/extension.json when a Playwright run has written it). Prints a
 * table and writes bench/results/latest.json. See README, "Benchmarks". */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { HELP, parseOptions, type BenchOptions } from './config';
import { extensionFigures, extensionPart, flatten, retrievalFigures, retrievalPart, type ExtensionFigures, type ExternalPart, type RetrievalFigures } from './external';
import { runPipelineBench, type PipelineBenchResult } from './pipeline';
import { REPO_ROOT } from './retrieval/benchmark';
import { DEVSET_RESULTS_FILE, devsetSummary, formatDevset, runDevsetBench, type DevsetSummary } from './retrieval/devset/report';
import { summarize, type Part1Summary, type Part2Summary } from './summary';
import { formatWebRule, runWebRuleBench, type WebRuleSummary } from './web-rule';
import { runWebRuleDevset } from './web-rule-devset';
import { formatManyTabs, type ManyTabsRow } from './extension/many-tabs-format';
import { manyTabsPart } from './external';
import { loadQuestions } from './questions';
import { formatPart5, summarizeSpeculation, type SpeculationSummary } from './speculation-summary';
import { runPageCheckBench, type PageCheckBench } from './page-check';
import { formatPart6, summarizePageCheck, type Part6Summary } from './page-check-summary';
import { table } from './table';

export { table };

export interface BenchReport {
  options: BenchOptions;
  part1: Part1Summary & { library: string };
  part2: Part2Summary;
  part3: { source: string; measured: boolean; figures?: RetrievalFigures | Record<string, unknown> };
  /** Retrieval on real tabs: the development set (bench/retrieval/devset; per question in bench/results/devset.json). */
  part3dev: { source: string; measured: boolean; summary?: DevsetSummary };
  part3web: { source: string; measured: boolean; summary?: WebRuleSummary };
  /** The same on the development set, its 44 pages open as tabs. */
  part3webDev: { source: string; measured: boolean; summary?: WebRuleSummary };
  part4: { source: string; measured: boolean; figures?: ExtensionFigures | Record<string, unknown> };
  part4tabs: { source: string; measured: boolean; rows?: ManyTabsRow[] };
  part5: SpeculationSummary;
  /** Check this page against the same claims as selections one after another, and the budget. */
  part6: PageCheckBench & { summary: Part6Summary };
  run: { batchSeconds: number; eventLoopDelayMs: PipelineBenchResult['eventLoopDelayMs'] };
  perQuestion: PipelineBenchResult['questions'];
  perQuestionGate: PipelineBenchResult['gate'];
  perSpeculationRun: PipelineBenchResult['speculation'];
}

// ---- formatting ----

const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const s2 = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const x2 = (r: number) => `${r.toFixed(2)}×`;
const n0 = (n: number) => Math.round(n).toLocaleString('en-US');

export function formatPart1(p: Part1Summary): string {
  const r = p.reference;
  const t = p.ratify;
  const main = table(
    ['per question (mean)', 'reference', 'Ratify', 'Ratify / ref', 'target'],
    [
      ['LLM calls', r.calls.toFixed(1), t.calls.toFixed(1), x2(p.ratio.calls), `≤ 0.45×`],
      ['input tokens', n0(r.inputTokens), n0(t.inputTokens), x2(p.ratio.inputTokens), ''],
      ['output tokens', n0(r.outputTokens), n0(t.outputTokens), x2(p.ratio.outputTokens), `≤ 0.30×`],
      ['wall time (critical path)', s1(r.wallMs), s1(t.wallMs), x2(p.ratio.wall), `≤ 0.30×`],
      ['first visible output', s2(r.firstVisibleMs), s2(t.firstVisibleMs), x2(p.firstVisibleRatio), ''],
      ['  Ratify p50 / p95 / max', '', `${s2(t.firstVisibleP50Ms)} / ${s2(t.firstVisibleP95Ms)} / ${s2(t.firstVisibleMaxMs)}`, '', `p95 ≤ 1.5 s`],
      ['first answer text (draft)', s2(r.firstVisibleMs), s2(t.firstContentMs), '', ''],
      ['reference UI shows anything', s1(r.firstShownMs), '', '', ''],
      ['latency-model prediction', s1(r.modelMs), s1(t.modelMs), '', ''],
    ],
  );
  const stages = (b: Record<string, { calls: number; outputTokens: number }>) =>
    Object.entries(b)
      .map(([k, v]) => `${k} ${v.calls.toFixed(1)}×${n0(v.outputTokens / Math.max(1, v.calls))}`)
      .join(', ');
  const where = `calls × output tokens per call, by stage: reference ${stages(p.byStage.reference)}; Ratify ${stages(p.byStage.ratify)}`;
  const spread = `per-question ratios, median / max: calls ${x2(p.perQuestionRatio.calls.median)} / ${x2(p.perQuestionRatio.calls.max)}, output tokens ${x2(p.perQuestionRatio.outputTokens.median)} / ${x2(p.perQuestionRatio.outputTokens.max)}, wall ${x2(p.perQuestionRatio.wall.median)} / ${x2(p.perQuestionRatio.wall.max)}`;
  const overhead = `measured vs latency model (the sum of a run's calls, searches and fetches): reference ${(100 * p.measurementOverhead.reference).toFixed(1)}% (harness and concurrency overhead); Ratify ${(100 * p.measurementOverhead.ratify).toFixed(1)}% (below the sum: it fetches evidence while the model writes, and revises steps in parallel)`;
  const targets = p.targets.map((x) => `  ${x.pass ? 'PASS' : 'MISS'}  ${x.name}: ${x.name.includes('ms') ? n0(x.measured) : x.measured.toFixed(3)} (target ${x.target})`).join('\n');
  const failed = p.failed.ratify || p.failed.reference ? `\nfailed runs: Ratify ${p.failed.ratify}, reference ${p.failed.reference}` : '';
  return `${main}\n${where}\n${spread}\n${overhead}${failed}\ntargets:\n${targets}`;
}

export function formatPart2(p: Part2Summary): string {
  return table(
    ['confident questions (mean)', 'gate: β 0.9 ≥ β′ 0.5', 'always RAT (β′ = 1)', 'gated / always'],
    [
      ['LLM calls', p.gated.calls.toFixed(1), p.always.calls.toFixed(1), x2(p.ratio.calls)],
      ['output tokens', n0(p.gated.outputTokens), n0(p.always.outputTokens), x2(p.ratio.outputTokens)],
      ['wall time', s1(p.gated.wallMs), s1(p.always.wallMs), x2(p.ratio.wall)],
      ['first visible output', s2(p.gated.firstVisibleMs), s2(p.always.firstVisibleMs), ''],
    ],
  ) + `\n${p.questions} questions; the gate answered directly in ${(100 * p.directShare).toFixed(0)}% of them`;
}

const f3 = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(3));
const ms0 = (v: number | undefined) => (v === undefined ? '–' : `${Math.round(v)} ms`);
const ms1 = (v: number | undefined) => (v === undefined ? '–' : `${v.toFixed(1)} ms`);

function isRetrievalFigures(f: unknown): f is RetrievalFigures {
  return !!f && typeof f === 'object' && 'oneRound' in f && 'index' in f;
}
function isExtensionFigures(f: unknown): f is ExtensionFigures {
  return !!f && typeof f === 'object' && 'gzipKbByEntrypoint' in f;
}

export function formatPart3(p: BenchReport['part3']): string {
  const f = p.figures;
  if (!p.measured || !isRetrievalFigures(f)) return formatExternal(p);
  const t = f.targets ?? {};
  const tg = (k: string, op: string) => (typeof t[k] === 'number' ? `${op} ${String(t[k])}` : '');
  const recall = table(
    [`recall (${f.examples ?? '?'} HotpotQA questions)`, 'one round', 'two rounds', 'their target'],
    [
      ['recall@2', f3(f.oneRound.recallAt2), f3(f.twoRounds.recallAt2), tg('recallAt2', '≥')],
      ['recall@5', f3(f.oneRound.recallAt5), f3(f.twoRounds.recallAt5), tg('recallAt5', '≥')],
      ['both gold in top 2', f3(f.oneRound.bothGoldAt2), f3(f.twoRounds.bothGoldAt2), tg('allGoldAt2TwoRounds', '≥ (two rounds)')],
      ['MRR', f3(f.oneRound.mrr), f3(f.twoRounds.mrr), ''],
    ],
  );
  const index = table(
    [`index (${f.index.passages ?? '?'} passages)`, 'measured', 'their target'],
    [
      ['build, cold', ms0(f.index.coldBuildMs), tg('coldBuildMs', '≤')],
      ['build, cached', ms0(f.index.cachedBuildMs), tg('cachedBuildMs', '≤')],
      ['query p50', ms1(f.index.queryP50Ms), ''],
      ['query p95', ms1(f.index.queryP95Ms), tg('queryP95Ms', '≤')],
    ],
  );
  const fid = f.extractionMeanF1 !== undefined ? `\nreadable-text extraction, mean token F1 over the saved pages: ${f.extractionMeanF1.toFixed(3)}` : '';
  return `source: ${p.source}\n${recall}\n${index}${fid}`;
}

export function formatPart4(p: BenchReport['part4']): string {
  const f = p.figures;
  if (!p.measured || !isExtensionFigures(f)) return formatExternal(p);
  const sizes = Object.entries(f.gzipKbByEntrypoint).map(([k, v]) => `${k} ${v} KB`).join(', ');
  return [
    `source: ${p.source}${f.chromium ? ` (Chromium ${f.chromium})` : ''}`,
    `gzipped JS per entrypoint: ${sizes}`,
    `side panel first render, median: ${ms1(f.panelFirstRenderMedianMs)}`,
    `history with 1,000 runs: open ${ms1(f.history1000.openMs)}, search ${ms1(f.history1000.searchMs)}`,
    `worker heap after ${f.workerHeap.runs ?? '?'} runs: ${f.workerHeap.beforeMb ?? '?'} MB → ${f.workerHeap.afterMb ?? '?'} MB`,
  ].join('\n');
}

function formatExternal(p: { source: string; measured: boolean; figures?: unknown }): string {
  if (!p.measured || !p.figures) return p.source;
  const rows = flatten(p.figures).slice(0, 60);
  const w = Math.max(...rows.map((r) => r[0].length));
  return `${p.source}\n${rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`).join('\n')}`;
}

function formatQuestions(rows: PipelineBenchResult['questions']): string {
  return table(
    ['question', 'type', 'ref calls', 'ref out', 'ref wall', 'R calls', 'R out', 'R wall', 'R first', 'calls×', 'out×', 'wall×'],
    rows.map((q) => [
      q.id.slice(0, 10),
      q.type.slice(0, 4),
      String(q.reference.calls),
      n0(q.reference.outputTokens),
      s1(q.reference.wallMs),
      String(q.ratify.calls),
      n0(q.ratify.outputTokens),
      s1(q.ratify.wallMs),
      s2(q.ratify.firstVisibleMs),
      (q.ratify.calls / q.reference.calls).toFixed(2),
      (q.ratify.outputTokens / q.reference.outputTokens).toFixed(2),
      (q.ratify.wallMs / q.reference.wallMs).toFixed(2),
    ]),
  );
}

/** Rounds for a diff-friendly file: times to whole ms, other fractions to 3 decimals. */
function tidy(v: unknown, key = ''): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? v : /Ms$|ms$/.test(key) ? Math.round(v) : Math.round(v * 1000) / 1000;
  if (Array.isArray(v)) return v.map((x) => tidy(x, key));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, tidy(x, k)]));
  return v;
}

export async function runBench(o: BenchOptions, log: (s: string) => void = console.log): Promise<BenchReport> {
  const l = o.latency;
  log(
    `Ratify benchmark · ${o.questions} HotpotQA questions (${o.gateQuestions} also for the gate), ${o.steps} draft steps · latency: ${l.firstTokenMs} ms to first token, ${l.outputTokensPerSec} output tok/s, ${l.inputTokensPerSec} input tok/s, search ${l.searchMs} ms, page fetch ${l.pageFetchMs} ms · speed ×${o.speed}${o.speed !== 1 ? ' (times below are model time)' : ''}`,
  );
  const pipe = await runPipelineBench(o, log);
  const { part1, part2 } = summarize(pipe);
  const page = await runPageCheckBench(o, log);
  const p3: ExternalPart = o.skipRetrieval ? { source: 'skipped (--skip-retrieval)', measured: false } : await retrievalPart(true, log, { data: o.data, pages: o.readabilityPages });
  const dev = o.skipRetrieval ? undefined : await runDevsetBench();
  const part3dev = dev ? { source: `bench/retrieval/devset; per question in ${relative(REPO_ROOT, DEVSET_RESULTS_FILE)}`, measured: true, summary: devsetSummary(dev) } : { source: 'skipped (--skip-retrieval)', measured: false };
  const web = o.skipRetrieval ? undefined : await runWebRuleBench(loadQuestions(100, o.steps, o.data), log);
  const part3web = web ? { source: 'bench/web-rule.ts', measured: true, summary: web.summary } : { source: 'skipped (--skip-retrieval)', measured: false };
  const webDev = o.skipRetrieval ? undefined : await runWebRuleDevset(log);
  const part3webDev = webDev ? { source: 'bench/web-rule-devset.ts', measured: true, summary: webDev.summary } : { source: 'skipped (--skip-retrieval)', measured: false };
  const p4 = extensionPart();
  const part4tabs = manyTabsPart();
  // The figures the issue asks for, picked out of the other benchmarks' results; their whole
  // output stays in their own files.
  const fig3 = retrievalFigures(p3.figures);
  const fig4 = extensionFigures(p4.figures);
  const part3 = { source: p3.source, measured: p3.measured, ...(fig3 ? { figures: fig3 } : p3.figures ? { figures: p3.figures } : {}) };
  const part4 = { source: p4.source, measured: p4.measured, ...(fig4 ? { figures: fig4 } : p4.figures ? { figures: p4.figures } : {}) };
  return {
    options: o,
    part1: { ...part1, library: pipe.library },
    part2,
    part3,
    part3dev,
    part3web,
    part3webDev,
    part4,
    part4tabs,
    part5: summarizeSpeculation(pipe.speculation, pipe.questions),
    part6: { ...page, summary: summarizePageCheck(page) },
    run: { batchSeconds: pipe.batchSeconds, eventLoopDelayMs: pipe.eventLoopDelayMs },
    perQuestion: pipe.questions,
    perQuestionGate: pipe.gate,
    perSpeculationRun: pipe.speculation,
  };
}

export function formatReport(r: BenchReport, perQuestion: boolean): string {
  const out: string[] = [];
  if (perQuestion) out.push(`Per question (model time; R = Ratify):\n${formatQuestions(r.perQuestion)}`);
  out.push(`1. Pipeline cost against the reference RAT loop (${r.part1.questions} questions, ${r.options.steps} steps; library: ${r.part1.library})\n${formatPart1(r.part1)}`);
  out.push(`2. The gate's economics\n${formatPart2(r.part2)}`);
  out.push(`3. Retrieval\n${formatPart3(r.part3)}`);
  out.push(`3b. Retrieval on real tabs: the development set (44 pages open as tabs, the question as the query)\n${r.part3dev.summary ? formatDevset(r.part3dev.summary) : r.part3dev.source}`);
  out.push(`3c. What the information-flow rule costs (HotpotQA, ${r.part3web.summary?.questions ?? 0} questions: their paragraphs as the web, the draft's six thoughts; SECURITY.md)\n${r.part3web.summary ? formatWebRule(r.part3web.summary) : r.part3web.source}`);
  out.push(`3c (dev set). The same on the development set (${r.part3webDev.summary?.questions ?? 0} questions, both parts: its 44 real pages as the web, and open as tabs; one draft step per answering page, written from its gold span)\n${r.part3webDev.summary ? formatWebRule(r.part3webDev.summary, 'with the 44 pages open as tabs') : r.part3webDev.source}`);
  out.push(`4. The extension in Chromium\n${formatPart4(r.part4)}`);
  out.push(`4b. As fast with a hundred tabs as with one (the extension in Chromium, part 1's latency model)\n${r.part4tabs.rows ? formatManyTabs(r.part4tabs.rows) : r.part4tabs.source}`);
  out.push(`5. Speculative revision against sequential (${r.options.speculationQuestions} questions, ${r.options.steps} steps, 0/1/3/6 of them changed by the model)\n${formatPart5(r.part5)}`);
  out.push(`6. Check this page against checking its claims as selections, one after another (latency as part 1)\n${formatPart6(r.part6)}`);
  out.push(`batch: ${r.run.batchSeconds.toFixed(1)} s real; event-loop delay p50 ${r.run.eventLoopDelayMs.p50.toFixed(1)} ms, p99 ${r.run.eventLoopDelayMs.p99.toFixed(1)} ms`);
  return out.join('\n\n');
}

/** The JSON file: summaries in full; per-run rows without their by-stage detail (its means are
 * in part1.byStage), one row per line, so a rerun's diff reads question by question. */
export function reportJson(r: BenchReport): string {
  const strip = <T extends { byStage?: unknown }>(m: T): Omit<T, 'byStage'> => {
    const { byStage: _drop, ...rest } = m;
    return rest;
  };
  const perQuestion = r.perQuestion.map((q) => ({ ...q, reference: strip(q.reference), ratify: strip(q.ratify) }));
  const perQuestionGate = r.perQuestionGate.map((g) => ({ ...g, gated: strip(g.gated), always: strip(g.always) }));
  const perSpeculationRun = r.perSpeculationRun.map((x) => ({ ...x, ratify: strip(x.ratify) }));
  const head = tidy({ ...r, perQuestion: [], perQuestionGate: [], perSpeculationRun: [] }) as Record<string, unknown>;
  const lines = (rows: unknown[]) => (rows.length ? `[\n${rows.map((x) => `    ${JSON.stringify(tidy(x))}`).join(',\n')}\n  ]` : '[]');
  const body = JSON.stringify(head, null, 2)
    .replace('"perQuestion": []', `"perQuestion": ${lines(perQuestion)}`)
    .replace('"perQuestionGate": []', `"perQuestionGate": ${lines(perQuestionGate)}`)
    .replace('"perSpeculationRun": []', `"perSpeculationRun": ${lines(perSpeculationRun)}`);
  return `${body}\n`;
}

export function writeReport(r: BenchReport, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, reportJson(r));
}

async function main(argv: string[]): Promise<number> {
  let o: BenchOptions | 'help';
  try {
    o = parseOptions(argv);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    console.log(HELP);
    return 2;
  }
  if (o === 'help') {
    console.log(HELP);
    return 0;
  }
  const t0 = performance.now();
  const report = await runBench(o);
  console.log(`\n${formatReport(report, !o.quiet)}`);
  writeReport(report, o.out);
  console.log(`\nwrote ${o.out} · ${((performance.now() - t0) / 1000).toFixed(1)} s in all`);
  // Misses are reported, not fatal: bench/pipeline.test.ts is what fails CI on a regression.
  return 0;
}

if (process.argv[1] && /bench[\\/]run\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
