/** Chrome's offscreen document: the MV3 worker has no DOMParser, so fetched search-result pages
 * are parsed and made readable here, and PDFs read with pdf.js (lib/browser/offscreen-reader.ts
 * sends them), and Chrome's built-in model answers the worker when it lacks the Prompt API. */
import { browser } from 'wxt/browser';
import { createDomPageReader } from '@/lib/retrieval/dom-reader';
import { base64ToBytes, isOffscreenRead, type OffscreenRead, type OffscreenReadReply } from '@/lib/browser/offscreen-reader';
import { readPdfInPage } from '@/lib/browser/pdf-reader';
import type { ReadablePage } from '@/lib/retrieval/page';
import { serveOffscreenLanguageModel } from '@/lib/browser/offscreen-language-model';
import { fromExtensionPage } from '@/lib/browser/messaging';

const reader = createDomPageReader();

function read(msg: OffscreenRead): Promise<ReadablePage> {
  return msg.ratifyOffscreen === 'read-pdf' ? readPdfInPage(base64ToBytes(msg.base64), msg.url) : reader.read(msg.html, msg.url);
}

browser.runtime.onMessage.addListener((msg: unknown, sender, sendResponse: (r: OffscreenReadReply) => void) => {
  // Only the worker and the extension's pages; a script in a tab gets no answer.
  if (!fromExtensionPage(sender) || !isOffscreenRead(msg)) return false;
  read(msg)
    .then((page) => sendResponse({ ok: true, page }))
    .catch((e: unknown) => sendResponse({ ok: false, error: e instanceof Error ? e.message : String(e) }));
  return true; // answers asynchronously
});

// The worker's route to Chrome's built-in model when it has no Prompt API of its own.
serveOffscreenLanguageModel();
