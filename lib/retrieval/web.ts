/** Fetching a page and making it readable through a PageReader: search results (HTML, plain text,
 * PDF) and the PDFs open in tabs. Every fetch Ratify makes of a page goes through here. A result's
 * URL is attacker-chosen, so every hop is checked against the network policy
 * (lib/net/host-policy.ts) and the caller's own rules (excluded domains) before it is requested:
 * redirects are followed by hand, never by fetch. */
import { pageUrlProblem } from '../net/host-policy';
import type { PageReader, ReadablePage } from './page';
import { hashText } from '../core/text';
import { READER_RULES } from './reader-rules';
import { pageFromMarkedText } from './page';
import { isPdfType, isPdfUrl } from './pdf';
import type { TabRead } from './tabs';

/** Pages larger than this are cut before parsing (a reader on a 20 MB page would stall the run). */
const MAX_CHARS = 3_000_000;
/** Redirects followed per page (browsers allow 20; a result page needs one or two). */
export const MAX_HOPS = 5;
/** PDFs larger than this are not read (their text would be cut at MAX_SOURCE_CHARS anyway). */
const MAX_PDF_BYTES = 40_000_000;

export interface FetchPageDeps {
  fetch: typeof fetch;
  reader?: PageReader;
  signal: AbortSignal;
  /** Why a hop may not be requested (e.g. an excluded domain), checked on every hop. */
  refuse?: (url: URL) => string | undefined;
  /** Pages on this machine and private networks may be fetched (an intranet SearXNG's results). */
  privateNetwork?: boolean;
  /** 'pdf': the caller expects a PDF (a tab showing one); anything else is an error, and its
   * body is not downloaded. */
  only?: 'pdf';
  /** Search results are fetched as a stranger ('omit', the default). A PDF open in a tab is
   * fetched as the tab loaded it ('include'), so a PDF behind the user's login reads the same. */
  credentials?: RequestCredentials;
}
/** The former name, kept for the PDF readers. */
export type FetchReadableOptions = FetchPageDeps;

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
async function fetchChecked(url: string, deps: FetchPageDeps, accept: string): Promise<{ res: Response; url: string }> {
  let current = url;
  for (let hop = 0; ; hop++) {
    check(current, deps, hop);
    const res = await deps.fetch(current, { signal: deps.signal, credentials: deps.credentials ?? 'omit', redirect: 'manual', headers: { accept } });
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

async function open(url: string, deps: FetchPageDeps): Promise<{ res: Response; type: string; finalUrl: string; pdf: boolean }> {
  const accept = deps.only === 'pdf' ? 'application/pdf' : 'text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8';
  const { res, url: finalUrl } = await fetchChecked(url, deps, accept);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const type = (res.headers.get('content-type') ?? 'text/html').toLowerCase();
  // Servers often send PDFs as application/octet-stream; the address then says what it is.
  const pdf = isPdfType(type) || (type.startsWith('application/octet-stream') && isPdfUrl(finalUrl));
  if (!pdf && deps.only === 'pdf') {
    // Only the headers were needed to know; the body is left unread.
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`not a PDF (${type.split(';')[0]})`);
  }
  return { res, type, finalUrl, pdf };
}

/** A PDF (an open tab's): unchanged when its bytes hash to `knownHash`, so pdf.js does not parse
 * the same file again for every question; else read by page. */
export async function fetchPdf(url: string, deps: Omit<FetchReadableOptions, 'only'> & { knownHash?: string }): Promise<TabRead> {
  const { res, finalUrl } = await open(url, { ...deps, only: 'pdf' });
  const bytes = await pdfBytes(res, deps);
  const hash = hashBytes(bytes);
  if (deps.knownHash === hash) return { kind: 'unchanged', hash };
  return { kind: 'page', page: await readPdfBytes(bytes, hash, finalUrl, deps) };
}

export async function fetchReadable(url: string, deps: FetchReadableOptions): Promise<ReadablePage> {
  const { res, type, finalUrl, pdf } = await open(url, deps);
  if (pdf) {
    const bytes = await pdfBytes(res, deps);
    return readPdfBytes(bytes, hashBytes(bytes), finalUrl, deps);
  }
  const body = (await res.text()).slice(0, MAX_CHARS);
  if (type.includes('text/plain')) return pageFromMarkedText(finalUrl, finalUrl, body, hashText(body));
  if (!type.includes('html') && !type.includes('xml')) throw new Error(`not a web page (${type.split(';')[0]})`);
  if (!deps.reader) throw new Error('no page reader');
  const page = await deps.reader.read(body, finalUrl, deps.signal);
  return { ...page, url: finalUrl, hash: hashText(body) };
}

async function pdfBytes(res: Response, deps: Pick<FetchReadableOptions, 'reader'>): Promise<Uint8Array> {
  const size = Number(res.headers.get('content-length') ?? 0);
  if (size > MAX_PDF_BYTES || !deps.reader?.readPdf) {
    await res.body?.cancel().catch(() => undefined); // not going to be read
    if (size > MAX_PDF_BYTES) throw new Error(`PDF too large (${Math.round(size / 1e6)} MB)`);
    throw new Error('no PDF reader');
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_PDF_BYTES) throw new Error(`PDF too large (${Math.round(bytes.length / 1e6)} MB)`);
  return bytes;
}

async function readPdfBytes(bytes: Uint8Array, hash: string, url: string, deps: Pick<FetchReadableOptions, 'reader' | 'signal'>): Promise<ReadablePage> {
  if (!deps.reader?.readPdf) throw new Error('no PDF reader');
  const page = await deps.reader.readPdf(bytes, url, deps.signal);
  return { ...page, url, hash };
}

/** FNV-1a over the file's bytes (the cache key of a PDF's text: a changed file, or changed reader
 * rules, get a new one). */
function hashBytes(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] ?? 0), 0x01000193);
  return `pdf:${READER_RULES}:${bytes.length}:${(h >>> 0).toString(16).padStart(8, '0')}`;
}
