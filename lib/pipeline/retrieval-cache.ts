/** One chain's retrievals, memoised by request: a query asked again (a prefetch, a speculative
 * step, the exact step that replaces it) reuses the same result, so passages do not change under
 * a step between the moment its prompt is predicted and the moment it is checked. */
import type { Passage } from '../retrieval/types';
import { raceAbort, type Ctx } from './context';
import { sameDocument } from './refine';
import type { PageContext } from './types';

export class RetrievalCache {
  private memo = new Map<string, Promise<Passage[]>>();

  constructor(
    private readonly ctx: Pick<Ctx, 'library' | 'signal' | 'emit' | 'guard'>,
    /** Verify mode: the page under verification, never evidence for itself. */
    private readonly origin?: PageContext,
    private readonly opts: {
      /** Page check: a round after the first was asked for by a call that read the open tabs, so
       * it searches them only, never the web. */
      webRoundOneOnly?: boolean;
    } = {},
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
    try {
      // Open tabs are searched with the query as written; the web only gets what the guard lets go.
      const web = round > 1 && this.opts.webRoundOneOnly ? { query: '', withheld: 0 } : ctx.guard?.check(query);
      if (web?.withheld) {
        const message = `${web.withheld} term${web.withheld > 1 ? 's' : ''} of a search query stayed on this computer: they may carry text from your open tabs. Sent to the web: "${web.query}"`;
        ctx.emit({ type: 'library', sources: [], errors: [{ provider: 'privacy', message }] });
      }
      const res = await raceAbort(ctx.library.retrieve({ query, k, round, seed, signal: ctx.signal, ...(web ? { webQuery: web.query } : {}) }), ctx.signal);
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
