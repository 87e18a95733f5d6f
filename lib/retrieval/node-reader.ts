/** PageReader for Node (tests, benchmark, CLI): linkedom gives the DOM that extractReadable needs;
 * PDFs are read with pdf.js's legacy build. */
import { parseHTML } from 'linkedom';
import { extractReadable } from './extract';
import { createStaticHiddenChecks } from './static-hidden';
import type { PageReader, ReadablePage } from './page';
import { readPdf } from './pdf';
import { nodePdfJs } from './pdf-node';
import { hashText } from '../core/text';

export function createNodePageReader(): PageReader {
  return {
    async read(html: string, url: string): Promise<ReadablePage> {
      // linkedom's types are its own DOM classes; they implement the parts of Document used here.
      const { document } = parseHTML(html) as unknown as { document: Document };
      // The same layout-free filter as the offscreen document (dom-reader.ts).
      const checks = createStaticHiddenChecks(document);
      return extractReadable(document, url, { hash: hashText(html), isHidden: checks.isHidden, isTextHidden: checks.isTextHidden });
    },
    async readPdf(bytes, url, signal) {
      return readPdf(await nodePdfJs(), bytes, url, { signal });
    },
  };
}
