/** A server that answers one request at a time, in front of `target`:
 * - 'queue': as a single-slot Ollama, llama.cpp or LM Studio instance does, requests are
 *   forwarded in arrival order and each waits for the one before it to finish (its whole stream);
 * - 'reject': as a provider with a concurrency limit of one does, a request that arrives while
 *   another is answered gets 429 with retry-after, in OpenAI's error format. */
import { request } from 'node:http';
import { listen } from './http-util.ts';

export interface QueueingProxy {
  /** Base URL to configure instead of the target's (same path). */
  baseURL: string;
  /** Requests forwarded so far, and the most that were ever in flight at once (always ≤ 1). */
  stats(): { forwarded: number; maxInFlight: number };
  close(): Promise<void>;
}

export async function startQueueingProxy(targetBaseURL: string, mode: 'queue' | 'reject' = 'queue'): Promise<QueueingProxy> {
  const target = new URL(targetBaseURL);
  let chain: Promise<void> = Promise.resolve();
  let forwarded = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = await listen(async (req, res) => {
    const body: Buffer[] = [];
    for await (const c of req) body.push(c as Buffer);
    if (mode === 'reject' && inFlight > 0) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached: 1 concurrent request allowed. Please try again in 1s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } }));
      return;
    }
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const turn = chain;
    chain = chain.then(() => mine);
    await turn;
    if (res.destroyed) return release();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    forwarded++;
    const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      up.on('end', done);
      up.on('error', done);
    });
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      inFlight--;
      release();
    };
    // The client gave up: stop the upstream request and let the next one go.
    res.on('close', () => {
      upstream.destroy();
      done();
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    upstream.end(Buffer.concat(body));
  });
  const path = target.pathname.replace(/\/+$/, '');
  return { baseURL: `${server.origin}${path}`, stats: () => ({ forwarded, maxInFlight }), close: () => server.close() };
}
