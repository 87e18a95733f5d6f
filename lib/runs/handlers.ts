import { testConnection } from '../llm/test-connection';
import { listModels } from '../llm/client';
import { LlmError, classifyLlmError } from '../llm/errors';
import type { Reply, Request, RequestMap } from './messages';
import type { PageContext, Run, SourceScope, ThreadTurn } from '../core/run';
import type { RunManager } from './run-manager';

export interface HandlerDeps {
  manager: RunManager;
  getRun(id: string): Promise<Run | undefined>;
  /** Tell the side panel which run to show. */
  setActiveRun(id: string): Promise<void>;
  openSource(req: RequestMap['source/open']['req']): Promise<boolean>;
  deleteRun(id: string): Promise<void>;
  deleteAllData(): Promise<void>;
  clearMarks(tabId: number): Promise<void>;
  countMarks(tabId: number): Promise<number>;
  /** The page the user is on, as the model may see it (undefined: it may not be read). */
  capturePage(tabId: number, scope: SourceScope | undefined): Promise<PageContext | undefined>;
  /** The finished turns of a thread, oldest first, for resolving a follow-up. */
  threadTurns(threadId: string): Promise<ThreadTurn[]>;
  threadRunIds(threadId: string): Promise<string[]>;
}

type Handlers = { [K in keyof RequestMap]: (req: RequestMap[K]['req']) => Promise<RequestMap[K]['res']> };

/** The worker's request handlers, free of browser APIs (those come in through deps). */
export function createHandlers(deps: HandlerDeps): (req: Request) => Promise<Reply<unknown>> {
  const existing = async (id: string): Promise<Run> => {
    const run = await deps.getRun(id);
    if (!run) throw new LlmError({ code: 'unknown', message: 'That run no longer exists.' });
    return run;
  };
  const handlers: Handlers = {
    'run/start': async ({ mode, input, pageTabId }) => {
      const [page, turns] = await Promise.all([
        mode === 'ask' && pageTabId !== undefined ? deps.capturePage(pageTabId, input.scope) : Promise.resolve(input.page),
        input.thread ? deps.threadTurns(input.thread.id) : Promise.resolve(undefined),
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
      const run = await deps.manager.again(await existing(id), forceRetrieval ? { forceRetrieval } : {});
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
    'threads/delete': async ({ id }) => {
      for (const runId of await deps.threadRunIds(id)) {
        deps.manager.cancel(runId);
        await deps.deleteRun(runId);
      }
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
