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
import { shortQuery, type BenchQuestion } from './questions';

export interface WebRuleRow {
  id: string;
  type: BenchQuestion['type'];
  webOnly: { queries: string[]; recall: number };
  withTab: { queries: string[]; recall: number };
}

export interface WebRuleSummary {
  questions: number;
  webOnly: { queriesPerQuestion: number; recall: number; recallBridge: number; recallComparison: number };
  withTab: { queriesPerQuestion: number; recall: number; recallBridge: number; recallComparison: number };
  /** Share of the web-only runs' web queries not sent with a tab among the sources. */
  changedShare: number;
}

/** The question's paragraphs as a search engine that returns pages with their text. */
function paragraphSearch(q: BenchQuestion, seen: string[]): SearchProvider {
  const passages = q.docs.map((d, i) => ({ id: String(i), url: d.url, title: d.title, origin: 'web' as const, text: `${d.title}. ${d.text}`, headingPath: [], start: 0, end: d.text.length }));
  return {
    name: 'wikipedia',
    async search(query, ctx) {
      seen.push(query);
      return rankPassages(query, passages, ctx.limit).map(({ passage: p }) => {
        const d = q.docs[Number(p.id)]!;
        return { url: d.url, title: d.title, snippet: d.text.slice(0, 200), page: { url: d.url, hash: `h${p.id}`, title: d.title, text: d.text, headings: [] } };
      });
    },
  };
}

const FILLER = { id: 1, url: 'https://notes.example.org/groceries', title: 'Groceries', page: { url: 'https://notes.example.org/groceries', hash: 'g', title: 'Groceries', text: 'Milk, eggs, bread and coffee for the week. Call the plumber on Tuesday.', headings: [] } };

export async function runWebRuleBench(questions: BenchQuestion[], log: (s: string) => void = () => undefined): Promise<{ rows: WebRuleRow[]; summary: WebRuleSummary }> {
  const server = await startFakeLlm({ responder: () => ({ content: '' }) });
  const llm = createLlmClient(llmSettings(server.baseURL));
  const rows: WebRuleRow[] = [];
  try {
    for (const q of questions) {
      server.setResponder(
        pipelineResponder({
          gate: { label: 'clear', question: '', confidence: 0.2, search: [shortQuery(q.question)] },
          steps: q.thoughts.map((t) => t.text),
          facts: q.thoughts.map((t, step) => ({ step, phrase: t.phrase })),
          nextQuery: (_revised, draft) => shortQuery(draft),
          finalAnswer: q.finalAnswer,
        }),
      );
      const one = async (withTab: boolean) => {
        const queries: string[] = [];
        const library = createLibrary({
          search: { ...DEFAULT_SETTINGS.search, pagesPerQuery: 3 },
          privacy: DEFAULT_SETTINGS.privacy,
          pipeline: { passageChars: DEFAULT_SETTINGS.pipeline.passageChars, passagesPerStep: DEFAULT_SETTINGS.pipeline.passagesPerStep },
          providers: [paragraphSearch(q, queries)],
          ...(withTab ? { tabs: createMemoryTabs([FILLER]) } : {}),
        });
        const run = await executeRun({ run: newRun(`web-rule-${q.id}`, 'ask', { text: q.question }, 0), llm, library, settings: { ...DEFAULT_SETTINGS.pipeline, maxSteps: q.thoughts.length, speculate: false }, emit: () => undefined });
        if (run.status !== 'done') throw new Error(`web-rule ${q.id}: ${run.status} ${run.error?.message ?? ''}`);
        const given = new Set(run.steps.flatMap((s) => s.queries.flatMap((x) => x.passages.map((p) => p.title))));
        return { queries, recall: q.gold.length ? q.gold.filter((g) => given.has(g)).length / q.gold.length : 0 };
      };
      rows.push({ id: q.id, type: q.type, webOnly: await one(false), withTab: await one(true) });
    }
  } finally {
    await server.close();
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const side = (k: 'webOnly' | 'withTab') => ({
    queriesPerQuestion: mean(rows.map((r) => r[k].queries.length)),
    recall: mean(rows.map((r) => r[k].recall)),
    recallBridge: mean(rows.filter((r) => r.type === 'bridge').map((r) => r[k].recall)),
    recallComparison: mean(rows.filter((r) => r.type === 'comparison').map((r) => r[k].recall)),
  });
  const before = rows.flatMap((r) => r.webOnly.queries.map((x) => ({ x, kept: r.withTab.queries.includes(x) })));
  const summary: WebRuleSummary = { questions: rows.length, webOnly: side('webOnly'), withTab: side('withTab'), changedShare: before.length ? before.filter((b) => !b.kept).length / before.length : 0 };
  log(`web rule: ${rows.length} questions`);
  return { rows, summary };
}

export function formatWebRule(s: WebRuleSummary): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const f2 = (x: number) => x.toFixed(2);
  return [
    '| sources | web queries / question | gold recall | bridge | comparison |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| web only (the steps' queries search the web, as before the rule) | ${f2(s.webOnly.queriesPerQuestion)} | ${f2(s.webOnly.recall)} | ${f2(s.webOnly.recallBridge)} | ${f2(s.webOnly.recallComparison)} |`,
    `| with an open tab (only the gate's searches reach the web) | ${f2(s.withTab.queriesPerQuestion)} | ${f2(s.withTab.recall)} | ${f2(s.withTab.recallBridge)} | ${f2(s.withTab.recallComparison)} |`,
    '',
    `Web queries that change under the rule (of the web-only runs', not sent with a tab among the sources): ${pct(s.changedShare)} of ${s.questions} questions' queries.`,
  ].join('\n');
}
