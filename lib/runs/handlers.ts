import { testConnection } from '../llm/test-connection';
import { listModels } from '../llm/client';
import { LlmError, classifyLlmError } from '../llm/errors';
import type { Reply, Request, RequestMap } from './messages';
import { promptUrl } from '../core/url';
import type { ClaimResult, PageContext, Run, RunInput, SourceScope, ThreadTurn } from '../core/run';
import { earlierCheck, unchangedIn } from './page-checks';
import type { RunManager } from './run-manager';

/** What a selection in a tab gives a verification: the text as the user sees it and its page. */
export interface CapturedSelection {
  text: string;
  page?: PageContext;
  /** Sentences of the selection hidden on the page, left out. */
  hiddenSentences?: number;
}

export interface HandlerDeps {
  manager: RunManager;
  getRun(id: string): Promise<Run | undefined>;
  /** Make this run the one the side panel shows (null: none); resolves with the change's version.
   * The handlers are the only callers (lib/runs/run-feed.ts). */
  setActiveRun(id: string | null): Promise<number>;
  openSource(req: RequestMap['source/open']['req']): Promise<boolean>;
  deleteRun(id: string): Promise<void>;
  putRun(run: Run): Promise<unknown>;
  deleteAllData(): Promise<void>;
  clearMarks(tabId: number): Promise<void>;
  countMarks(tabId: number): Promise<number>;
  /** The page the user is on, as the model may see it (undefined: it may not be read). */
  capturePage(tabId: number, scope: SourceScope | undefined): Promise<PageContext | undefined>;
  /** The selection in a tab (`fallbackText` where the tab cannot be read: the menu's text). */
  captureSelection(tabId: number, fallbackText: string): Promise<CapturedSelection>;
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

type Handlers = { [K in keyof RequestMap]: (req: RequestMap[K]['req']) => Promise<RequestMap[K]['res']> };
type StartRequest = RequestMap['run/start']['req'];

/** Check this page: what the run is given of the page. Only the visible article text and what
 * names the page; never its selection or a query string. */
function pageInput(page: PageContext): { text: string; page: PageContext } {
  return {
    text: page.text ?? '',
    page: { url: page.url, title: page.title, ...(page.tabId !== undefined ? { tabId: page.tabId } : {}), ...(page.pdf ? { pdf: true } : {}), ...(page.lang ? { lang: page.lang } : {}) },
  };
}

const UNREADABLE_PAGE = 'Ratify does not read this page (a browser page, an excluded site or a private window), so it cannot check it.';

async function existing(deps: HandlerDeps, id: string): Promise<Run> {
  const run = await deps.getRun(id);
  if (!run) throw new LlmError({ code: 'unknown', message: 'That run no longer exists.' });
  return run;
}

/** The thread's earlier turns, once every answer of it still being written has finished: a
 * question asked meanwhile (the panel queues it) sees the answer before it. */
async function settledTurns(deps: HandlerDeps, threadId: string): Promise<ThreadTurn[]> {
  for (const runId of await deps.threadRunIds(threadId)) if (deps.manager.isActive(runId)) await deps.manager.settled(runId);
  return deps.threadTurns(threadId);
}

/** A question about the page the user was on, asked again: the page read afresh if its tab
 * still shows it (it may be readable now), else as it was captured. */
async function pageAgain(deps: HandlerDeps, run: Run): Promise<PageContext | undefined> {
  const old = run.input.page;
  if (run.mode !== 'ask' || old?.tabId === undefined) return undefined;
  const now = await deps.capturePage(old.tabId, run.input.scope);
  return now && now.url === old.url ? now : undefined;
}

/** Check this page: the tab's visible article text, read by the worker. */
async function pageCheckInput(deps: HandlerDeps, pageTabId: number | undefined): Promise<RunInput> {
  const page = pageTabId !== undefined ? await deps.capturePage(pageTabId, undefined) : undefined;
  if (!page) throw new LlmError({ code: 'empty-input', message: UNREADABLE_PAGE });
  return pageInput(page);
}

/** Verify: the selection of the tab, as the user sees it; a verification that carries its page
 * (captured already) keeps it and reads no tab. */
async function verifyInput(deps: HandlerDeps, input: RunInput, pageTabId: number | undefined): Promise<RunInput> {
  if (pageTabId === undefined || input.page) return input;
  const { text, page, hiddenSentences } = await deps.captureSelection(pageTabId, input.text);
  return { ...input, text, page, ...(hiddenSentences ? { hiddenSentences } : {}) };
}

/** Ask: the page the user is on (within the privacy rules and the chosen sources) and the
 * thread's earlier turns. */
async function askInput(deps: HandlerDeps, input: RunInput, pageTabId: number | undefined): Promise<RunInput> {
  const [page, turns] = await Promise.all([
    pageTabId !== undefined ? deps.capturePage(pageTabId, input.scope) : Promise.resolve(input.page),
    input.thread ? settledTurns(deps, input.thread.id) : Promise.resolve(undefined),
  ]);
  return { ...input, page, ...(input.thread ? { thread: { id: input.thread.id, ...(turns?.length ? { turns } : {}) } } : {}) };
}

function startInput(deps: HandlerDeps, { mode, input, pageTabId }: StartRequest): Promise<RunInput> {
  if (mode === 'page') return pageCheckInput(deps, pageTabId);
  if (mode === 'verify') return verifyInput(deps, input, pageTabId);
  return askInput(deps, input, pageTabId);
}

/** A run started (or continued) becomes the one the panel shows. */
async function shown(deps: HandlerDeps, run: Promise<Run>): Promise<Run> {
  const r = await run;
  await deps.setActiveRun(r.id);
  return r;
}

function runHandlers(deps: HandlerDeps): Pick<Handlers, 'run/start' | 'run/show' | 'run/cancel' | 'run/retry' | 'run/again'> {
  return {
    'run/start': async (req) => shown(deps, deps.manager.start(req.mode, await startInput(deps, req))),
    'run/show': ({ id }) => deps.setActiveRun(id),
    'run/cancel': ({ id }) => Promise.resolve(deps.manager.cancel(id)),
    'run/retry': async ({ id }) => shown(deps, deps.manager.retry(await existing(deps, id))),
    'run/again': async ({ id, forceRetrieval }) => {
      const old = await existing(deps, id);
      const page = await pageAgain(deps, old);
      return shown(deps, deps.manager.again(old, { ...(forceRetrieval ? { forceRetrieval } : {}), ...(page ? { page } : {}) }));
    },
  };
}

function pageHandlers(deps: HandlerDeps): Pick<Handlers, 'marks/clear' | 'marks/count' | 'marks/reveal' | 'page/earlier' | 'page/show-earlier' | 'source/open'> {
  return {
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
      const run = await existing(deps, runId);
      const page = await deps.capturePage(tabId, undefined);
      await deps.setActiveRun(run.id);
      if (!page?.text || run.input.page?.pdf) return 0;
      return deps.showMarks(tabId, run, unchangedIn(page.text));
    },
  };
}

function storeHandlers(deps: HandlerDeps): Pick<Handlers, 'threads/delete' | 'runs/restore' | 'runs/delete' | 'data/delete-all'> {
  return {
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
}

/** The worker's request handlers, free of browser APIs (those come in through deps). The panel's
 * requests, the menus and the shortcuts all come through here. */
export function createHandlers(deps: HandlerDeps): (req: Request) => Promise<Reply<unknown>> {
  const handlers: Handlers = {
    ...runHandlers(deps),
    ...pageHandlers(deps),
    ...storeHandlers(deps),
    'llm/test': ({ llm }) => testConnection(llm),
    'llm/models': ({ llm }) => listModels(llm),
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
