import type { Run } from '../core/run';
import { threadOf } from './threads';
import { db, type RatifyDb, type RunSummary } from './db';

export type { RunSummary };

/** Runs in IndexedDB. Every caller (worker, panel, tests) goes through these functions. */
export function runStore(database: RatifyDb = db()) {
  return {
    put: (run: Run) =>
      database.transaction('rw', database.runs, database.runIndex, async () => {
        await database.runs.put(run);
        await database.runIndex.put(summarize(run));
      }),
    get: (id: string) => database.runs.get(id),
    delete: (id: string) =>
      database.transaction('rw', database.runs, database.runIndex, async () => {
        await database.runs.delete(id);
        await database.runIndex.delete(id);
      }),
    clear: () =>
      database.transaction('rw', database.runs, database.runIndex, async () => {
        await database.runs.clear();
        await database.runIndex.clear();
      }),
    count: () => database.runIndex.count(),
    /** Newest first; `query` matches the question/selection, page title and answer, case-insensitively. */
    list({ query = '', limit = 200 }: { query?: string; limit?: number } = {}): Promise<RunSummary[]> {
      const q = query.trim().toLowerCase();
      let c = database.runIndex.orderBy('createdAt').reverse();
      if (q) c = c.filter((r) => r.haystack.includes(q));
      return c.limit(limit).toArray();
    },
    /** The newest finished check of the page at `url` (an address without query or fragment). */
    async latestPageCheck(url: string): Promise<Run | undefined> {
      const rows = await database.runIndex.filter((r) => r.mode === 'page' && r.pageUrl === url && r.status === 'done').toArray();
      const newest = rows.sort((a, b) => b.createdAt - a.createdAt)[0];
      return newest ? database.runs.get(newest.id) : undefined;
    },
    /** Runs the worker was executing when it stopped. */
    running: () => database.runs.where('status').equals('running').toArray(),
    async deleteOlderThan(cutoff: number): Promise<number> {
      const ids = await database.runIndex.where('createdAt').below(cutoff).primaryKeys();
      await database.transaction('rw', database.runs, database.runIndex, async () => {
        await database.runs.bulkDelete(ids);
        await database.runIndex.bulkDelete(ids);
      });
      return ids.length;
    },
  };
}

export type RunStore = ReturnType<typeof runStore>;

export function summarize(r: Run): RunSummary {
  const base = { id: r.id, threadId: threadOf(r), createdAt: r.createdAt, mode: r.mode, status: r.status, pageTitle: r.input.page?.title, sourceCount: r.sources.length };
  if (r.mode === 'page') {
    // A page check is listed by the page's title; its text is the whole article, not a question.
    const title = r.input.page?.title || r.input.page?.url || r.input.text.slice(0, 120);
    const claims = (r.claims ?? r.steps.map((s) => ({ claim: s.draft }))).map((c) => c.claim).join('\n');
    return {
      ...base,
      text: title,
      haystack: [title, r.input.page?.url ?? '', claims.slice(0, 4000)].join('\n').toLowerCase(),
      ...(r.input.page?.url ? { pageUrl: r.input.page.url } : {}),
    };
  }
  const text = r.input.text.length > 300 ? r.input.text.slice(0, 300) + '…' : r.input.text;
  return { ...base, text, haystack: [r.input.text, r.input.page?.title ?? '', (r.answer ?? r.corrected ?? '').slice(0, 2000)].join('\n').toLowerCase() };
}
