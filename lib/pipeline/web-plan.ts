/** The run's web searches (flow.ts): written by the gate (ask) or the search plan (verify), which
 * saw only network-safe text, recorded in the run as its `webPlan`, and searched as soon as they
 * are known; the pages they find join the library, where every step ranks them locally. A resumed
 * run searches its recorded plan again (the library is new). */
import { toWebQuery, type WebQuery } from '../core/flow';
import type { Ctx } from './context';

export function searchPlanned(ctx: Ctx): void {
  const plan = ctx.run().webPlan;
  if (!plan?.queries.length || !ctx.library.searchWeb) return;
  const queries = plan.queries.map((q) => toWebQuery(q, plan.origins)).filter((q): q is WebQuery => q !== undefined);
  if (!queries.length) return;
  ctx.library
    .searchWeb(queries, ctx.signal)
    .then((r) => {
      if (r.sources.length || r.errors.length) ctx.emit({ type: 'library', sources: r.sources, errors: r.errors });
    })
    // Only a cancel rejects (providers' failures are in the result); the run ends on its own.
    .catch(() => undefined);
}
