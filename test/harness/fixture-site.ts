/** Static server for test/fixtures/site: the pages Ratify's tests open as tabs and that search
 * results link to. Extra routes: /slow/<ms>/<path> serves <path> after a delay, /status/<code>
 * answers with that status, and pages a test generates at run time (addPage). */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { clientGone, listen, sendText, sleep } from './http-util.ts';
import { SITE_DIR, fixtureCorpus, fixtureDocs, type FixtureDoc, type SearchDoc } from './fixture-corpus.ts';

export { fixtureDocs, fixtureCorpus, injectionDoc, type FixtureDoc, type SearchDoc } from './fixture-corpus.ts';

export interface FixtureSite {
  /** e.g. http://127.0.0.1:40125 */
  origin: string;
  port: number;
  /** Absolute URL of a path on the site: url('/articles/marie-curie.html'). */
  url(path: string): string;
  /** The searchable articles with absolute URLs on this site. */
  corpus(): SearchDoc[];
  docs: FixtureDoc[];
  /** Paths requested so far (e.g. to assert a result page was fetched). */
  requests: { path: string; time: number; headers: Record<string, string | string[] | undefined> }[];
  /** Serve `body` at `path` (before the files on disk) until the site closes: pages a test
   * generates at run time instead of committing them. */
  addPage(path: string, body: string | Uint8Array, type?: string): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
};

// The copied publisher pages keep their scripts byte for byte; this header keeps them inert (no
// scripts, no network) without editing them. Extension scripts are not subject to page CSP.
const REAL_PAGE_CSP = "script-src 'none'; connect-src 'none'; frame-src 'none'";

export async function startFixtureSite(opts: { port?: number } = {}): Promise<FixtureSite> {
  const requests: FixtureSite['requests'] = [];
  const extra = new Map<string, { body: Buffer; type: string }>();
  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = decodeURIComponent(url.pathname);
    requests.push({ path, time: Date.now(), headers: req.headers });

    const page = extra.get(path);
    if (page) {
      res.writeHead(200, { 'content-type': page.type, 'content-length': String(page.body.length), 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : page.body);
      return;
    }

    const status = /^\/status\/(\d{3})$/.exec(path);
    if (status) return sendText(res, Number(status[1]), `Status ${status[1]}`);

    const slow = /^\/slow\/(\d+)(\/.*)$/.exec(path);
    if (slow) {
      if (!(await sleep(Number(slow[1]), clientGone(res)))) return;
      path = slow[2] ?? '';
    }

    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(SITE_DIR, path));
    if (!file.startsWith(SITE_DIR.endsWith(sep) ? SITE_DIR : SITE_DIR + sep)) return sendText(res, 403, 'Forbidden');
    const info = await stat(file).catch(() => undefined); // missing file: 404 below
    if (!info?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>404 Not found</h1></body></html>');
      return;
    }
    const body = await readFile(file);
    const headers: Record<string, string> = {
      // The HTTP charset wins over <meta charset>: the copied qq page says gb2312 but is UTF-8.
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': String(body.length),
      'cache-control': 'no-store',
    };
    if (path.startsWith('/real/')) headers['content-security-policy'] = REAL_PAGE_CSP;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }, opts.port);

  const docs = fixtureDocs();
  return {
    origin: server.origin,
    port: server.port,
    url: (path) => new URL(path, server.origin).href,
    corpus: () => fixtureCorpus(server.origin, docs),
    docs,
    requests,
    addPage: (path, body, type = 'text/html; charset=utf-8') => {
      extra.set(path, { body: typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body), type });
    },
    close: () => server.close(),
  };
}
