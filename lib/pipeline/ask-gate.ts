/** The gate of a question, as the run sees it: its decision is shown (and the draft may start) as
 * soon as the model has written it; the web searches it writes last are searched when the call
 * ends. The gate saw only network-safe text (flow.ts gateView), so its searches may go to the
 * web; an unreadable reply searches the question as typed. */
import { isBadOutput } from './chain';
import type { Ctx } from './context';
import { gateView } from '../core/flow';
import { gateQuestion, shouldRetrieve, type GateResult } from './gate';
import type { GateDecision } from '../core/run';
import { searchPlanned } from './web-plan';

export interface GateRun {
  /** The decision, emitted as a `gate` event when it resolves. */
  decision: Promise<GateDecision>;
  /** The web searches have been started (the run's `webPlan` recorded): a retrieval waits for
   * it, so what they find can rank. Rejects with the gate call's own failure. */
  searched: Promise<void>;
}

export function runGate(ctx: Ctx): GateRun {
  const input = ctx.run().input;
  const view = gateView(input, 'ask');
  let shown: GateDecision | undefined;
  let early: (d: GateDecision) => void = () => undefined;
  const decided = new Promise<GateDecision>((resolve) => (early = resolve));
  const show = (d: GateDecision): GateDecision => {
    if (!shown) {
      shown = d;
      ctx.emit({ type: 'gate', decision: d });
      early(d);
    }
    return shown;
  };
  const done = gateQuestion(ctx.llm, input, ctx.settings, { signal: ctx.signal, onUsage: ctx.onUsage, onDecision: show })
    .catch((err: unknown): GateResult => {
      // An unreadable assessment: the question is taken as asked and checked against sources
      // (the web with the question as typed); the gate line says so.
      if (!isBadOutput(err)) throw err;
      const t = ctx.settings.betaThreshold;
      return { decision: { label: 'clear', beta: 0, betaThreshold: t, retrieve: shouldRetrieve(0, t, true), unreadable: true }, search: view.text ? [view.text] : [] };
    })
    .then((res) => {
      const decision = show(res.decision);
      // Searched only when the decision shown retrieves (a repair round may have changed it). The
      // searches themselves already depend on the model's confidence alone (gate.ts searchesWeb).
      const queries = decision.retrieve ? res.search : [];
      ctx.emit({ type: 'web-plan', plan: { queries, origins: view.origins } });
      searchPlanned(ctx);
      return decision;
    });
  const searched = done.then(() => undefined);
  // Whoever awaits `searched` sees the failure; until then it is not unhandled.
  searched.catch(() => undefined);
  return { decision: Promise.race([decided, done]), searched };
}
