/** PageReader for Node (tests, benchmark, CLI): linkedom gives the DOM that extractReadable needs;
 * PDFs are read with pdf.js's legacy build. */
import { parseHTML } from 'linkedom';
import { extractReadable } from './extract';
import { createStaticHiddenChecks } from './static-hidden';
import type { PageReader, ReadablePage } from './page';
import { readPdf } from './pdf';
import { nodePdfJs } from './pdf-node';
import { hashText } from '../core/text';

function readHtml(html: string, url: string): ReadablePage {
  // linkedom's types are its own DOM classes; they implement the parts of Document used here.
  const { document } = parseHTML(html) as unknown as { document: Document };
  // The same layout-free filter as the offscreen document (dom-reader.ts).
  const checks = createStaticHiddenChecks(document);
  return extractReadable(document, url, { hash: hashText(html), isHidden: checks.isHidden, isTextHidden: checks.isTextHidden });
}

export function createNodePageReader(): PageReader {
  return {
    // The work is synchronous; a throw still arrives as a rejection, as from any reader.
    read: (html, url) => new Promise((resolve) => resolve(readHtml(html, url))),
    async readPdf(bytes, url, signal) {
      return readPdf(await nodePdfJs(), bytes, url, { signal });
    },
  };
}
