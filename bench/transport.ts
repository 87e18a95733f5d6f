/** A minimal fetch over node:http with a fresh connection per request, for the benchmark's LLM
 * clients. Why not the global fetch: with ~200 runs streaming at once, undici reuses keep-alive
 * sockets that the fake server (keep-alive 1 s) is closing at that moment, and the call fails
 * with "other side closed". Retrying would add time and calls to the measurement, so instead no
 * socket is ever reused; a local connect costs well under a millisecond. Both pipelines use it. */
import { request } from 'node:http';
import { Readable } from 'node:stream';

function headerRecord(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h).forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

export function freshConnectionFetch(extraHeaders: Record<string, string> = {}): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const signal = init?.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
      const body = typeof init?.body === 'string' ? init.body : undefined;
      const req = request(
        url,
        { method: init?.method ?? 'GET', headers: { ...headerRecord(init?.headers), ...extraHeaders, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, agent: false },
        (res) => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) for (const x of v) headers.append(k, x);
            else if (v !== undefined) headers.set(k, v);
          }
          const status = res.statusCode ?? 500;
          const stream = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(stream, { status, statusText: res.statusMessage, headers }));
        },
      );
      const onAbort = () => req.destroy(new DOMException('Aborted', 'AbortError'));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal?.removeEventListener('abort', onAbort));
      req.on('error', reject);
      req.end(body);
    });
}
