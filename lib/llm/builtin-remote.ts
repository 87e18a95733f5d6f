/** Chrome's Prompt API used from a context that lacks it (the MV3 worker) through one that has
 * it (the offscreen document), over a message port. `serveLanguageModel` runs beside the real
 * `LanguageModel`; `remoteLanguageModel` is a `LanguageModelStatic` that forwards to it. Calls,
 * download progress, streamed chunks, aborts and session ends travel as small JSON messages (a
 * runtime Port carries JSON only), so errors are rebuilt on this side as DOMExceptions with the
 * same name: the client tells a full context window (QuotaExceededError) from an abort by name. */
import { measureUsage, type Availability, type LanguageModelSession, type LanguageModelStatic, type LanguageOptions } from './builtin-availability';
import type { ChatMessage } from './types';
import { followAbort } from '../core/abort';

/** The part of a runtime Port both ends use (browser.runtime.Port satisfies it). */
export interface PortLike {
  postMessage(message: unknown): void;
  onMessage: { addListener(f: (message: unknown) => void): void };
  onDisconnect: { addListener(f: () => void): void };
  disconnect(): void;
}

export const LANGUAGE_MODEL_PORT = 'ratify-language-model';

type CreateOptions = LanguageOptions & { initialPrompts?: ChatMessage[] };
type PromptOpts = { responseConstraint?: Record<string, unknown> };

export type LmRequest =
  | { id: number; op: 'availability'; opts?: LanguageOptions }
  | { id: number; op: 'create'; opts: CreateOptions; monitor: boolean }
  | { id: number; op: 'prompt' | 'stream' | 'measure'; session: number; input: string; opts: PromptOpts }
  | { op: 'abort'; id: number }
  | { op: 'destroy'; session: number };

/** A request that gets replies (abort and destroy do not). */
type LmCall = Exclude<LmRequest, { op: 'abort' | 'destroy' }>;

/** What a session looks like from the other side, sent after create and after each prompt. */
interface SessionInfo {
  contextWindow?: number;
  inputQuota?: number;
  contextUsage?: number;
  inputUsage?: number;
  measures: boolean;
}

export type LmReply =
  | { id: number; ok: true; value?: unknown; info?: SessionInfo; session?: number }
  | { id: number; ok: false; error: { name: string; message: string } }
  | { id: number; progress: number }
  | { id: number; chunk: string };

function infoOf(s: LanguageModelSession): SessionInfo {
  return { contextWindow: s.contextWindow, inputQuota: s.inputQuota, contextUsage: s.contextUsage, inputUsage: s.inputUsage, measures: !!(s.measureContextUsage ?? s.measureInputUsage) };
}

function errorOf(e: unknown): { name: string; message: string } {
  return e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
}

/** Answers one port's requests with `lm` (undefined: this context has no Prompt API either). Its
 * sessions end when the port does. */
export function serveLanguageModel(lm: LanguageModelStatic | undefined, port: PortLike): void {
  const sessions = new Map<number, LanguageModelSession>();
  const running = new Map<number, AbortController>();
  let nextSession = 1;
  let open = true;
  const post = (r: LmReply) => {
    if (!open) return;
    try {
      port.postMessage(r);
    } catch {
      open = false; // the port closed before its disconnect event arrived: nobody is left to tell
    }
  };
  const session = (n: number) => {
    const s = sessions.get(n);
    if (!s) throw new DOMException('The built-in model session has ended.', 'InvalidStateError');
    return s;
  };

  async function handle(req: LmCall, signal: AbortSignal): Promise<void> {
    if (req.op === 'availability') return post({ id: req.id, ok: true, value: lm ? await lm.availability(req.opts) : 'unavailable' });
    if (req.op === 'create') {
      if (!lm) throw new DOMException('This browser has no built-in model.', 'NotSupportedError');
      const s = await lm.create({
        ...req.opts,
        signal,
        monitor: req.monitor ? (m) => m.addEventListener('downloadprogress', (e) => post({ id: req.id, progress: e.loaded })) : undefined,
      });
      if (signal.aborted || !open) {
        s.destroy();
        throw new DOMException('Aborted.', 'AbortError');
      }
      const n = nextSession++;
      sessions.set(n, s);
      return post({ id: req.id, ok: true, session: n, info: infoOf(s) });
    }
    const s = session(req.session);
    const opts = { ...req.opts, signal };
    if (req.op === 'measure') {
      const value = await measureUsage(s, req.input, opts);
      if (value === undefined) throw new DOMException('This model cannot measure its input.', 'NotSupportedError');
      return post({ id: req.id, ok: true, value });
    }
    if (req.op === 'prompt') return post({ id: req.id, ok: true, value: await s.prompt(req.input, opts), info: infoOf(s) });
    const reader = s.promptStreaming(req.input, opts).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      post({ id: req.id, chunk: value });
    }
    post({ id: req.id, ok: true, info: infoOf(s) });
  }

  port.onMessage.addListener((m) => {
    const req = m as LmRequest;
    if (req.op === 'abort') return running.get(req.id)?.abort(new DOMException('Aborted.', 'AbortError'));
    if (req.op === 'destroy') {
      sessions.get(req.session)?.destroy();
      sessions.delete(req.session);
      return;
    }
    const ac = new AbortController();
    running.set(req.id, ac);
    handle(req, ac.signal)
      .catch((e: unknown) => post({ id: req.id, ok: false, error: errorOf(e) }))
      .finally(() => running.delete(req.id));
  });
  port.onDisconnect.addListener(() => {
    open = false;
    running.forEach((ac) => ac.abort(new DOMException('The caller went away.', 'AbortError')));
    sessions.forEach((s) => s.destroy());
    sessions.clear();
  });
}

interface Pending {
  onReply(r: LmReply): void;
  onGone(e: Error): void;
}

const rebuild = (e: { name: string; message: string }) => new DOMException(e.message, e.name);
const abortError = () => new DOMException('Aborted.', 'AbortError');

/** A `LanguageModel` that runs at the other end of `connect()`'s port, connected on first use and
 * again after the other end went away. */
export function remoteLanguageModel(connect: () => Promise<PortLike>): LanguageModelStatic {
  const remote = new RemotePort(connect);
  return {
    async availability(opts) {
      return (await remote.once<Availability>((id) => ({ id, op: 'availability', opts }), undefined)).value as Availability;
    },
    async create(opts = {}) {
      const { signal, monitor, ...rest } = opts;
      const listeners: ((e: { loaded: number }) => void)[] = [];
      monitor?.({ addEventListener: (_type, f) => listeners.push(f) });
      const r = await remote.once((id) => ({ id, op: 'create', opts: rest, monitor: !!monitor }), signal, (loaded) => listeners.forEach((f) => f({ loaded })));
      return remoteSession(remote, r.session as number, r.info as SessionInfo);
    },
  };
}

type Answered<T> = Extract<LmReply, { ok: true }> & { value?: T };

/** The port to the other end, connected on first use and again after the other end went away,
 * and the requests waiting on it. */
class RemotePort {
  private port: Promise<PortLike> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly connect: () => Promise<PortLike>) {}

  private connected(): Promise<PortLike> {
    this.port ??= this.connect().then(
      (p) => {
        p.onMessage.addListener((m) => {
          const r = m as LmReply;
          this.pending.get(r.id)?.onReply(r);
        });
        p.onDisconnect.addListener(() => this.gone());
        return p;
      },
      (e: unknown) => {
        this.port = undefined;
        throw e;
      },
    );
    return this.port;
  }

  /** The other end went away: every request waiting on it fails. */
  private gone(): void {
    this.port = undefined;
    const gone = new Error("Chrome's built-in model stopped answering: the offscreen document that runs it closed.");
    const all = [...this.pending.values()];
    this.pending.clear();
    all.forEach((x) => x.onGone(gone));
  }

  /** Sends one request; `onReply` handles its replies until the returned `stop` ends it (and,
   * with `remote`, stops it at the other end too). */
  async call(make: (id: number) => LmCall, signal: AbortSignal | undefined, handlers: Pending): Promise<(remote: boolean) => void> {
    if (signal?.aborted) throw abortError();
    const p = await this.connected();
    const id = this.nextId++;
    let unfollow = () => {};
    const settle = () => {
      this.pending.delete(id);
      unfollow();
    };
    const stop = (remote: boolean) => {
      if (!this.pending.has(id)) return;
      settle();
      if (!remote) return;
      try {
        p.postMessage({ op: 'abort', id } satisfies LmRequest);
      } catch {
        // The port is closing: the other end stops everything of ours on its disconnect event.
      }
    };
    const onAbort = () => {
      if (!this.pending.has(id)) return;
      stop(true);
      handlers.onGone(abortError());
    };
    this.pending.set(id, {
      onReply: (r) => handlers.onReply(r),
      onGone: (e) => {
        settle();
        handlers.onGone(e);
      },
    });
    // Cancelled while connecting: stopped at once, never sent.
    unfollow = followAbort(signal, onAbort);
    if (this.pending.has(id)) p.postMessage(make(id));
    return stop;
  }

  /** A request answered once. */
  once<T>(make: (id: number) => LmCall, signal: AbortSignal | undefined, onProgress?: (loaded: number) => void): Promise<Answered<T>> {
    return new Promise((resolve, reject) => {
      let stop = (_remote: boolean) => {};
      this.call(make, signal, {
        onReply: (r) => {
          if ('progress' in r) return onProgress?.(r.progress);
          if (!('ok' in r)) return;
          stop(false);
          if (r.ok) resolve(r as Answered<T>);
          else reject(rebuild(r.error));
        },
        onGone: reject,
      }).then((s) => (stop = s), reject);
    });
  }

  /** A message with no reply, if the port is (still) there. */
  tell(message: LmRequest): void {
    // A port already gone took what the message was about (a session) with it.
    void this.port?.then((p) => p.postMessage(message)).catch(() => undefined);
  }
}

/** A session at the other end (number `n`), as it last described itself. */
function remoteSession(remote: RemotePort, n: number, first: SessionInfo): LanguageModelSession {
  let info = first;
  let ended = false;
  const update = (i: SessionInfo | undefined) => {
    if (i) info = i;
  };
  const opts = (o?: PromptOpts) => ({ responseConstraint: o?.responseConstraint });
  const measure = async (input: string, o?: { signal?: AbortSignal } & PromptOpts) => (await remote.once<number>((id) => ({ id, op: 'measure', session: n, input, opts: opts(o) }), o?.signal)).value as number;
  return {
    get contextWindow() {
      return info.contextWindow;
    },
    get inputQuota() {
      return info.inputQuota;
    },
    get contextUsage() {
      return info.contextUsage;
    },
    get inputUsage() {
      return info.inputUsage;
    },
    ...(first.measures ? { measureContextUsage: measure } : {}),
    async prompt(input, o) {
      const r = await remote.once<string>((id) => ({ id, op: 'prompt', session: n, input, opts: opts(o) }), o?.signal);
      update(r.info);
      return r.value as string;
    },
    promptStreaming: (input, o) => streamFrom(remote, (id) => ({ id, op: 'stream', session: n, input, opts: opts(o) }), o?.signal, update),
    destroy() {
      if (ended) return;
      ended = true;
      remote.tell({ op: 'destroy', session: n });
    },
  };
}

/** A streamed prompt's chunks as they arrive; the session's description comes with its end. */
function streamFrom(remote: RemotePort, make: (id: number) => LmCall, signal: AbortSignal | undefined, update: (i: SessionInfo | undefined) => void): ReadableStream<string> {
  let stop = (_remote: boolean) => {};
  return new ReadableStream<string>({
    start: (c) => {
      remote
        .call(make, signal, {
          onReply: (r) => {
            if ('chunk' in r) return c.enqueue(r.chunk);
            if (!('ok' in r)) return;
            stop(false);
            if (!r.ok) return c.error(rebuild(r.error));
            update(r.info);
            c.close();
          },
          onGone: (e) => c.error(e),
        })
        .then(
          (s) => (stop = s),
          (e: unknown) => c.error(e),
        );
    },
    // The reader gave up: the model stops too.
    cancel: () => stop(true),
  });
}
