/** One chain's retrievals, memoised by request: a query asked again (a prefetch, a speculative
 * step, the exact step that replaces it) reuses the same result, so passages do not change under
 * a step between the moment its prompt is predicted and the moment it is checked. */
import type { Passage } from '../core/passage';
import { raceAbort, type Ctx } from './context';
import { sameDocument } from '../retrieval/read-policy';
import { toWebQuery, UNKNOWN_ORIGINS } from '../core/flow';
import type { PageContext } from '../core/run';

export class RetrievalCache {
  private memo = new Map<string, Promise<Passage[]>>();

  constructor(
    private readonly ctx: Pick<Ctx, 'library' | 'signal' | 'emit' | 'run' | 'webReady'>,
    /** Verify mode: the page under verification, never evidence for itself. */
    private readonly origin?: PageContext,
  ) {}

  get(query: string, round: number, seed: Passage[], k: number): Promise<Passage[]> {
    // The same query in other words' case or spacing is the same retrieval (claims of one page
    // often share one).
    const key = JSON.stringify([query.toLowerCase().replace(/\s+/g, ' ').trim(), round, round > 1 ? seed.map((p) => p.id) : [], k]);
    let p = this.memo.get(key);
    if (!p) {
      p = this.fetch(query, round, seed, k);
      this.memo.set(key, p);
    }
    return p;
  }

  /** Start a retrieval that a later step will probably need. */
  prefetch(query: string, k: number): void {
    // Whoever needs it later awaits the same promise and sees its failure; a cancelled run's
    // prefetch has no one to tell.
    if (query.trim()) this.get(query, 1, [], k).catch(() => undefined);
  }

  private async fetch(query: string, round: number, seed: Passage[], k: number): Promise<Passage[]> {
    const { ctx } = this;
    // Outside the try: a gate that failed after its decision fails the step (and the run) with
    // its own error, not as an empty retrieval.
    if (ctx.webReady) await raceAbort(ctx.webReady, ctx.signal);
    try {
      // Every query here was written by a call that saw the run's whole context (flow.ts): it
      // searches the web too only when that context is network-safe; otherwise it ranks the
      // open tabs and the pages the run's web plan found, on this computer.
      const web = toWebQuery(query, ctx.run().origins ?? UNKNOWN_ORIGINS);
      const res = await raceAbort(ctx.library.retrieve({ query, k, round, seed, signal: ctx.signal, ...(web ? { web } : {}) }), ctx.signal);
      if (res.sources.length || res.errors.length) ctx.emit({ type: 'library', sources: res.sources, errors: res.errors });
      // The library should already leave the origin out; we do not rely on it.
      const origin = this.origin;
      return origin ? res.passages.filter((p) => !isOrigin(p, origin)) : res.passages;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      // A failing library is reported in the trace; the step goes on without evidence.
      ctx.emit({ type: 'library', sources: [], errors: [{ provider: 'library', message: err instanceof Error ? err.message : String(err) }] });
      return [];
    }
  }
}

export function isOrigin(p: Passage, page: PageContext): boolean {
  return sameDocument(p.url, page.url) || (page.tabId !== undefined && p.tabId === page.tabId);
}
