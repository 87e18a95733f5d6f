/** Injected into a tab with scripting.executeScript (files: ['/reader.js']) to read it: installs a
 * reader function in the extension's isolated world, which the tabs adapter then calls with the
 * cached content hash. Runs Readability on a copy of the live DOM without what the user cannot see
 * (lib/retrieval/rendered-hidden.ts); never reads form fields or editable areas. */
import { contentHash, extractReadable } from '@/lib/retrieval/extract';
import { createRenderedHiddenChecks } from '@/lib/retrieval/rendered-hidden';
import type { TabRead } from '@/lib/retrieval/tabs';

// Keep in sync with lib/browser/tabs-adapter.ts.
const READER_GLOBAL = '__ratifyReadTab';

export default defineUnlistedScript(() => {
  const read = (knownHash: string | null): TabRead | { kind: 'pdf' } => {
    // A PDF shown by the browser's viewer has no readable DOM: the extension reads the file.
    if (document.contentType === 'application/pdf') return { kind: 'pdf' };
    const hash = contentHash(document);
    if (knownHash && knownHash === hash) return { kind: 'unchanged', hash };
    // Fresh checks per read: styles and layout may have changed since the last one.
    const checks = createRenderedHiddenChecks(window);
    return { kind: 'page', page: extractReadable(document, location.href, { hash, isHidden: checks.isHidden, isTextHidden: checks.isTextHidden }) };
  };
  (globalThis as Record<string, unknown>)[READER_GLOBAL] = read;
});
