/** The draft's steps as they stream, so that a step can be revised before the draft has ended
 * (speculate.ts). A step's text is fed once complete (its query has started), its query once the
 * next step has started. A step can be revised early once its query and the next step's text are
 * in (its lean prompt shows the next step's draft; chain.ts): it is then known not to be the last,
 * which writes the answer and is revised once the draft is whole. What is fed is provisional: the
 * validated reply decides, and a revision made from fed steps is kept only if its prompt equals
 * the one the whole draft gives. */
import type { Run } from '../core/run';
import { applyEvent } from './run-state';

/** When a request was sent, said its first word and ended: how a server that queues parallel
 * requests is told apart (speculate.ts). */
export interface CallTiming {
  sentAt?: number;
  /** How long its prompt was (characters): a longer prompt takes longer to read before the first
   * word, queue or no queue. */
  promptChars?: number;
  firstTokenAt?: number;
  endedAt?: number;
  failed?: unknown;
}

export interface FedStep {
  text: string;
  query?: string;
}

export class DraftFeed {
  readonly steps: FedStep[] = [];
  done = false;
  failed = false;
  /** A step the reply would not keep (no text) was seen: nothing after it is fed. */
  private closed = false;
  private version = 0;
  /** The draft call's own timing. */
  readonly call: CallTiming = {};
  /** Resolves once the draft's steps are in the run; rejects if the draft failed. */
  readonly ended: Promise<void>;
  private resolve!: () => void;
  private reject!: (err: unknown) => void;
  private listeners = new Set<() => void>();
  private cache?: { run: Run; version: number; view: Run };

  /** `base`: the run index of the draft's first step. */
  constructor(readonly base: number) {
    this.ended = new Promise<void>((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
    // Whoever awaits it sees the failure; the draft reports it to the run.
    this.ended.catch(() => undefined);
  }

  /** What the draft has written so far: each step's text once complete (else undefined), and the
   * queries that are complete, in order. */
  written(texts: (string | undefined)[], queries: string[]): void {
    if (this.done || this.closed) return;
    const before = this.version;
    // A stream that started again (a cut-off draft retried) may write other steps: once what it
    // writes contradicts what was fed, nothing more is fed, and the whole draft decides (the
    // revisions started on the first attempt will not match it).
    const contradicts = this.steps.some((s, i) => (texts[i] !== undefined && texts[i] !== s.text) || (queries[i] !== undefined && s.query !== undefined && queries[i] !== s.query));
    if (contradicts) {
      this.closed = true;
      return;
    }
    for (let i = this.steps.length; i < texts.length && !this.closed; i++) {
      const text = texts[i];
      if (text === undefined) break;
      if (!text) {
        this.closed = true;
        break;
      }
      this.steps.push({ text });
      this.version++;
    }
    queries.slice(0, this.steps.length).forEach((q, i) => {
      const s = this.steps[i] as FedStep;
      if (s.query === undefined) {
        s.query = q;
        this.version++;
      }
    });
    if (this.version !== before) this.notify();
  }

  /** How many steps, from the first, can be revised now: their query and the next step's text are in. */
  ready(): number {
    let n = 0;
    while (n + 1 < this.steps.length && this.steps[n]?.query !== undefined) n++;
    return n;
  }

  /** The draft's steps and queries are in the run: listeners run before anyone awaiting `ended`. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.notify();
    this.resolve();
  }

  fail(err: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failed = true;
    this.notify();
    this.reject(err);
  }

  listen(f: () => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  /** `run` with the steps fed so far, as the draft event and its queries will record them. */
  provisional(run: Run): Run {
    const c = this.cache;
    if (c && c.run === run && c.version === this.version) return c.view;
    let view = applyEvent(run, { type: 'draft', steps: this.steps.map((s, i) => ({ text: s.text, index: this.base + i })), append: true }, run.updatedAt);
    this.steps.forEach((s, i) => s.query !== undefined && (view = applyEvent(view, { type: 'query', index: this.base + i, round: 1, query: s.query }, run.updatedAt)));
    this.cache = { run, version: this.version, view };
    return view;
  }

  private notify(): void {
    for (const f of [...this.listeners]) f();
  }
}

/** `view` with the run's steps of a chain that it lacks (those the draft wrote after the view was
 * made), with their planned queries. */
export function withDraftedSteps(view: Run, run: Run, part: number | undefined): Run {
  const have = new Set(view.steps.map((s) => s.index));
  const missing = run.steps.filter((s) => s.part === part && !have.has(s.index));
  if (!missing.length) return view;
  let v = applyEvent(view, { type: 'draft', steps: missing.map((s) => ({ text: s.draft, part: s.part, index: s.index })), append: true }, view.updatedAt);
  for (const s of missing) for (const q of s.queries) if (q.round === 1) v = applyEvent(v, { type: 'query', index: s.index, round: 1, query: q.query }, view.updatedAt);
  return v;
}
