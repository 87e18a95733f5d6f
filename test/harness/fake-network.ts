/**
 * A stand-in for the network a result URL may point into: every host name (public, intranet,
 * 169.254.169.254, [::1]…) "resolves" to one local recording server, the way DNS would send the
 * request to whatever machine holds that address. The server logs every request by the URL the
 * client asked for and answers with what the test routed to that URL: a page, or a redirect.
 * Unrouted URLs answer a page whose text names the host ("SECRET of <host>"), so a test can see
 * both whether the request was made and whether that text reached the model.
 *
 *   const net = await startFakeNetwork();
 *   net.route('https://news.example.com/a', { redirect: 'http://169.254.169.254/latest/meta-data' });
 *   createLibrary({ …, fetch: net.fetch });
 */
import { listen, type Listening } from './http-util.ts';

export type Route = { redirect: string; status?: 301 | 302 | 303 | 307 | 308 } | { html: string };

export interface FakeNetwork {
  /** fetch as the extension would call it; the request goes to the recording server. */
  fetch: typeof fetch;
  /** URLs requested, in order (as the client asked for them). */
  requests: string[];
  route(url: string, r: Route): void;
  reset(): void;
  close(): Promise<void>;
}

export const secretOf = (host: string): string => `SECRET of ${host}`;

/** `passthrough`: origins reached directly (the local search fakes the test also uses). */
export async function startFakeNetwork(o: { passthrough?: string[] } = {}): Promise<FakeNetwork> {
  const routes = new Map<string, Route>();
  const requests: string[] = [];
  const server: Listening = await listen((req, res) => {
    const asked = String(req.headers['x-asked-url'] ?? '');
    requests.push(asked);
    const r = routes.get(asked);
    if (r && 'redirect' in r) {
      res.writeHead(r.status ?? 302, { location: r.redirect });
      res.end();
      return;
    }
    const host = new URL(asked).hostname;
    const html = r?.html ?? `<html><head><title>${host}</title></head><body><article><h1>${host}</h1><p>${secretOf(host)}: admin password hunter2, router configuration and internal wiki text about Marie Curie and the Nobel Prize.</p></article></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  /** One request, as the machine holding that address would get it. */
  const once = (u: URL, init: RequestInit | undefined): Promise<Response> => {
    if (o.passthrough?.includes(u.origin)) return fetch(u, { ...init, redirect: 'manual' });
    const headers = new Headers(init?.headers);
    headers.set('x-asked-url', u.href);
    return fetch(`${server.origin}${u.pathname}${u.search}`, { ...init, headers, redirect: 'manual' });
  };
  // Redirects are followed here, through the same "resolver", as fetch's default would (so a
  // client that lets fetch follow them is seen going wherever they point).
  const fetchFn: typeof fetch = async (input, init) => {
    let u = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    for (let hop = 0; ; hop++) {
      const res = await once(u, init);
      const location = res.headers.get('location');
      if (init?.redirect === 'manual' || res.status < 300 || res.status > 399 || !location || hop >= 20) return res;
      u = new URL(location, u);
    }
  };
  return {
    fetch: fetchFn,
    requests,
    route: (url, r) => routes.set(new URL(url).href, r),
    reset: () => {
      routes.clear();
      requests.length = 0;
    },
    close: () => server.close(),
  };
}
