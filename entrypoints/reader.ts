/** Injected into a tab with scripting.executeScript (files: ['/reader.js']) to read it: installs a
 * reader function in the extension's isolated world, which the tabs adapter then calls with the
 * cached content hash. Runs Readability on a copy of the live DOM without what the user cannot see
 * (lib/retrieval/rendered-hidden.ts); never reads form fields or editable areas. */
import { contentHash, extractReadable } from '@/lib/retrieval/extract';
import { createRenderedHiddenChecks } from '@/lib/retrieval/rendered-hidden';
import type { TabRead } from '@/lib/retrieval/tabs';
import { visibleSelection, type VisibleSelection } from '@/lib/retrieval/visible-selection';

// Keep in sync with lib/browser/tabs-adapter.ts and lib/browser/page-context.ts.
const READER_GLOBAL = '__ratifyReadTab';
const SELECTION_GLOBAL = '__ratifyReadSelection';

export default defineUnlistedScript(() => {
  const read = (knownHash: string | null): TabRead | { kind: 'pdf' } => {
    // A PDF shown by the browser's viewer has no readable DOM: the extension reads the file.
    if (document.contentType === 'application/pdf') return { kind: 'pdf' };
    const hash = contentHash(document);
    if (knownHash && knownHash === hash) return { kind: 'unchanged', hash };
    // Fresh checks per read: styles and layout may have changed since the last one.
    const checks = createRenderedHiddenChecks(window);
    return { kind: 'page', page: extractReadable(document, location.href, { hash, isHidden: (el) => checks.isHidden(el), isTextHidden: (el) => checks.isTextHidden(el) }) };
  };
  (globalThis as Record<string, unknown>)[READER_GLOBAL] = read;
  // The selection as the user sees it: its hidden sentences left out (lib/retrieval/visible-selection.ts).
  const readSelection = (maxContext: number): (VisibleSelection & { surrounding: string }) | null => {
    const sel = window.getSelection();
    if (!sel || !sel.rangeCount || sel.isCollapsed) return null;
    const checks = createRenderedHiddenChecks(window);
    const range = sel.getRangeAt(0);
    const seen = visibleSelection(range, checks);
    // The blocks around it, for resolving "he", "the company": visible text only, like the rest.
    let node: Node | null = range.commonAncestorContainer;
    while (node && node.nodeType !== Node.ELEMENT_NODE) node = node.parentNode;
    let el = node as HTMLElement | null;
    while (el && el.parentElement && (el.innerText ?? '').length < Math.min(maxContext, seen.text.length + 400)) el = el.parentElement;
    let surrounding = '';
    if (el) {
      const around = document.createRange();
      around.selectNodeContents(el);
      surrounding = visibleSelection(around, checks).text.slice(0, maxContext);
    }
    return { ...seen, surrounding };
  };
  (globalThis as Record<string, unknown>)[SELECTION_GLOBAL] = readSelection;
});
