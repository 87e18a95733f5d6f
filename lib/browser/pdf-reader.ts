/** pdf.js in an extension page with a DOM: Chrome's offscreen document and Firefox's background
 * page. pdf.js and its worker are shipped as files of the extension (`pdfjs/`, copied from
 * pdfjs-dist by wxt.config.ts) and loaded on the first PDF: nothing comes from the network, the
 * worker parses off the page's main thread, and no bundle carries pdf.js until it is needed. */
import { browser } from 'wxt/browser';
import { readPdf, type PdfJs } from '../retrieval/pdf';
import type { ReadablePage } from '../retrieval/page';

/** Where wxt.config.ts puts pdfjs-dist's build/pdf.min.mjs and build/pdf.worker.min.mjs. */
export const PDFJS_DIR = 'pdfjs';

type PdfJsModule = PdfJs & { GlobalWorkerOptions: { workerSrc: string } };
let loaded: Promise<PdfJs> | undefined;

function pdfJs(): Promise<PdfJs> {
  // WXT types getURL by the files of public/; these are copied in by a build hook instead.
  const base = (browser.runtime.getURL as (path: string) => string)(`/${PDFJS_DIR}/`);
  // A fixed path, not a computed URL: the module can only be the extension's own copy (an
  // absolute path resolves against the extension's origin), as a store reviewer can see. (`as
  // string` only keeps TypeScript from looking for the file among the sources.)
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- without `as string` TypeScript resolves the literal as a source module and fails
  loaded ??= (import(/* @vite-ignore */ '/pdfjs/pdf.min.mjs' as string) as Promise<PdfJsModule>).then((m) => {
    m.GlobalWorkerOptions.workerSrc = `${base}pdf.worker.min.mjs`;
    return m;
  });
  return loaded;
}

export async function readPdfInPage(bytes: Uint8Array, url: string, signal?: AbortSignal): Promise<ReadablePage> {
  return readPdf(await pdfJs(), bytes, url, { signal });
}
