/** Small URL helpers shared by the tabs reader, the prompts, the panel and the page adapters. */

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
