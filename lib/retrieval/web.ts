/** Fetching a search result page and making it readable through a PageReader. */
import type { PageReader, ReadablePage } from './page';
import { hashText } from './text';
import { pageFromMarkedText } from './page';

/** Pages larger than this are cut before parsing (a reader on a 20 MB page would stall the run). */
const MAX_CHARS = 3_000_000;

export async function fetchReadable(url: string, deps: { fetch: typeof fetch; reader?: PageReader; signal: AbortSignal }): Promise<ReadablePage> {
  // credentials: 'omit' — a result page is fetched as a stranger, never with the user's cookies.
  const res = await deps.fetch(url, { signal: deps.signal, credentials: 'omit', redirect: 'follow', headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.8' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const type = (res.headers.get('content-type') ?? 'text/html').toLowerCase();
  const body = (await res.text()).slice(0, MAX_CHARS);
  const finalUrl = res.url || url;
  if (type.includes('text/plain')) return pageFromMarkedText(finalUrl, finalUrl, body, hashText(body));
  if (!type.includes('html') && !type.includes('xml')) throw new Error(`not a web page (${type.split(';')[0]})`);
  if (!deps.reader) throw new Error('no page reader');
  const page = await deps.reader.read(body, finalUrl, deps.signal);
  return { ...page, url: finalUrl, hash: hashText(body) };
}
