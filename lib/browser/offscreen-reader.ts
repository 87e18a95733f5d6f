/** The PageReader for the extension. Where the context has a DOMParser (Firefox's background
 * page, extension pages) it parses in place; in Chrome's MV3 worker it hands the HTML to the
 * offscreen document (entrypoints/offscreen), creating it on first use. */
import { browser } from 'wxt/browser';
import { createDomPageReader, hasDomParser } from '../retrieval/dom-reader';
import type { PageReader, ReadablePage } from '../retrieval/page';

export interface OffscreenRead {
  ratifyOffscreen: 'read-page';
  html: string;
  url: string;
}

export type OffscreenReadReply = { ok: true; page: ReadablePage } | { ok: false; error: string };

export function isOffscreenRead(m: unknown): m is OffscreenRead {
  return typeof m === 'object' && m !== null && (m as Partial<OffscreenRead>).ratifyOffscreen === 'read-page';
}

const OFFSCREEN_PATH = '/offscreen.html';
let creating: Promise<void> | undefined;

async function ensureOffscreen(): Promise<void> {
  const url = browser.runtime.getURL(OFFSCREEN_PATH);
  const contexts = await browser.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] });
  if (contexts.length) return;
  // Two reads at once must not both create it (Chrome allows only one offscreen document).
  creating ??= browser.offscreen
    .createDocument({ url: OFFSCREEN_PATH, reasons: ['DOM_PARSER'], justification: 'Parse fetched search-result pages into readable text.' })
    .catch((e: unknown) => {
      if (!String(e).includes('single offscreen')) throw e;
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}

export function createOffscreenPageReader(): PageReader {
  return {
    async read(html: string, url: string): Promise<ReadablePage> {
      await ensureOffscreen();
      const msg: OffscreenRead = { ratifyOffscreen: 'read-page', html, url };
      const reply = (await browser.runtime.sendMessage(msg)) as OffscreenReadReply | undefined;
      if (!reply) throw new Error('the page reader did not answer');
      if (!reply.ok) throw new Error(reply.error);
      return reply.page;
    },
  };
}

/** The right reader for the current context. */
export function createBrowserPageReader(): PageReader {
  return hasDomParser() ? createDomPageReader() : createOffscreenPageReader();
}
