/** Part 3c: what the information-flow rule costs (SECURITY.md, "What leaves the machine").
 *
 * Each HotpotQA question's ten paragraphs are the web (an in-process search provider returning
 * them as Wikipedia does, text included); the scripted model drafts the question's six thoughts,
 * each with a short query, as in part 1, and its gate writes one short query from the question.
 * The same question runs twice through the real pipeline and library:
 *
 *  - **web only** (no tab among the sources): every call is network-safe, so each step's own query
 *    searches the web too, as every run did before the rule;
 *  - **with an open tab** among the sources (an unrelated page): the steps' queries rank the tab
 *    and the pages already found; only the gate's searches reach the web.
 *
 * Reported: the web queries each sent, the share of the web-only run's queries the rule keeps off
 * the web, and the gold paragraphs found among the evidence the model was given (recall over the
 * two gold paragraphs, all steps together). The answers are scripted, so recall is the measure. */
import { createLlmClient } from '../lib/llm/client';
import { executeRun } from '../lib/pipeline/run';
import { newRun } from '../lib/pipeline/run-state';
import { createLibrary } from '../lib/retrieval/library';
import { rankPassages } from '../lib/retrieval/rank';
import type { SearchProvider } from '../lib/retrieval/search/provider';
import { DEFAULT_SETTINGS } from '../lib/settings/schema';
import { startFakeLlm } from '../test/harness/fake-llm';
import { createMemoryTabs } from '../test/harness/memory-tabs';
import { pipelineResponder } from '../test/harness/pipeline-responder';
import { llmSettings } from '../test/harness/pipeline-world';
import type { MemoryTab } from '../test/harness/memory-tabs';
import { shortQuery, type BenchQuestion, type Thought } from './questions';

/** One question's world: its web (pages a search returns with their text), what the scripted
 * model thinks, and the tabs open when it is asked "with tabs". */
export interface WebRuleWorld {
  id: string;
  /** The figure's group (HotpotQA: bridge or comparison; the dev set: its category). */
  group: string;
  question: string;
  docs: { url: string; title: string; text: string }[];
  thoughts: Thought[];
  finalAnswer: string;
  /** Titles of the pages that answer it. */
  gold: string[];
  tabs: MemoryTab[];
}

export interface WebRuleRow {
  id: string;
  group: string;
  webOnly: { queries: string[]; recall: number };
  withTab: { queries: string[]; recall: number };
}

export interface WebRuleSide {
  queriesPerQuestion: number;
  recall: number;
  /** Recall per group, groups in first-seen order. */
  byGroup: Record<string, number>;
}

export interface WebRuleSummary {
  questions: number;
  webOnly: WebRuleSide;
  withTab: WebRuleSide;
  /** Share of the web-only runs' web queries not sent with tabs among the sources. */
  changedShare: number;
}

/** The world's pages as a search engine that returns pages with their text. */
function pageSearch(w: WebRuleWorld, seen: string[]): SearchProvider {
  const passages = w.docs.map((d, i) => ({ id: String(i), url: d.url, title: d.title, origin: 'web' as const, text: `${d.title}. ${d.text}`, headingPath: [], start: 0, end: d.text.length }));
  return {
    name: 'wikipedia',
    search(query, ctx) {
      seen.push(query);
      return Promise.resolve(
        rankPassages(query, passages, ctx.limit).map(({ passage: p }) => {
          const d = w.docs[Number(p.id)]!;
          return { url: d.url, title: d.title, snippet: d.text.slice(0, 200), page: { url: d.url, hash: `h${p.id}`, title: d.title, text: d.text, headings: [] } };
        }),
      );
    },
  };
}

const FILLER: MemoryTab = { id: 1, url: 'https://notes.example.org/groceries', title: 'Groceries', page: { url: 'https://notes.example.org/groceries', hash: 'g', title: 'Groceries', text: 'Milk, eggs, bread and coffee for the week. Call the plumber on Tuesday.', headings: [] } };

/** HotpotQA: the question's ten paragraphs are the web; "with tabs" is one unrelated open tab. */
export function hotpotWorld(q: BenchQuestion): WebRuleWorld {
  return { id: q.id, group: q.type, question: q.question, docs: q.docs, thoughts: q.thoughts, finalAnswer: q.finalAnswer, gold: q.gold, tabs: [FILLER] };
}

export async function runWebRule(worlds: WebRuleWorld[], log: (s: string) => void = () => undefined): Promise<{ rows: WebRuleRow[]; summary: WebRuleSummary }> {
  const server = await startFakeLlm({ responder: () => ({ content: '' }) });
  const llm = createLlmClient(llmSettings(server.baseURL));
  const rows: WebRuleRow[] = [];
  try {
    for (const w of worlds) {
      server.setResponder(
        pipelineResponder({
          gate: { label: 'clear', question: '', confidence: 0.2, search: [shortQuery(w.question)] },
          steps: w.thoughts.map((t) => t.text),
          facts: w.thoughts.map((t, step) => ({ step, phrase: t.phrase })),
          nextQuery: (_revised, draft) => shortQuery(draft),
          finalAnswer: w.finalAnswer,
        }),
      );
      const one = async (withTabs: boolean) => {
        const queries: string[] = [];
        const library = createLibrary({
          search: { ...DEFAULT_SETTINGS.search, pagesPerQuery: 3 },
          privacy: DEFAULT_SETTINGS.privacy,
          pipeline: { passageChars: DEFAULT_SETTINGS.pipeline.passageChars, passagesPerStep: DEFAULT_SETTINGS.pipeline.passagesPerStep },
          providers: [pageSearch(w, queries)],
          ...(withTabs ? { tabs: createMemoryTabs(w.tabs) } : {}),
        });
        const run = await executeRun({ run: newRun(`web-rule-${w.id}`, 'ask', { text: w.question }, 0), llm, library, settings: { ...DEFAULT_SETTINGS.pipeline, maxSteps: w.thoughts.length, speculate: false }, emit: () => undefined });
        if (run.status !== 'done') throw new Error(`web-rule ${w.id}: ${run.status} ${run.error?.message ?? ''}`);
        const given = new Set(run.steps.flatMap((s) => s.queries.flatMap((x) => x.passages.map((p) => p.title))));
        return { queries, recall: w.gold.length ? w.gold.filter((g) => given.has(g)).length / w.gold.length : 0 };
      };
      rows.push({ id: w.id, group: w.group, webOnly: await one(false), withTab: await one(true) });
    }
  } finally {
    await server.close();
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const groups = [...new Set(rows.map((r) => r.group))];
  const side = (k: 'webOnly' | 'withTab'): WebRuleSide => ({
    queriesPerQuestion: mean(rows.map((r) => r[k].queries.length)),
    recall: mean(rows.map((r) => r[k].recall)),
    byGroup: Object.fromEntries(groups.map((g) => [g, mean(rows.filter((r) => r.group === g).map((r) => r[k].recall))])),
  });
  const before = rows.flatMap((r) => r.webOnly.queries.map((x) => ({ x, kept: r.withTab.queries.includes(x) })));
  const summary: WebRuleSummary = { questions: rows.length, webOnly: side('webOnly'), withTab: side('withTab'), changedShare: before.length ? before.filter((b) => !b.kept).length / before.length : 0 };
  log(`web rule: ${rows.length} questions`);
  return { rows, summary };
}

/** Part 3c on HotpotQA. */
export function runWebRuleBench(questions: BenchQuestion[], log?: (s: string) => void): Promise<{ rows: WebRuleRow[]; summary: WebRuleSummary }> {
  return runWebRule(questions.map(hotpotWorld), log);
}

export function formatWebRule(s: WebRuleSummary, withTabs = 'with an open tab'): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const f2 = (x: number) => x.toFixed(2);
  const groups = Object.keys(s.webOnly.byGroup);
  const cells = (side: WebRuleSide) => groups.map((g) => f2(side.byGroup[g] ?? 0)).join(' | ');
  return [
    `| sources | web queries / question | gold recall | ${groups.join(' | ')} |`,
    `| --- | ---: | ---: | ${groups.map(() => '---:').join(' | ')} |`,
    `| web only (the steps' queries search the web, as before the rule) | ${f2(s.webOnly.queriesPerQuestion)} | ${f2(s.webOnly.recall)} | ${cells(s.webOnly)} |`,
    `| ${withTabs} (only the gate's searches reach the web) | ${f2(s.withTab.queriesPerQuestion)} | ${f2(s.withTab.recall)} | ${cells(s.withTab)} |`,
    '',
    `Web queries that change under the rule (of the web-only runs', not sent with tabs among the sources): ${pct(s.changedShare)} of ${s.questions} questions' queries.`,
  ].join('\n');
}
