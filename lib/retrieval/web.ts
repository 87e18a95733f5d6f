/** Fetching a search result page and making it readable through a PageReader. The URL comes from
 * a search result (attacker-chosen), so every hop is checked against the network policy
 * (lib/net/host-policy.ts) and the caller's own rules (excluded domains) before it is requested:
 * redirects are followed by hand, never by fetch. */
import { pageUrlProblem } from '../net/host-policy';
import type { PageReader, ReadablePage } from './page';
import { hashText } from './text';
import { pageFromMarkedText } from './page';

/** Pages larger than this are cut before parsing (a reader on a 20 MB page would stall the run). */
const MAX_CHARS = 3_000_000;
/** Redirects followed per page (browsers allow 20; a result page needs one or two). */
export const MAX_HOPS = 5;

export interface FetchPageDeps {
  fetch: typeof fetch;
  reader?: PageReader;
  signal: AbortSignal;
  /** Why a hop may not be requested (e.g. an excluded domain), checked on every hop. */
  refuse?: (url: URL) => string | undefined;
  /** Pages on this machine and private networks may be fetched (an intranet SearXNG's results). */
  privateNetwork?: boolean;
}

export class RefusedUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedUrl';
  }
}

function check(url: string, deps: FetchPageDeps, hop: number): void {
  const why = pageUrlProblem(url, { privateNetwork: deps.privateNetwork }) ?? deps.refuse?.(new URL(url));
  if (why) throw new RefusedUrl(hop ? `redirected to a refused address (${why})` : `refused address (${why})`);
}

/** GETs `url`, following up to MAX_HOPS redirects itself, each hop checked first. */
async function fetchChecked(url: string, deps: FetchPageDeps): Promise<{ res: Response; url: string }> {
  let current = url;
  for (let hop = 0; ; hop++) {
    check(current, deps, hop);
    // credentials: 'omit' — a result page is fetched as a stranger, never with the user's cookies.
    const res = await deps.fetch(current, { signal: deps.signal, credentials: 'omit', redirect: 'manual', headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.8' } });
    // Browsers hide a manual redirect's target from scripts, extensions included: it cannot be
    // checked, so it is not followed (the result's snippet stands in for the page).
    if (res.type === 'opaqueredirect') throw new RefusedUrl('redirected, and the browser does not say where to; not followed');
    if (res.status < 300 || res.status > 399 || res.status === 304) return { res, url: current };
    const location = res.headers.get('location');
    await res.body?.cancel();
    if (!location) throw new Error(`HTTP ${res.status} without a Location`);
    if (hop >= MAX_HOPS) throw new RefusedUrl(`more than ${MAX_HOPS} redirects`);
    current = new URL(location, current).href;
  }
}

export async function fetchReadable(url: string, deps: FetchPageDeps): Promise<ReadablePage> {
  const { res, url: finalUrl } = await fetchChecked(url, deps);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const type = (res.headers.get('content-type') ?? 'text/html').toLowerCase();
  const body = (await res.text()).slice(0, MAX_CHARS);
  if (type.includes('text/plain')) return pageFromMarkedText(finalUrl, finalUrl, body, hashText(body));
  if (!type.includes('html') && !type.includes('xml')) throw new Error(`not a web page (${type.split(';')[0]})`);
  if (!deps.reader) throw new Error('no page reader');
  const page = await deps.reader.read(body, finalUrl, deps.signal);
  return { ...page, url: finalUrl, hash: hashText(body) };
}
