/** Small URL helpers shared by the tabs reader, the prompts, the panel and the page adapters. */

/** A document's identity: host without "www.", path without a trailing slash, the query kept, no
 * fragment. Two addresses with the same key are the same page (lib/retrieval/read-policy.ts). */
export function documentKey(url: string): string {
  try {
    const x = new URL(url);
    const host = x.hostname.toLowerCase().replace(/^www\./, '');
    const path = x.pathname.replace(/\/+$/, '') || '/';
    return `${x.protocol === 'https:' ? 'http:' : x.protocol}//${host}${x.port ? `:${x.port}` : ''}${path}${x.search}`;
  } catch {
    return url.trim().replace(/#.*$/, '').replace(/\/+$/, '');
  }
}

/** The URL without its fragment, so `page#section` and `page` are the same document. */
export function documentUrl(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

/** An address as the model sees it: without query string and fragment, where tokens, session ids
 * and search terms live (`?reset_token=…`); the page is still identified. */
export function promptUrl(url: string): string {
  try {
    const u = new URL(url);
    u.search = '';
    u.hash = '';
    return u.href;
  } catch {
    return url.split(/[?#]/)[0] ?? '';
  }
}
