import { testConnection } from '../llm/test-connection';
import { listModels } from '../llm/client';
import { LlmError, classifyLlmError } from '../llm/errors';
import type { Reply, Request, RequestMap } from './messages';
import { promptUrl } from '../core/url';
import type { ClaimResult, PageContext, Run, SourceScope, ThreadTurn } from '../core/run';
import { earlierCheck, unchangedIn } from './page-checks';
import type { RunManager } from './run-manager';

export interface HandlerDeps {
  manager: RunManager;
  getRun(id: string): Promise<Run | undefined>;
  /** Tell the side panel which run to show. */
  setActiveRun(id: string): Promise<void>;
  openSource(req: RequestMap['source/open']['req']): Promise<boolean>;
  deleteRun(id: string): Promise<void>;
  putRun(run: Run): Promise<unknown>;
  deleteAllData(): Promise<void>;
  clearMarks(tabId: number): Promise<void>;
  countMarks(tabId: number): Promise<number>;
  /** The page the user is on, as the model may see it (undefined: it may not be read). */
  capturePage(tabId: number, scope: SourceScope | undefined): Promise<PageContext | undefined>;
  /** The finished turns of a thread, oldest first, for resolving a follow-up. */
  threadTurns(threadId: string): Promise<ThreadTurn[]>;
  threadRunIds(threadId: string): Promise<string[]>;
  /** The address the tab shows now (undefined: the tab is gone). */
  tabUrl(tabId: number): Promise<string | undefined>;
  /** The newest finished page check of a page (address without query or fragment). */
  latestPageCheck(url: string): Promise<Run | undefined>;
  /** Draw the marks of a run's claims that `keep` chooses in a tab; resolves with how many were
   * drawn. */
  showMarks(tabId: number, run: Run, keep: (c: ClaimResult) => boolean): Promise<number>;
  revealMark(tabId: number, sentence: string): Promise<boolean>;
}

/** Check this page: what the run is given of the page. Only the visible article text and what
 * names the page; never its selection or a query string. */
function pageInput(page: PageContext): { text: string; page: PageContext } {
  return {
    text: page.text ?? '',
    page: { url: page.url, title: page.title, ...(page.tabId !== undefined ? { tabId: page.tabId } : {}), ...(page.pdf ? { pdf: true } : {}), ...(page.lang ? { lang: page.lang } : {}) },
  };
}

const UNREADABLE_PAGE = 'Ratify does not read this page (a browser page, an excluded site or a private window), so it cannot check it.';

type Handlers = { [K in keyof RequestMap]: (req: RequestMap[K]['req']) => Promise<RequestMap[K]['res']> };

/** The worker's request handlers, free of browser APIs (those come in through deps). */
export function createHandlers(deps: HandlerDeps): (req: Request) => Promise<Reply<unknown>> {
  const existing = async (id: string): Promise<Run> => {
    const run = await deps.getRun(id);
    if (!run) throw new LlmError({ code: 'unknown', message: 'That run no longer exists.' });
    return run;
  };
  /** The thread's earlier turns, once every answer of it still being written has finished: a
   * question asked meanwhile (the panel queues it) sees the answer before it. */
  const settledTurns = async (threadId: string): Promise<ThreadTurn[]> => {
    for (const runId of await deps.threadRunIds(threadId)) if (deps.manager.isActive(runId)) await deps.manager.settled(runId);
    return deps.threadTurns(threadId);
  };
  /** A question about the page the user was on, asked again: the page read afresh if its tab
   * still shows it (it may be readable now), else as it was captured. */
  const pageAgain = async (run: Run): Promise<PageContext | undefined> => {
    const old = run.input.page;
    if (run.mode !== 'ask' || old?.tabId === undefined) return undefined;
    const now = await deps.capturePage(old.tabId, run.input.scope);
    return now && now.url === old.url ? now : undefined;
  };
  const handlers: Handlers = {
    'run/start': async ({ mode, input, pageTabId }) => {
      if (mode === 'page') {
        const page = pageTabId !== undefined ? await deps.capturePage(pageTabId, undefined) : undefined;
        if (!page) throw new LlmError({ code: 'empty-input', message: UNREADABLE_PAGE });
        const run = await deps.manager.start('page', pageInput(page));
        await deps.setActiveRun(run.id);
        return run;
      }
      const [page, turns] = await Promise.all([
        mode === 'ask' && pageTabId !== undefined ? deps.capturePage(pageTabId, input.scope) : Promise.resolve(input.page),
        input.thread ? settledTurns(input.thread.id) : Promise.resolve(undefined),
      ]);
      const run = await deps.manager.start(mode, {
        ...input,
        page,
        ...(input.thread ? { thread: { id: input.thread.id, ...(turns?.length ? { turns } : {}) } } : {}),
      });
      await deps.setActiveRun(run.id);
      return run;
    },
    'run/cancel': async ({ id }) => deps.manager.cancel(id),
    'run/retry': async ({ id }) => {
      const run = await deps.manager.retry(await existing(id));
      await deps.setActiveRun(run.id);
      return run;
    },
    'run/again': async ({ id, forceRetrieval }) => {
      const old = await existing(id);
      const page = await pageAgain(old);
      const run = await deps.manager.again(old, { ...(forceRetrieval ? { forceRetrieval } : {}), ...(page ? { page } : {}) });
      await deps.setActiveRun(run.id);
      return run;
    },
    'llm/test': ({ llm }) => testConnection(llm),
    'llm/models': ({ llm }) => listModels(llm),
    'source/open': (req) => deps.openSource(req),
    'marks/clear': async ({ tabId }) => {
      await deps.clearMarks(tabId);
      return true;
    },
    'marks/count': ({ tabId }) => deps.countMarks(tabId),
    'marks/reveal': ({ tabId, sentence }) => deps.revealMark(tabId, sentence),
    'page/earlier': async ({ tabId }) => {
      const url = await deps.tabUrl(tabId);
      const run = url ? await deps.latestPageCheck(promptUrl(url)) : undefined;
      if (!run) return null;
      // Read the page as it is now: only its unchanged sentences count.
      const page = await deps.capturePage(tabId, undefined);
      return earlierCheck(run, page?.text ?? '');
    },
    'page/show-earlier': async ({ runId, tabId }) => {
      const run = await existing(runId);
      const page = await deps.capturePage(tabId, undefined);
      await deps.setActiveRun(run.id);
      if (!page?.text || run.input.page?.pdf) return 0;
      return deps.showMarks(tabId, run, unchangedIn(page.text));
    },
    'threads/delete': async ({ id }) => {
      const deleted: Run[] = [];
      for (const runId of await deps.threadRunIds(id)) {
        // A live run ends (cancelled) and is stored so before it goes: Undo brings back that.
        if (deps.manager.cancel(runId)) await deps.manager.settled(runId);
        const run = await deps.getRun(runId);
        await deps.deleteRun(runId);
        if (run) deleted.push(run);
      }
      return deleted;
    },
    'runs/restore': async ({ runs }) => {
      for (const run of runs) await deps.putRun(run.status === 'running' ? { ...run, status: 'cancelled' } : run);
      return true;
    },
    'runs/delete': async ({ id }) => {
      deps.manager.cancel(id);
      await deps.deleteRun(id);
      return true;
    },
    'data/delete-all': async () => {
      for (const id of deps.manager.activeIds()) deps.manager.cancel(id);
      await deps.deleteAllData();
      return true;
    },
  };
  return async (req) => {
    try {
      const { type, ...rest } = req;
      // The union is keyed by `type`; TypeScript cannot correlate handler and payload here.
      const value = await (handlers[type] as (r: typeof rest) => Promise<unknown>)(rest);
      return { ok: true, value };
    } catch (err) {
      return { ok: false, error: err instanceof LlmError ? err.info : classifyLlmError(err, '') };
    }
  };
}
