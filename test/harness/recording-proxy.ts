/**
 * A recording HTTP proxy for network-egress tests: launch the browser with
 * `--proxy-server=http://127.0.0.1:<port>` and `--proxy-bypass-list=<-loopback>` and every request
 * it makes (pages, extension worker, offscreen document, the browser itself) passes through here
 * and is logged: method, host, port, path, headers and body.
 *
 * Only local targets are forwarded: 127.0.0.1 / localhost, and `*.test` names, which the e2e
 * launch maps to 127.0.0.1 (--host-resolver-rules; with a proxy the proxy resolves names, so the
 * mapping is repeated here). Anything else is answered 502 without leaving the machine, and
 * CONNECT (https, websockets over TLS) is refused with 502: the log is the evidence, whether or
 * not a connection could have succeeded.
 *
 *   const proxy = await startRecordingProxy();
 *   … launch with proxy.chromiumArgs() …
 *   expect(proxy.requests.map((r) => r.host)).not.toContain('tracker.test');
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Lower-case host name as the browser asked for it (e.g. "127.0.0.1", "tracker.test"). */
  host: string;
  port: number;
  /** Path and query ("/v1/chat/completions?x=1"); "" for CONNECT. */
  path: string;
  /** "http://host:port/path" or "connect://host:port". */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** True when it was passed on to a local server; false when answered 502 here. */
  forwarded: boolean;
  time: number;
}

export interface RecordingProxy {
  port: number;
  requests: ProxiedRequest[];
  /** Chromium switches that send all traffic, loopback included, through this proxy. */
  chromiumArgs(): string[];
  close(): Promise<void>;
}

/** Names that resolve to this machine in the e2e browser. */
export function isLocalTarget(host: string): boolean {
  const h = host.toLowerCase();
  return h === '127.0.0.1' || h === 'localhost' || h === '[::1]' || h === '::1' || h.endsWith('.test');
}

export async function startRecordingProxy(opts: { port?: number } = {}): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    let target: URL;
    try {
      // A proxied request carries the absolute URL in its request line.
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('recording proxy: absolute URL expected');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
      const host = target.hostname.toLowerCase();
      const forwarded = target.protocol === 'http:' && isLocalTarget(host);
      requests.push({
        method: req.method ?? 'GET',
        host,
        port,
        path: `${target.pathname}${target.search}`,
        url: `${target.protocol}//${host}:${port}${target.pathname}${target.search}`,
        headers: req.headers,
        body: body.toString('utf8'),
        forwarded,
        time: Date.now(),
      });
      if (!forwarded) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`recording proxy: ${host} is not a local test host`);
        return;
      }
      const headers = { ...req.headers };
      delete headers['proxy-connection'];
      delete headers['proxy-authorization'];
      const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path: `${target.pathname}${target.search}`, headers, agent: false }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`recording proxy: ${err.message}`);
      });
      // The browser gave up (cancel, timeout): let the server see its client go, as without a proxy.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(body);
    });
  };

  const server = createServer(onRequest);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const [host = '', port = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    requests.push({ method: 'CONNECT', host: host.toLowerCase(), port: Number(port), path: '', url: `connect://${host.toLowerCase()}:${port}`, headers: req.headers, body: '', forwarded: false, time: Date.now() });
    socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    let host = '';
    let port = 80;
    let path = req.url ?? '';
    try {
      const u = new URL(req.url ?? '');
      host = u.hostname.toLowerCase();
      port = Number(u.port || 80);
      path = `${u.pathname}${u.search}`;
    } catch {
      /* logged as is */
    }
    requests.push({ method: `${req.method ?? 'GET'} (upgrade)`, host, port, path, url: `ws://${host}:${port}${path}`, headers: req.headers, body: '', forwarded: false, time: Date.now() });
    socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    chromiumArgs: () => [`--proxy-server=http://127.0.0.1:${port}`, '--proxy-bypass-list=<-loopback>'],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      }),
  };
}
