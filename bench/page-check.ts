/** Part 6: Check this page against checking the same claims as selections, one after another, on
 * the fake OpenAI-compatible server with part 1's latency model. The page (bench/page-article.ts,
 * 12 claims) is checked by the product's executeRun in page mode; the baseline verifies each
 * claim's sentence as its own selection (executeRun in verify mode), as a reader would without
 * the feature; the scripted model searches the same query for a claim either way. Both read the fixture articles as open tabs through lib/retrieval's library, and
 * every retrieval pays one search and one page fetch, as in part 1. A budget sweep on a 20-claim
 * page shows what the budget setting costs. */
import { createLlmClient } from '../lib/llm/client';
import type { CallUsage, LlmClient } from '../lib/llm/types';
import { CONCURRENCY } from '../lib/pipeline/check-page';
import { executeRun } from '../lib/pipeline/run';
import { newRun } from '../lib/pipeline/run-state';
import type { Run, RunEvent, RunInput, RunMode } from '../lib/core/run';
import { createLibrary } from '../lib/retrieval/library';
import type { TabsAdapter } from '../lib/retrieval/tabs';
import { DEFAULT_SETTINGS, type PipelineSettings } from '../lib/settings/schema';
import { VERDICTS, type Verdict } from '../lib/core/verdicts';
import type { Responder } from '../test/harness/fake-llm.ts';
import { fixtureDocs } from '../test/harness/fixture-corpus.ts';
import { pipelineResponder } from '../test/harness/pipeline-responder.ts';
import type { BenchOptions } from './config';
import { ARTICLE_CLAIMS, articleText } from './page-article';
import { withSearchLatency } from './ratify-run';
import { freshConnectionFetch } from './transport';
import { startKeyedLlm } from './keyed-llm';

export interface CheckMetrics {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Model ms from the click to the last verdict. */
  wallMs: number;
  /** Model ms from the click to the first verdict shown (a step-verdict, or a step-done with its
   * verdict: the moment the worker marks the sentence and the panel shows it). */
  firstVerdictMs: number;
  claims: number;
  retrieves: number;
  verdicts: Record<Verdict, number>;
  ok: boolean;
  error?: string;
}

export interface PageCheckBench {
  claims: number;
  concurrency: number;
  repeats: number;
  /** Medians over the repeats. */
  page: CheckMetrics;
  selections: CheckMetrics;
  /** The 20-claim page at each budget. */
  budgets: (CheckMetrics & { budget: number; found: number })[];
}

export const PAGE_TARGETS = { wall: 0.35, firstVerdictMs: 3000 } as const;

const PAGE = { url: 'https://news.example/four-landmarks', title: 'Four landmarks, four errors to catch', tabId: 99 };

/** The fixture articles as open tabs: the evidence both sides check against. */
function library(settings: PipelineSettings) {
  const docs = fixtureDocs();
  const tabs: TabsAdapter = {
    list: () => Promise.resolve(docs.map((d, i) => ({ id: i + 1, url: `https://encyclopedia.example${d.path}`, title: d.title }))),
    read: (tab) => {
      const d = docs[tab.id - 1];
      if (!d) return Promise.reject(new Error(`No document for tab ${tab.id}`));
      return Promise.resolve({ kind: 'page', page: { url: `https://encyclopedia.example${d.path}`, hash: `h${tab.id}-${d.text.length}`, title: d.title, text: d.text, headings: [], lang: d.lang } });
    },
  };
  return createLibrary({ search: DEFAULT_SETTINGS.search, privacy: DEFAULT_SETTINGS.privacy, pipeline: settings, tabs, providers: [], checked: { tabId: PAGE.tabId, url: PAGE.url } });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;

function medianOf(rows: CheckMetrics[]): CheckMetrics {
  const m = (k: 'calls' | 'inputTokens' | 'outputTokens' | 'wallMs' | 'firstVerdictMs' | 'claims' | 'retrieves') => median(rows.map((r) => r[k]));
  return {
    calls: m('calls'),
    inputTokens: m('inputTokens'),
    outputTokens: m('outputTokens'),
    wallMs: m('wallMs'),
    firstVerdictMs: m('firstVerdictMs'),
    claims: m('claims'),
    retrieves: m('retrieves'),
    verdicts: rows[0]?.verdicts ?? (Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>),
    ok: rows.every((r) => r.ok),
    ...(rows.some((r) => r.error) ? { error: rows.find((r) => r.error)?.error } : {}),
  };
}

export async function runPageCheckBench(o: BenchOptions, log: (s: string) => void = () => {}, opts: { repeats?: number; claims?: number; budgets?: number[] } = {}): Promise<PageCheckBench> {
  const l = o.latency;
  const x = o.speed;
  const n = opts.claims ?? 12;
  const repeats = opts.repeats ?? 3;
  const budgets = opts.budgets ?? [4, 8, 12, 16, 20];
  const { server, responders } = await startKeyedLlm(o);

  /** One run of the product's pipeline; `t0` is the click. */
  const run = async (key: string, mode: RunMode, input: RunInput, responder: Responder, settings: PipelineSettings, t0: number, acc: { calls: CallUsage[]; retrieves: { retrieves: number }; firstVerdict?: number }): Promise<Run> => {
    responders.set(key, responder);
    const base = createLlmClient({ preset: 'custom', baseURL: server.baseURL, apiKey: 'bench', model: 'fake-llm', embeddingModel: '', timeoutMs: 300_000 / x + 60_000 }, { fetch: freshConnectionFetch({ 'x-bench-run': key }), maxRetries: 0 });
    const record = (u: CallUsage) => acc.calls.push(u);
    const llm: LlmClient = { ...base, chat: (r) => base.chat({ ...r, onUsage: (u) => (record(u), r.onUsage?.(u)) }), json: (r) => base.json({ ...r, onUsage: (u) => (record(u), r.onUsage?.(u)) }) };
    const lib = withSearchLatency(library(settings), (l.searchMs + l.pageFetchMs) / x, acc.retrieves);
    const emit = (ev: RunEvent) => {
      if ((ev.type === 'step-done' && ev.verdict) || ev.type === 'step-verdict') acc.firstVerdict ??= performance.now() - t0;
    };
    const done = await executeRun({ run: newRun(key, mode, input, Date.now()), llm, library: lib, settings, emit });
    responders.delete(key);
    return done;
  };

  const metrics = (runs: Run[], acc: { calls: CallUsage[]; retrieves: { retrieves: number }; firstVerdict?: number }, ms: number): CheckMetrics => {
    const verdicts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
    for (const r of runs) for (const c of r.claims ?? []) verdicts[c.verdict]++;
    const bad = runs.find((r) => r.status !== 'done');
    return {
      calls: acc.calls.length,
      inputTokens: acc.calls.reduce((s, c) => s + c.inputTokens, 0),
      outputTokens: acc.calls.reduce((s, c) => s + c.outputTokens, 0),
      wallMs: ms * x,
      firstVerdictMs: (acc.firstVerdict ?? ms) * x,
      claims: runs.reduce((s, r) => s + (r.claims?.length ?? 0), 0),
      retrieves: acc.retrieves.retrieves,
      verdicts,
      ok: !bad,
      ...(bad ? { error: `${bad.error?.code ?? bad.status}: ${bad.error?.message ?? ''}` } : {}),
    };
  };

  const settings = (budget: number): PipelineSettings => ({ ...DEFAULT_SETTINGS.pipeline, pageClaims: budget });
  const checkPage = async (key: string, claims: number, budget: number) => {
    const acc = { calls: [] as CallUsage[], retrieves: { retrieves: 0 } } as { calls: CallUsage[]; retrieves: { retrieves: number }; firstVerdict?: number };
    const t0 = performance.now();
    const r = await run(key, 'page', { text: articleText(claims), page: PAGE }, pipelineResponder({ claims: ARTICLE_CLAIMS.slice(0, claims) }), settings(budget), t0, acc);
    return { ...metrics([r], acc, performance.now() - t0), found: r.gate?.found ?? 0 };
  };
  const oneByOne = async (key: string) => {
    const acc = { calls: [] as CallUsage[], retrieves: { retrieves: 0 } } as { calls: CallUsage[]; retrieves: { retrieves: number }; firstVerdict?: number };
    const t0 = performance.now();
    const runs: Run[] = [];
    const text = articleText(n);
    // In page order, as a reader goes down the page selecting one sentence after another.
    const inPage = ARTICLE_CLAIMS.slice(0, n).sort((a, b) => text.indexOf(a.sentence) - text.indexOf(b.sentence));
    for (const [i, c] of inPage.entries()) runs.push(await run(`${key}:${i}`, 'verify', { text: c.sentence, page: { ...PAGE, surrounding: text.slice(0, 2000) } }, pipelineResponder({ claims: [c], searches: [c.query!] }), settings(n), t0, acc));
    return metrics(runs, acc, performance.now() - t0);
  };

  // Warm-up (JIT, first connections), not measured.
  await checkPage('warmup', 4, 4);
  log(`  part 6: ${repeats} × (a ${n}-claim page checked, and its claims as ${n} selections one after another), budgets ${budgets.join(', ')} on a ${ARTICLE_CLAIMS.length}-claim page`);
  try {
    // The repeats at once: the server paces each request on its own (part 1's reasoning,
    // bench/README.md). The sweep after them, so its runs add no event-loop delay to the pages'.
    const [pages, singles] = await Promise.all([
      Promise.all(Array.from({ length: repeats }, (_, i) => checkPage(`page:${i}`, n, n))),
      Promise.all(Array.from({ length: repeats }, (_, i) => oneByOne(`sel:${i}`))),
    ]);
    const sweep = await Promise.all(budgets.map(async (b) => ({ budget: b, ...(await checkPage(`budget:${b}`, ARTICLE_CLAIMS.length, b)) })));
    return { claims: n, concurrency: CONCURRENCY, repeats, page: medianOf(pages), selections: medianOf(singles), budgets: sweep };
  } finally {
    await server.close();
  }
}
