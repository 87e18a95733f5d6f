/** The version of the rules for what the readers leave out (rendered-hidden.ts, static-hidden.ts,
 * pdf-visibility.ts), part of the content hashes that key cached page text (tabs: extract.ts,
 * PDFs: web.ts): when the rules change, a tab or PDF read under the old ones is read again rather
 * than served from the cache with text the new rules leave out. */
export const READER_RULES = 'hidden-2';
