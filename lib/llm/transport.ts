/** What the client's fetch sees before the SDK does: a web page where an API should be, and a
 * server that ignores `stream: true`. */

/** A 200 that is a web page (a captive portal, a wrong URL that lands on a site's home page). */
export class NotAnApiError extends Error {
  constructor(public readonly contentType: string) {
    super('This URL answers with a web page, not an OpenAI-compatible API.');
    this.name = 'NotAnApiError';
  }
}

export interface TransportEvents {
  /** The server answered a streamed request with one JSON body (it does not stream). */
  onSingleBody?: () => void;
}

/** Wraps fetch: a successful answer in HTML becomes NotAnApiError (the SDK would otherwise take
 * the page for a stream that ended early and retry it); a single JSON chat completion sent in
 * reply to a streamed request is turned into the one-event stream it amounts to, so it is used. */
export function apiFetch(base: typeof fetch = globalThis.fetch, events: TransportEvents = {}): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.ok) return res;
    const type = (res.headers.get('content-type') ?? '').toLowerCase();
    if (type.includes('text/html') || type.includes('application/xhtml')) {
      // Nothing of the page is kept: it is not ours to show.
      await res.body?.cancel().catch(() => undefined);
      throw new NotAnApiError(type);
    }
    if (!type.includes('application/json') || !wantsStream(init)) return res;
    const body: unknown = await res.json();
    events.onSingleBody?.();
    return new Response(asEventStream(body), { status: res.status, headers: { 'content-type': 'text/event-stream' } });
  };
}

function wantsStream(init: RequestInit | undefined): boolean {
  if (typeof init?.body !== 'string') return false;
  try {
    return (JSON.parse(init.body) as { stream?: unknown }).stream === true;
  } catch {
    return false; // not a JSON body: not a chat request we made
  }
}

interface Completion {
  id?: string;
  model?: string;
  created?: number;
  choices?: { index?: number; finish_reason?: string | null; message?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null } }[];
  usage?: unknown;
}

/** One chat.completion as the chat.completion.chunk events it would have streamed. */
function asEventStream(body: unknown): string {
  const c = (body ?? {}) as Completion;
  const choice = c.choices?.[0];
  const head = { id: c.id ?? 'single', object: 'chat.completion.chunk', created: c.created ?? 0, model: c.model ?? '' };
  const msg = choice?.message ?? {};
  const delta: Record<string, string> = { role: 'assistant', content: msg.content ?? '' };
  if (msg.reasoning_content) delta.reasoning_content = msg.reasoning_content;
  if (msg.reasoning) delta.reasoning = msg.reasoning;
  // Without a finish_reason the client reports a cut-off answer, which is what a body without
  // choices is.
  const events = [{ ...head, choices: choice ? [{ index: 0, delta, finish_reason: choice.finish_reason ?? 'stop' }] : [], ...(c.usage ? { usage: c.usage } : {}) }];
  return `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
}
