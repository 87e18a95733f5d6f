/** Injected into a tab with scripting.executeScript (files: ['/reader.js']) to read it: installs a
 * reader function in the extension's isolated world, which the tabs adapter then calls with the
 * cached content hash. Runs Readability on a clone of the live DOM; never reads form fields. */
import { contentHash, extractReadable } from '@/lib/retrieval/extract';
import type { TabRead } from '@/lib/retrieval/tabs';

// Keep in sync with lib/browser/tabs-adapter.ts.
const READER_GLOBAL = '__ratifyReadTab';

export default defineUnlistedScript(() => {
  const read = (knownHash: string | null): TabRead => {
    const hash = contentHash(document);
    if (knownHash && knownHash === hash) return { kind: 'unchanged', hash };
    return { kind: 'page', page: extractReadable(document, location.href, { hash }) };
  };
  (globalThis as Record<string, unknown>)[READER_GLOBAL] = read;
});
