/** PageReader where the platform has DOMParser: the offscreen document (Chrome) and the
 * background page (Firefox MV2). Parsed documents are inert: no scripts run, nothing loads. */
import { extractReadable } from './extract';
import { createStaticHiddenChecks } from './static-hidden';
import type { PageReader, ReadablePage } from './page';
import { hashText } from '../core/text';

function readHtml(html: string, url: string): ReadablePage {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  // Relative links and Readability's URL handling need the page's own base.
  if (!doc.querySelector('base')) {
    const base = doc.createElement('base');
    base.href = url;
    doc.head?.prepend(base);
  }
  // No layout here: the page's own declared styles say what its reader could not see.
  const checks = createStaticHiddenChecks(doc);
  return extractReadable(doc, url, { hash: hashText(html), isHidden: checks.isHidden, isTextHidden: checks.isTextHidden });
}

export function createDomPageReader(): PageReader {
  // The work is synchronous; a throw still arrives as a rejection, as from any reader.
  return { read: (html, url) => new Promise((resolve) => resolve(readHtml(html, url))) };
}

/** True where a DOMParser exists (not in an MV3 service worker). */
export const hasDomParser = (): boolean => typeof DOMParser !== 'undefined';
