/** Small HTTP helpers shared by the harness servers (plain node:http, no framework, so the
 * servers behave byte-for-byte the way we write them). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface Listening {
  server: Server;
  port: number;
  origin: string;
  close(): Promise<void>;
}

/** Start a server on 127.0.0.1 (port 0 = any free port). Handler errors become a 500 so a bug
 * in the harness shows up as a failing request, not as a hung test. */
export async function listen(handler: Handler, port = 0): Promise<Listening> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      }
      res.end(`harness error: ${err instanceof Error ? err.stack : String(err)}`);
    });
  });
  // Keep-alive sockets would keep close() waiting; hanging requests are closed forcibly below.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    origin: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        // closeAllConnections ends requests we deliberately left hanging (hang/stall faults).
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON when it parses, else the raw text (so malformed bodies are still logged). */
export function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Resolves after `ms`, or early (with false) when the signal aborts — so a delayed answer to a
 * client that went away does not write into a closed socket. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    // An infinite delay only ends when the signal aborts.
    const timer = Number.isFinite(ms) ? setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms) : undefined;
    const onAbort = (): void => {
      if (timer) clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Aborts when the client goes away before we finished answering. */
export function clientGone(res: ServerResponse): AbortSignal {
  const ctrl = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) ctrl.abort();
  });
  return ctrl.signal;
}

/** Never resolves on its own; resolves when the client disconnects (or the server closes). */
export function waitForClientGone(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export function headerString(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
