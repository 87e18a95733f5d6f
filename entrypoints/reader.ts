/** Injected into a tab with scripting.executeScript (files: ['/reader.js']) to read it: installs a
 * reader function in the extension's isolated world, which the tabs adapter then calls with the
 * cached content hash. Runs Readability on a clone of the live DOM; never reads form fields. */
import { contentHash, extractReadable } from '@/lib/retrieval/extract';
import type { TabRead } from '@/lib/retrieval/tabs';

// Keep in sync with lib/browser/tabs-adapter.ts.
const READER_GLOBAL = '__ratifyReadTab';

/** What the user cannot see on the rendered page: display/visibility/opacity hiding (also inside
 * closed <details>), zero-size text, and boxes pushed far off-screen — the usual ways to hide
 * instructions meant for a model. */
function invisible(el: Element): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return true;
  const style = getComputedStyle(el);
  if (parseFloat(style.fontSize) < 1 && (el.textContent ?? '').trim()) return true;
  if (style.position === 'absolute' || style.position === 'fixed') {
    const r = el.getBoundingClientRect();
    if (r.right + window.scrollX < -100 || r.bottom + window.scrollY < -100) return true;
  }
  return false;
}

export default defineUnlistedScript(() => {
  const read = (knownHash: string | null): TabRead | { kind: 'pdf' } => {
    // A PDF shown by the browser's viewer has no readable DOM: the extension reads the file.
    if (document.contentType === 'application/pdf') return { kind: 'pdf' };
    const hash = contentHash(document);
    if (knownHash && knownHash === hash) return { kind: 'unchanged', hash };
    return { kind: 'page', page: extractReadable(document, location.href, { hash, isHidden: invisible }) };
  };
  (globalThis as Record<string, unknown>)[READER_GLOBAL] = read;
});
