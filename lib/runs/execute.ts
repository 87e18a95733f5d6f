import { createLlmClient } from '../llm/client';
import { executeRun } from '../pipeline/run';
import type { Run } from '../core/run';
import type { Library } from '../retrieval/types';
import type { LlmClient } from '../llm/types';
import type { Settings } from '../settings/schema';
import type { ExecuteContext } from './run-manager';

export type LibraryFactory = (run: Run, settings: Settings, llm: LlmClient) => Library | Promise<Library>;

/** The worker's executor: one LLM client per run over the user's endpoint, the library the
 * factory builds for this run (open tabs + web search), and the pipeline. */
export function createExecutor(makeLibrary: LibraryFactory) {
  return async (run: Run, ctx: ExecuteContext): Promise<Run> => {
    const llm = createLlmClient(ctx.settings.llm);
    return executeRun({
      run,
      llm,
      library: await makeLibrary(run, ctx.settings, llm),
      settings: ctx.settings.pipeline,
      blocked: ctx.blocked,
      signal: ctx.signal,
      emit: ctx.emit,
    });
  };
}
