/** Chrome's one offscreen document (entrypoints/offscreen): it parses pages and PDFs for the MV3
 * worker, which has no DOM, and runs Chrome's built-in model when the worker lacks the Prompt
 * API. Created on first use; Firefox's background page has a DOM and never needs it. */
import { browser } from 'wxt/browser';

const OFFSCREEN_PATH = '/offscreen.html';
let creating: Promise<void> | undefined;

export async function ensureOffscreen(): Promise<void> {
  const url = browser.runtime.getURL(OFFSCREEN_PATH);
  const contexts = await browser.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] });
  if (contexts.length) return;
  // Two callers at once must not both create it (Chrome allows only one offscreen document).
  creating ??= browser.offscreen
    .createDocument({ url: OFFSCREEN_PATH, reasons: ['DOM_PARSER'], justification: 'Parse fetched search-result pages and PDFs into readable text, and run the built-in model the worker cannot reach.' })
    .catch((e: unknown) => {
      if (!String(e).includes('single offscreen')) throw e;
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}
