/** A structured call that can be sent before anyone listens to it (the draft beside the gate, a
 * direct answer as soon as the gate has decided). Its streamed replies are kept (each is the whole
 * reply so far), so a listener that comes late is given the latest at once and misses nothing. */
import type { JsonRequest } from '../llm/types';
import type { Ctx } from './context';
import type { CallTiming } from './draft-feed';
import { followAbort } from '../core/abort';

export type CallCtx = Pick<Ctx, 'llm' | 'signal' | 'onUsage'>;

export class BufferedCall<T> {
  readonly timing: CallTiming = {};
  readonly result: Promise<T>;
  private latest: unknown;
  private listener?: (partial: unknown) => void;
  private readonly ctrl = new AbortController();

  constructor(ctx: CallCtx, req: Omit<JsonRequest<T>, 'signal' | 'onUsage' | 'onPartial'>) {
    const unfollow = followAbort(ctx.signal, () => this.ctrl.abort(ctx.signal.reason));
    this.timing.sentAt = performance.now();
    this.timing.promptChars = JSON.stringify(req.messages).length;
    this.result = ctx.llm
      .json({
        ...req,
        signal: this.ctrl.signal,
        onUsage: ctx.onUsage,
        onPartial: (p) => {
          this.timing.firstTokenAt ??= performance.now();
          this.latest = p;
          this.listener?.(p);
        },
      })
      .finally(() => {
        unfollow();
        this.timing.endedAt = performance.now();
      });
    // Sent before anyone awaits it: a failure waits for whoever takes the call (or was cancelled).
    this.result.catch(() => undefined);
  }

  listen(fn: (partial: unknown) => void): void {
    this.listener = fn;
    if (this.latest !== undefined) fn(this.latest);
  }

  cancel(): void {
    this.ctrl.abort();
  }
}
