/** Chrome's offscreen document: the MV3 worker has no DOMParser, so fetched search-result pages
 * are parsed and made readable here (lib/browser/offscreen-reader.ts sends them). */
import { browser } from 'wxt/browser';
import { createDomPageReader } from '@/lib/retrieval/dom-reader';
import { isOffscreenRead, type OffscreenReadReply } from '@/lib/browser/offscreen-reader';
import { fromExtensionPage } from '@/lib/browser/messaging';

const reader = createDomPageReader();

browser.runtime.onMessage.addListener((msg: unknown, sender, sendResponse: (r: OffscreenReadReply) => void) => {
  if (!fromExtensionPage(sender) || !isOffscreenRead(msg)) return false;
  reader
    .read(msg.html, msg.url)
    .then((page) => sendResponse({ ok: true, page }))
    .catch((e: unknown) => sendResponse({ ok: false, error: e instanceof Error ? e.message : String(e) }));
  return true; // answers asynchronously
});
