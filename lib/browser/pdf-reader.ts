/** pdf.js in an extension page with a DOM: Chrome's offscreen document and Firefox's background
 * page. Its worker script is bundled as a file of the extension (Vite's `?url` import emits it),
 * so PDFs are parsed off the page's main thread and nothing is loaded from the network. Imported
 * only by those two contexts: the Chrome worker's bundle never carries pdf.js. */
import { readPdf, type PdfJs } from '../retrieval/pdf';
import type { ReadablePage } from '../retrieval/page';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

let loaded: Promise<PdfJs> | undefined;

function pdfJs(): Promise<PdfJs> {
  loaded ??= import('pdfjs-dist').then((m) => {
    m.GlobalWorkerOptions.workerSrc = workerUrl;
    return m as unknown as PdfJs;
  });
  return loaded;
}

export async function readPdfInPage(bytes: Uint8Array, url: string, signal?: AbortSignal): Promise<ReadablePage> {
  return readPdf(await pdfJs(), bytes, url, { signal });
}
