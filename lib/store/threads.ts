/** Threads: the questions of one conversation, in order. A thread is not a record of its own: each
 * run's summary names its thread (runIndex.threadId), so a run is written in one place and the
 * history, the panel and the gate's "conversation so far" all read the same rows. */
import type { Run, RunMode, RunStatus, ThreadTurn } from '../core/run';
import { db, type RatifyDb, type RunSummary } from './db';
import { unionOrigins, UNKNOWN_ORIGINS } from '../core/flow';

/** The thread a run belongs to; a run asked on its own (or stored before threads) is its own. */
export function threadOf(run: Pick<Run, 'id' | 'input'>): string {
  return run.input.thread?.id ?? run.id;
}

export interface ThreadSummary {
  id: string;
  /** The first question (or selection) of the thread. */
  title: string;
  /** The page its first question was asked on (or its selection came from). */
  pageTitle?: string;
  mode: RunMode;
  /** Status of the newest run. */
  status: RunStatus;
  runCount: number;
  createdAt: number;
  /** When its newest run was asked. */
  updatedAt: number;
  lastRunId: string;
}

/** Rows (any order) grouped into threads, newest activity first. */
export function groupThreads(rows: RunSummary[]): ThreadSummary[] {
  const byThread = new Map<string, RunSummary[]>();
  for (const r of rows) {
    // A run with no text (Verify pressed with nothing selected) has nothing to reopen.
    if (!r.text.trim()) continue;
    const id = r.threadId ?? r.id;
    const list = byThread.get(id);
    if (list) list.push(r);
    else byThread.set(id, [r]);
  }
  const out: ThreadSummary[] = [];
  for (const [id, list] of byThread) {
    list.sort((a, b) => a.createdAt - b.createdAt);
    const first = list[0];
    const last = list[list.length - 1];
    if (!first || !last) continue;
    out.push({ id, title: first.text, ...(first.pageTitle ? { pageTitle: first.pageTitle } : {}), mode: first.mode, status: last.status, runCount: list.length, createdAt: first.createdAt, updatedAt: last.createdAt, lastRunId: last.id });
  }
  return out.sort((a, b) => b.updatedAt - a.updatedAt);
}

/** What an answer said, as plain text for the next question's context (no [n] markers). */
function answerText(run: Run): string {
  const text = (run.mode === 'verify' ? run.corrected ?? run.answer : run.answer) ?? '';
  return text
    .replace(/\s*\[\d+\]/g, '')
    .replace(/[*_`#>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The turns the gate needs to resolve a follow-up: the thread's finished runs, newest last. */
export function turnsOf(runs: Run[], max = 4): ThreadTurn[] {
  return runs
    .filter((r) => r.status === 'done' && answerText(r))
    .map((r): ThreadTurn => ({
      question: r.mode === 'verify' ? `Fact-check: ${r.input.text}` : (r.gate?.rewritten ?? r.input.text),
      answer: answerText(r).slice(0, 1200),
      // Derived text keeps its origin (lib/core/flow.ts): the rewrite, what its call saw; the
      // answer, what its run could read (unknown for runs stored before origins were kept).
      questionOrigins: r.mode === 'verify' ? ['selected'] : r.gate?.rewritten ? unionOrigins(r.input.origins, r.gate.origins ?? UNKNOWN_ORIGINS) : unionOrigins(['typed'], r.input.origins),
      answerOrigins: r.origins ?? [...UNKNOWN_ORIGINS],
    }))
    .slice(-max);
}

export function threadStore(database: RatifyDb = db()) {
  const runsOf = async (threadId: string): Promise<Run[]> => {
    const rows = await database.runIndex.where('threadId').equals(threadId).sortBy('createdAt');
    const runs = await database.runs.bulkGet(rows.map((r) => r.id));
    return runs.filter((r): r is Run => r !== undefined);
  };
  return {
    runs: runsOf,
    /** Threads, newest activity first; `query` keeps those with a run that matches (question,
     * page title, start of the answer), case-insensitively. */
    async list({ query = '', limit = 200 }: { query?: string; limit?: number } = {}): Promise<ThreadSummary[]> {
      const q = query.trim().toLowerCase();
      const rows = await database.runIndex.toArray();
      const threads = groupThreads(rows);
      if (!q) return threads.slice(0, limit);
      const hit = new Set(rows.filter((r) => r.haystack.includes(q)).map((r) => r.threadId ?? r.id));
      return threads.filter((t) => hit.has(t.id)).slice(0, limit);
    },
    turns: async (threadId: string, max = 4): Promise<ThreadTurn[]> => turnsOf(await runsOf(threadId), max),
    /** Ids of the thread's runs (for deleting them through the worker, which cancels live ones). */
    async runIds(threadId: string): Promise<string[]> {
      return database.runIndex.where('threadId').equals(threadId).primaryKeys();
    },
  };
}

export type ThreadStore = ReturnType<typeof threadStore>;
