/** pdf.js for Node (tests, benchmark, `npm run eval`): the legacy build, which runs without a DOM
 * and without a worker thread (pdf.js falls back to running its worker code in-process). */
import type { PdfJs } from './pdf';

let loaded: Promise<PdfJs> | undefined;

export function nodePdfJs(): Promise<PdfJs> {
  loaded ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((m) => m as unknown as PdfJs);
  return loaded;
}
