/** The draft call as an object that can be started before anyone listens to it, so that the
 * draft can be sent beside the gate, when the endpoint answers requests in parallel: the draft
 * of the question as typed right behind the gate's request, or, when the gate's decision calls
 * for another (a rewritten question, the page's sources), that one as soon as it is written.
 *
 * The request sent early is kept only if the draft the run
 * then builds is exactly that request (the same messages), as a speculative revision is kept only
 * if its prompt is the one the sequential schedule would send; otherwise it is cancelled and the
 * draft is sent again. A server that refuses the second request in flight (429) has the draft sent
 * again after the gate, and speculation turned off for it (speculate.ts). */
import type { CatalogueEntry } from '../core/passage';
import type { ChatMessage } from '../llm/types';
import type { Library } from '../retrieval/types';
import { libraryCatalogue } from './catalogue';
import type { Ctx } from './context';
import { BufferedCall, type CallCtx } from './buffered-call';
import { draftStage, draftStepsOnly, stage, type DraftOut } from './stages';

export interface DraftRequest {
  messages: ChatMessage[];
  maxTokens: number;
  /** The steps come with their queries (draft-queries.ts); without, the schema sent has none. */
  queries: boolean;
}

function sameRequest(a: DraftRequest, b: DraftRequest): boolean {
  return a.maxTokens === b.maxTokens && a.queries === b.queries && JSON.stringify(a.messages) === JSON.stringify(b.messages);
}

/** One draft request in flight (its replies kept for a listener that comes late). */
export class DraftCall extends BufferedCall<DraftOut> {
  constructor(
    ctx: CallCtx,
    readonly request: DraftRequest,
  ) {
    super(ctx, { ...stage('draft', draftStage, request.queries ? {} : { sent: draftStepsOnly }), messages: request.messages, temperature: 0, maxTokens: request.maxTokens });
  }
}

/** A draft sent beside the gate, from the question as typed. */
export interface EarlyDraft {
  /** The library the catalogue was read from (the gate may point the run at the page instead). */
  readonly library: Library;
  readonly catalogue: Promise<CatalogueEntry[]>;
  /** The call, if it was sent with exactly `request`; otherwise it is cancelled. */
  take(request: DraftRequest): Promise<DraftCall | undefined>;
  cancel(): void;
}

/** Sends the draft `build` makes from the library's catalogue, as soon as that is read; with
 * `after`, read once that has resolved (a request that must reach the server first is being
 * answered; meanwhile more tabs have been read, and the catalogue gives their languages). */
export function startEarlyDraft(ctx: CallCtx & Pick<Ctx, 'library'>, build: (catalogue: CatalogueEntry[]) => DraftRequest, after?: Promise<void>): EarlyDraft {
  let cancelled = false;
  let call: DraftCall | undefined;
  const catalogue = after ? after.then(() => libraryCatalogue(ctx)) : libraryCatalogue(ctx);
  const started = catalogue.then((c) => (cancelled ? undefined : (call = new DraftCall(ctx, build(c)))));
  const cancel = () => {
    cancelled = true;
    call?.cancel();
  };
  return {
    library: ctx.library,
    catalogue,
    async take(request) {
      const c = await started;
      if (c && !cancelled && sameRequest(c.request, request)) return c;
      cancel();
      return undefined;
    },
    cancel,
  };
}
