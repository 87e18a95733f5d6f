/** Verdict marks in the page. Not a content script on every page: the worker injects this file
 * into one tab on demand (lib/browser/marks.ts) and then calls the API it leaves on the isolated
 * world's global. Injecting it again keeps the existing instance, so marks are never doubled.
 * Marks follow the tab reader's visibility rules (what the reader leaves out is never marked), and
 * a tooltip's "Show in Ratify" tells the worker which of the run's sentences to open. */
import { browser } from 'wxt/browser';
import { createPageMarks } from '@/lib/page-marks/page-marks';
import { MARK_SHOW, PAGE_MARKS_GLOBAL, type MarkShowMessage, type PageMarksApi } from '@/lib/page-marks/types';
import { createRenderedHiddenChecks } from '@/lib/retrieval/rendered-hidden';

export default defineUnlistedScript(() => {
  const g = globalThis as unknown as Record<string, PageMarksApi | undefined>;
  g[PAGE_MARKS_GLOBAL] ??= createPageMarks(document, {
    visibility: () => createRenderedHiddenChecks(window),
    onShow: (runId, sentence) => {
      const msg: MarkShowMessage = { type: MARK_SHOW, runId, sentence };
      // The worker opens the panel on it; a worker that is gone has nothing to show.
      browser.runtime.sendMessage(msg).catch(() => undefined);
    },
  });
});
