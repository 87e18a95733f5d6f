/** The development set's part of `npm run bench`: baseline, the library lexical, and the library
 * hybrid (dense ranking with the fake OpenAI-compatible server's embeddings, over the real
 * /v1/embeddings protocol and the one LLM client), each on the tuning and the held-out part.
 * Writes bench/results/devset.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmClient } from '../../../lib/llm/client';
import { startFakeLlm } from '../../../test/harness/fake-llm.ts';
import { table } from '../../table';
import { CATEGORIES, LEXICALLY_REACHABLE, loadQuestions, PARTS, type Category, type Part } from './dataset';
import { DRAFTS, evaluateBaseline, evaluateDevset, type DevsetEvaluation, type DevsetRankerOptions, type PipelinePathEvaluation } from './evaluate';
import type { Metrics } from './metrics';
import type { EmbedFn } from '../../../lib/retrieval/library';

const here = dirname(fileURLToPath(import.meta.url));
export const DEVSET_RESULTS_FILE = join(here, '..', '..', 'results', 'devset.json');

export interface DevsetBenchOptions {
  /** Also rank with embeddings from the fake server (default true). */
  hybrid?: boolean;
  /** Options for the library's runs (passage size, weights, …). */
  ranker?: DevsetRankerOptions;
  write?: boolean;
}

export interface DevsetRun {
  ranker: string;
  parts: Record<Part, Omit<DevsetEvaluation, 'rows' | 'part' | 'ranker'> & { perQuestion: DevsetEvaluation['rows'] }>;
}

export interface DevsetPartSummary {
  report: DevsetEvaluation['report'];
  embedCalls: number;
  ms: number;
}

/** The result without its per-question rows (what bench/results/latest.json keeps). */
export interface DevsetSummary {
  date: string;
  questions: DevsetBenchResult['questions'];
  embeddings?: string;
  runs: { ranker: string; parts: Record<Part, DevsetPartSummary> }[];
  pipelinePath?: PipelinePathEvaluation[];
}

export function devsetSummary(r: DevsetBenchResult): DevsetSummary {
  return {
    ...r,
    runs: r.runs.map((run) => ({
      ranker: run.ranker,
      parts: Object.fromEntries(PARTS.map((p) => [p, { report: run.parts[p].report, embedCalls: run.parts[p].embedCalls, ms: run.parts[p].ms }])) as Record<Part, DevsetPartSummary>,
    })),
  };
}

export interface DevsetBenchResult {
  date: string;
  questions: Record<Part, Partial<Record<Category, number>>>;
  /** What the hybrid runs' embeddings are, in words. */
  embeddings?: string;
  runs: DevsetRun[];
  /** The pipeline path (retrieve 2k, refine to k) against retrieve(k), per ranker and part. */
  pipelinePath?: PipelinePathEvaluation[];
}

async function bothParts(ranker: string, run: (p: Part) => Promise<DevsetEvaluation>): Promise<DevsetRun> {
  const parts = {} as DevsetRun['parts'];
  for (const p of PARTS) {
    const { rows, part: _p, ranker: _r, path: _path, ...rest } = await run(p);
    parts[p] = { ...rest, perQuestion: rows };
  }
  return { ranker, parts };
}

export const FAKE_EMBEDDINGS = 'fake-embedding from test/harness/fake-llm.ts over /v1/embeddings (WordNet senses, test/harness/fake-embeddings.ts)';

/** Runs `fn` with `embed` from the one LLM client against the fake server's /v1/embeddings. */
export async function withFakeEmbeddings<T>(fn: (embed: EmbedFn) => Promise<T>): Promise<T> {
  const server = await startFakeLlm();
  try {
    const client = createLlmClient({ preset: 'custom', baseURL: server.baseURL, apiKey: 'bench', model: 'fake-llm', embeddingModel: 'fake-embedding', timeoutMs: 60_000 }, { maxRetries: 0 });
    return await fn((texts, signal) => client.embed(texts, signal));
  } finally {
    await server.close();
  }
}

export async function runDevsetBench(opts: DevsetBenchOptions = {}): Promise<DevsetBenchResult> {
  const qs = loadQuestions();
  const questions = Object.fromEntries(PARTS.map((p) => [p, Object.fromEntries(CATEGORIES.map((c) => [c, qs.filter((q) => q.part === p && q.category === c).length]))])) as DevsetBenchResult['questions'];
  const runs: DevsetRun[] = [];
  runs.push(await bothParts('BM25, 120-word chunks (baseline)', (p) => evaluateBaseline(p)));
  const pipelinePath: PipelinePathEvaluation[] = [];
  const withPath = async (p: Part, ranker: DevsetRankerOptions) => {
    const e = await evaluateDevset(p, { ...ranker, pipeline: true });
    pipelinePath.push(...(e.path ?? []));
    return e;
  };
  runs.push(await bothParts('library, lexical', (p) => withPath(p, { ...opts.ranker })));
  let embeddings: string | undefined;
  if (opts.hybrid !== false) {
    embeddings = FAKE_EMBEDDINGS;
    runs.push(await withFakeEmbeddings((embed) => bothParts('library, hybrid (fake embeddings)', (p) => withPath(p, { ...opts.ranker, embed }))));
  }
  const result: DevsetBenchResult = { date: new Date().toISOString(), questions, ...(embeddings ? { embeddings } : {}), runs, pipelinePath };
  if (opts.write !== false) {
    mkdirSync(dirname(DEVSET_RESULTS_FILE), { recursive: true });
    writeFileSync(DEVSET_RESULTS_FILE, devsetJson(result));
  }
  return result;
}

/** Summaries in full; per-question rows one a line, so a rerun's diff reads question by question. */
export function devsetJson(r: DevsetBenchResult): string {
  const rows: string[] = [];
  const head = {
    ...r,
    runs: r.runs.map((run) => ({
      ...run,
      parts: Object.fromEntries(
        Object.entries(run.parts).map(([p, v]) => {
          const key = `@@${rows.length}@@`;
          rows.push(`[\n${v.perQuestion.map((q) => `          ${JSON.stringify(q)}`).join(',\n')}\n        ]`);
          return [p, { ...v, perQuestion: key }];
        }),
      ),
    })),
  };
  return JSON.stringify(head, null, 2).replace(/"@@(\d+)@@"/g, (_m, i: string) => rows[Number(i)] ?? '[]') + '\n';
}

const f2 = (x: number) => x.toFixed(2);

export function formatDevset(r: DevsetSummary): string {
  const n = (p: Part) => Object.values(r.questions[p]).reduce((s, x) => s + (x ?? 0), 0);
  const counts = PARTS.map((p) => `${p} ${n(p)} (${CATEGORIES.map((c) => `${c} ${r.questions[p][c] ?? 0}`).join(', ')})`).join('; ');
  const overall = table(
    ['ranker', 'part', 'top-5', 'top-1', 'MRR', 'multi-page: all gold pages in top 5', 'multi-page: rank of last gold page', 'pages in top 5', 'chars / passage'],
    r.runs.flatMap((run) =>
      PARTS.map((p) => {
        const m = run.parts[p].report.all;
        const mp: Metrics | undefined = run.parts[p].report.byCategory['multi-page'];
        return [run.ranker, p, f2(m.top5), f2(m.top1), f2(m.mrr), mp ? f2(mp.allPagesAt5) : '–', mp ? mp.meanLastGoldPageRank.toFixed(1) : '–', m.pagesAt5.toFixed(1), String(m.charsAt5)];
      }),
    ),
  );
  const byCat = table(
    ['top-5 / top-1', 'part', ...r.runs.map((run) => run.ranker)],
    CATEGORIES.flatMap((c) =>
      PARTS.map((p) => [c, p, ...r.runs.map((run) => {
        const m = run.parts[p].report.byCategory[c];
        return m ? `${f2(m.top5)} / ${f2(m.top1)}` : '–';
      })]),
    ),
  );
  const reach = table(
    ['top-5 / top-1 (n)', 'part', ...r.runs.map((run) => run.ranker)],
    (['reachable', 'unreachable'] as const).flatMap((k) =>
      PARTS.map((p) => [
        k === 'reachable' ? `shares ≥ ${LEXICALLY_REACHABLE} words with its answer` : `shares < ${LEXICALLY_REACHABLE}`,
        p,
        ...r.runs.map((run) => {
          const m = run.parts[p].report.byReach?.[k];
          return m ? `${f2(m.top5)} / ${f2(m.top1)} (${m.n})` : '–';
        }),
      ]),
    ),
  );
  const emb = r.embeddings ? `\nhybrid: ${r.embeddings}` : '';
  const path = r.pipelinePath?.length ? `\n\n${formatPipelinePath(r.pipelinePath)}` : '';
  return `questions: ${counts}\n${overall}\n\nby category\n${byCat}\n\nby words the question shares with the text around its answer (dataset.ts sharedWords)\n${reach}${path}${emb}`;
}

/** Gold in the k passages given to the model after refining, against retrieve(k). */
export function formatPipelinePath(rows: PipelinePathEvaluation[]): string {
  const k = rows[0]?.k ?? 4;
  return `the pipeline path: gold among the ${k} passages a step is given (retrieve ${2 * k}, refine to ${k}) against retrieve(${k})\n${table(
    ['ranker', 'part', `retrieve(${k})`, `retrieve(${2 * k})`, ...DRAFTS.map((d) => `given, draft = ${d}`)],
    rows.map((x) => [x.ranker, String(x.part), f2(x.direct), f2(x.found), ...DRAFTS.map((d) => f2(x.given[d]))]),
  )}`;
}
