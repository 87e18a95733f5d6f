/** Open tabs that show a PDF (Chrome's viewer, Firefox's pdf.js): the reader script cannot read
 * them (Chrome's viewer is a plugin frame; Firefox's is a privileged page), so the PDF is fetched
 * (lib/retrieval/web.ts) and read with pdf.js instead. Wraps the browser's TabsAdapter. */
import type { PageReader } from './page';
import { isPdfUrl } from './pdf';
import type { TabInfo, TabRead, TabsAdapter } from './tabs';
import { fetchPdf } from './web';

/** Thrown by a TabsAdapter's read when the tab's document is a PDF (document.contentType). */
export class TabShowsPdf extends Error {
  constructor() {
    super('the tab shows a PDF');
    this.name = 'TabShowsPdf';
  }
}

export interface PdfTabDeps {
  fetch: typeof fetch;
  reader: PageReader;
}

function readPdfTab(tab: TabInfo, deps: PdfTabDeps, opts: { signal: AbortSignal; knownHash?: string }): Promise<TabRead> {
  return fetchPdf(tab.url, { fetch: deps.fetch, reader: deps.reader, signal: opts.signal, knownHash: opts.knownHash, credentials: 'include',
    // The tab itself was admitted by the tab library's rules (private-network tabs only when the
    // setting allows them); its own address is fetched, not one a page chose.
    privateNetwork: true });
}

/** A PDF tab's read time-out: fetching and parsing it (the first one also starts pdf.js) takes
 * longer than reading a page's DOM. */
export const PDF_TAB_TIMEOUT_MS = 20_000;

export function withPdfTabs(inner: TabsAdapter, deps: PdfTabDeps): TabsAdapter {
  return {
    extensionOrigin: inner.extensionOrigin,
    list: (scope) => inner.list(scope),
    timeoutFor: (tab) => (isPdfUrl(tab.url) ? PDF_TAB_TIMEOUT_MS : inner.timeoutFor?.(tab)),
    async read(tab, opts) {
      if (isPdfUrl(tab.url)) return readPdfTab(tab, deps, opts);
      try {
        return await inner.read(tab, opts);
      } catch (e) {
        if (e instanceof TabShowsPdf) return readPdfTab(tab, deps, opts);
        // A tab that cannot be scripted may show a PDF from an address without ".pdf"; its
        // content type says (only the headers are fetched when it is not a PDF).
        if (opts.signal.aborted || !/^https?:/i.test(tab.url)) throw e;
        try {
          return await readPdfTab(tab, deps, opts);
        } catch (probe) {
          // A PDF that could not be read says why; anything else keeps the tab's own error.
          const m = probe instanceof Error ? probe.message : '';
          throw /PDF/.test(m) && !m.startsWith('not a PDF') ? probe : e;
        }
      }
    },
  };
}
