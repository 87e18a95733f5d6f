/** The PageReader for the extension. Where the context has a DOMParser (Firefox's background
 * page, extension pages) it parses in place; in Chrome's MV3 worker it hands the HTML, or a PDF's
 * bytes, to the offscreen document (entrypoints/offscreen), creating it on first use. */
import { browser } from 'wxt/browser';
import { createDomPageReader, hasDomParser } from '../retrieval/dom-reader';
import type { PageReader, ReadablePage } from '../retrieval/page';
import { ensureOffscreen } from './offscreen-document';

export type OffscreenRead =
  | { ratifyOffscreen: 'read-page'; html: string; url: string }
  /** Extension messages are JSON: the bytes travel as base64. */
  | { ratifyOffscreen: 'read-pdf'; base64: string; url: string };

export type OffscreenReadReply = { ok: true; page: ReadablePage } | { ok: false; error: string };

export function isOffscreenRead(m: unknown): m is OffscreenRead {
  const kind = typeof m === 'object' && m !== null ? (m as { ratifyOffscreen?: unknown }).ratifyOffscreen : undefined;
  return kind === 'read-page' || kind === 'read-pdf';
}

export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  // In slices: String.fromCharCode(...all) would overflow the call stack on a large PDF.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function base64ToBytes(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

async function askOffscreen(msg: OffscreenRead): Promise<ReadablePage> {
  await ensureOffscreen();
  const reply = await browser.runtime.sendMessage<OffscreenRead, OffscreenReadReply | undefined>(msg);
  if (!reply) throw new Error('the page reader did not answer');
  if (!reply.ok) throw new Error(reply.error);
  return reply.page;
}

export function createOffscreenPageReader(): PageReader {
  return {
    read: (html, url) => askOffscreen({ ratifyOffscreen: 'read-page', html, url }),
    readPdf: (bytes, url) => askOffscreen({ ratifyOffscreen: 'read-pdf', base64: bytesToBase64(bytes), url }),
  };
}

/** The right reader for the current context. */
export function createBrowserPageReader(): PageReader {
  if (!hasDomParser()) return createOffscreenPageReader();
  // Firefox's background page reads PDFs itself. The check is a build-time constant, so Chrome's
  // worker bundle (which goes through the offscreen document) never includes pdf.js.
  if (!import.meta.env.FIREFOX) return createDomPageReader();
  return {
    ...createDomPageReader(),
    readPdf: async (bytes, url, signal) => (await import('./pdf-reader')).readPdfInPage(bytes, url, signal),
  };
}
