/** fetch for API calls (the model endpoint, embeddings, every search provider): a redirect is
 * never followed to another origin. fetch's default would re-send the request there, and with it
 * the API key (Authorization, X-Subscription-Token) and, after a 307/308, the whole prompt with
 * the user's tab text. A same-origin redirect is followed by hand where its target can be read
 * (Node); browsers hide a manual redirect's target from extensions too, so there any redirect is
 * refused. Either way the caller gets a RedirectRefused that names what happened. */

const MAX_SAME_ORIGIN_HOPS = 3;

export class RedirectRefused extends Error {
  constructor(
    readonly from: string,
    /** Where the endpoint wanted the request to go, when the runtime says. */
    readonly to: string | undefined,
    readonly status: number | undefined,
  ) {
    super(
      to
        ? `${originOf(from)} answered with a redirect (HTTP ${status ?? 'redirect'}) to ${to}. Ratify does not follow an API endpoint to another address, so the key and the request stay with ${originOf(from)}; put the final address in the settings if it is yours.`
        : `${originOf(from)} answered with a redirect. Ratify does not follow an API endpoint to another address, so the key and the request stay with ${originOf(from)}; put the final address in the settings if it is yours.`,
    );
    this.name = 'RedirectRefused';
  }
}

function originOf(u: string): string {
  try {
    return new URL(u).origin;
  } catch {
    return u;
  }
}

function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** Wraps `base` (default: the global fetch, looked up at call time) so that no request follows a
 * redirect off its origin. */
export function apiFetch(base?: typeof fetch): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const f = base ?? globalThis.fetch;
    let url = urlOf(input);
    let req: RequestInit = { ...init, redirect: 'manual' };
    let target: RequestInfo | URL = input;
    for (let hop = 0; ; hop++) {
      const res = await f(target, req);
      if (res.type === 'opaqueredirect') throw new RedirectRefused(url, undefined, undefined);
      if (res.status < 300 || res.status > 399 || res.status === 304) return res;
      const location = res.headers.get('location');
      if (!location) return res;
      const next = new URL(location, url).href;
      await res.body?.cancel();
      if (new URL(next).origin !== new URL(url).origin || hop >= MAX_SAME_ORIGIN_HOPS) throw new RedirectRefused(url, next, res.status);
      // Same origin: what fetch itself would do (RFC 9110: 303, and 301/302 after POST, turn into
      // a GET without body; 307/308 repeat the request).
      const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && (req.method ?? 'GET').toUpperCase() === 'POST');
      if (toGet) {
        req = { ...req, method: 'GET', body: undefined };
      }
      url = next;
      target = next;
    }
  };
}
