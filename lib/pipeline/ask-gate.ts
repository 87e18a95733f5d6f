/** The gate of a question, as the run sees it: its decision is shown as soon as the model has
 * written it (and the draft it calls for may be sent then, ask.ts); the web searches it writes
 * last start when the call ends. The gate saw only network-safe text (flow.ts gateView), so its
 * searches may go to the web; an unreadable reply searches the question as typed. */
import { isBadOutput } from './chain';
import type { Ctx } from './context';
import { gateView } from '../core/flow';
import { gateQuestion, shouldRetrieve, type GateResult } from './gate';
import type { GateDecision } from '../core/run';
import { searchPlanned } from './web-plan';

/** Resolves with the decision once the call has ended and its web searches have started;
 * `onDecision` hears it as soon as it is shown, `onBegun` as the model's reply begins. */
export function runGate(ctx: Ctx, onDecision?: (d: GateDecision) => void, onBegun?: () => void): Promise<GateDecision> {
  const input = ctx.run().input;
  const view = gateView(input, 'ask');
  let shown: GateDecision | undefined;
  const show = (d: GateDecision): GateDecision => {
    if (!shown) {
      shown = { ...d, origins: view.origins };
      ctx.emit({ type: 'gate', decision: shown });
      onDecision?.(shown);
    }
    return shown;
  };
  return gateQuestion(ctx.llm, input, ctx.settings, { signal: ctx.signal, onUsage: ctx.onUsage, onDecision: show, onBegun })
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
}
