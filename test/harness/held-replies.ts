/**
 * Replies held at the fake model until the test releases them: a test sees the requests arrive,
 * acts while their replies are still pending (Cancel, say), and can tell that the client gave up
 * on them (their connections closed). So "it stopped at once" is shown by what happened before the
 * model answered, not by a stopwatch.
 *
 *   const held = holdReplies(scripted, (req) => req.stage === 'revise');
 *   llm.setResponder(held.responder);
 *   await expect.poll(() => held.pending()).toBeGreaterThanOrEqual(3);
 *   … cancel …
 *   await expect.poll(() => held.abandoned()).toBe(held.requests.length);
 *   held.release();
 */
import type { LlmRequest, Responder } from './fake-llm.ts';

export interface HeldReplies {
  responder: Responder;
  /** Every request that was held, in arrival order. */
  requests: LlmRequest[];
  /** Held requests whose reply has not been released and whose client is still waiting. */
  pending(): number;
  /** Held requests whose client closed the connection before the reply was released. */
  abandoned(): number;
  /** Lets every held reply go, and every later one through at once. */
  release(): void;
}

export function holdReplies(responder: Responder, hold: (req: LlmRequest) => boolean): HeldReplies {
  const requests: LlmRequest[] = [];
  let released = false;
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  return {
    requests,
    responder: async (req) => {
      if (!released && hold(req)) {
        requests.push(req);
        await gate;
      }
      return responder(req);
    },
    pending: () => (released ? 0 : requests.filter((r) => !r.signal.aborted).length),
    abandoned: () => requests.filter((r) => r.signal.aborted).length,
    release: () => {
      released = true;
      open();
    },
  };
}
