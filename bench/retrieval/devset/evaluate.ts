/** Evaluation on the development set. For every question the library holds ALL 44 pages as
 * open tabs, read the way the extension reads a tab (Readability via extractReadable), cut into
 * passages by lib/retrieval/passages.ts and ranked by the library's own retrieve(); the query is
 * the question. The baseline ranks 120-word chunks with plain BM25 (./baseline.ts).
 *
 * For tuning (the ranker's work): `evaluateDevset('tune', { passageChars: 900, weights: {…} })`
 * or `npx tsx bench/retrieval/devset/run.ts --part tune --passage-chars 900`. */
import { createLibrary, type EmbedFn, type LibraryOptions, type RatifyLibrary } from '../../../lib/retrieval/library';
import { createMemoryTabs, type MemoryTab } from '../../../test/harness/memory-tabs';
import type { RankWeights } from '../../../lib/retrieval/rank';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { Bm25Baseline, chunkWords } from './baseline';
import { CATEGORIES, loadPages, loadQuestions, locateGold, PARTS, sharedWords, type DevPage, type DevQuestion, type Part } from './dataset';
import { isGold, report, scoreQuestion, type PartReport, type QuestionResult, type RankedUnit } from './metrics';
import { refine } from '../../../lib/pipeline/refine';
import type { Passage } from '../../../lib/core/passage';

export type PartChoice = Part | 'all';

export interface DevsetRankerOptions {
  /** Passage size (PipelineSettings.passageChars); default the settings' default. */
  passageChars?: number;
  weights?: Partial<RankWeights>;
  /** Dense ranking, fused with the lexical one as the library does (hybrid). */
  embed?: EmbedFn;
  /** Anything else createLibrary takes, passed through (new ranker options). */
  library?: Partial<LibraryOptions>;
  /** Passages asked of retrieve() per question (default 50): the depth of MRR and gold ranks. */
  k?: number;
  /** Only these question ids (e.g. to look at one category while tuning). */
  ids?: string[];
  /** Also measure the pipeline path (retrieve 2k, refine to k) on the same library. */
  pipeline?: boolean;
}

export interface DevsetEvaluation {
  part: PartChoice;
  ranker: string;
  report: PartReport;
  rows: QuestionResult[];
  /** Calls to `embed` made during the evaluation (hybrid only). */
  embedCalls: number;
  ms: number;
  /** With `pipeline`: the pipeline path, per part. */
  path?: PipelinePathEvaluation[];
}

export const DEFAULT_K = 50;

function select(questions: DevQuestion[], part: PartChoice, ids?: string[]): DevQuestion[] {
  const want = ids ? new Set(ids) : undefined;
  return questions.filter((q) => (part === 'all' || q.part === part) && (!want || want.has(q.id)));
}

export function tabsFor(pages: DevPage[]): MemoryTab[] {
  return pages.map((p, i) => ({ id: i + 1, windowId: 1, url: p.url, title: p.page.title, page: p.page }));
}

/** The library over every page as open tabs, as the extension's createLibrary builds it. */
export function devsetLibrary(pages: DevPage[], opts: DevsetRankerOptions = {}, embed?: EmbedFn) {
  const k = opts.k ?? DEFAULT_K;
  return createLibrary({
    search: DEFAULT_SETTINGS.search,
    privacy: { ...DEFAULT_SETTINGS.privacy, excludedDomains: [] },
    pipeline: { passageChars: opts.passageChars ?? DEFAULT_SETTINGS.pipeline.passageChars, passagesPerStep: k },
    tabs: createMemoryTabs(tabsFor(pages)),
    providers: [],
    ...(opts.weights ? { weights: opts.weights } : {}),
    // Ranking quality, not latency: a loaded machine must not turn the hybrid lexical.
    ...(embed ? { embed, denseTimeoutMs: 300_000 } : {}),
    ...opts.library,
  });
}

export async function evaluateDevset(part: PartChoice = 'tune', opts: DevsetRankerOptions = {}): Promise<DevsetEvaluation> {
  const t0 = performance.now();
  const pages = await loadPages();
  const byName = new Map(pages.map((p) => [p.name, p]));
  const nameByUrl = new Map(pages.map((p) => [p.url, p.name]));
  const questions = select(loadQuestions(), part, opts.ids);
  let embedCalls = 0;
  const embed: EmbedFn | undefined = opts.embed
    ? (texts, signal) => {
        embedCalls++;
        return opts.embed!(texts, signal);
      }
    : undefined;
  const lib = devsetLibrary(pages, opts, embed);
  await lib.prepare();
  const k = opts.k ?? DEFAULT_K;
  const rows: QuestionResult[] = [];
  for (const q of questions) {
    const r = await lib.retrieve({ query: q.question, k });
    const failed = r.errors.find((e) => e.provider === 'embeddings');
    if (failed) throw new Error(`${q.id}: embeddings failed: ${failed.message}`);
    const ranked: RankedUnit[] = r.passages.map((p) => ({ page: nameByUrl.get(p.url) ?? p.url, start: p.start, end: p.end, chars: p.text.length }));
    rows.push(scoreQuestion(q, ranked, locateGold(q, byName), sharedWords(q, byName)));
  }
  const ranker = embed ? 'library, hybrid' : 'library, lexical';
  const path = opts.pipeline ? await Promise.all(PARTS.filter((p) => questions.some((q) => q.part === p)).map((p) => pipelinePath(lib, ranker, p, questions.filter((q) => q.part === p), byName, nameByUrl))) : undefined;
  return { part, ranker, report: report(rows, k, CATEGORIES), rows, embedCalls, ms: Math.round(performance.now() - t0), ...(path ? { path } : {}) };
}

/** The baseline on the same questions and metrics. */
export async function evaluateBaseline(part: PartChoice = 'tune', opts: Pick<DevsetRankerOptions, 'k' | 'ids'> & { words?: number } = {}): Promise<DevsetEvaluation> {
  const t0 = performance.now();
  const pages = await loadPages();
  const byName = new Map(pages.map((p) => [p.name, p]));
  const bm25 = new Bm25Baseline(pages.flatMap((p) => chunkWords(p.name, p.page.text, opts.words)));
  const k = opts.k ?? DEFAULT_K;
  const rows = select(loadQuestions(), part, opts.ids).map((q) => scoreQuestion(q, bm25.search(q.question, k), locateGold(q, byName), sharedWords(q, byName)));
  return { part, ranker: `BM25, ${opts.words ?? 120}-word chunks`, report: report(rows, k, CATEGORIES), rows, embedCalls: 0, ms: Math.round(performance.now() - t0) };
}

/** What the step is taken to say in the pipeline-path measurement: nothing beyond its query (the
 * question itself), the answer (the first gold span, as the benchmark's scripted model drafts the
 * gold sentences), or something unrelated (another question's gold span: a wrong draft). */
export const DRAFTS = ['question', 'answer', 'unrelated'] as const;
export type DraftKind = (typeof DRAFTS)[number];

export interface PipelinePathEvaluation {
  part: Part;
  ranker: string;
  /** Passages given to the model per step (the settings' default). */
  k: number;
  n: number;
  /** Share of questions with a gold passage in retrieve(k). */
  direct: number;
  /** Share with a gold passage among the 2k a step's round 1 retrieves. */
  found: number;
  /** Share with a gold passage among the k given to the model after refining, per draft. */
  given: Record<DraftKind, number>;
}

/** The pipeline path (lib/pipeline/step.ts, round 1): retrieve 2k for the step's query and refine
 * to k with the step's text, against retrieve(k) directly; the question is the query and k the
 * settings' passages per step. */
async function pipelinePath(lib: RatifyLibrary, ranker: string, part: Part, questions: DevQuestion[], byName: Map<string, DevPage>, nameByUrl: Map<string, string>): Promise<PipelinePathEvaluation> {
  const k = DEFAULT_SETTINGS.pipeline.passagesPerStep;
  let direct = 0;
  let found = 0;
  const given = Object.fromEntries(DRAFTS.map((d) => [d, 0])) as Record<DraftKind, number>;
  for (const [i, q] of questions.entries()) {
    const gold = locateGold(q, byName);
    const hit = (ps: Passage[]) => ps.some((p) => isGold({ page: nameByUrl.get(p.url) ?? p.url, start: p.start, end: p.end, chars: p.text.length }, gold));
    if (hit((await lib.retrieve({ query: q.question, k })).passages.slice(0, k))) direct++;
    const top = (await lib.retrieve({ query: q.question, k: 2 * k })).passages;
    if (hit(top)) found++;
    const drafts: Record<DraftKind, string> = { question: q.question, answer: q.gold[0]?.span ?? '', unrelated: questions[(i + 7) % questions.length]?.gold[0]?.span ?? '' };
    for (const d of DRAFTS) if (hit(refine(top, { query: q.question, draft: drafts[d], top }, k))) given[d]++;
  }
  const n = questions.length;
  const share = (x: number) => (n ? Math.round((x / n) * 1000) / 1000 : 0);
  return { part, ranker, k, n, direct: share(direct), found: share(found), given: Object.fromEntries(DRAFTS.map((d) => [d, share(given[d])])) as Record<DraftKind, number> };
}
