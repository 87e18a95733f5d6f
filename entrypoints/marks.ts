/** Verdict marks in the page. Not a content script on every page: the worker injects this file
 * into one tab on demand (lib/browser/marks.ts) and then calls the API it leaves on the isolated
 * world's global. Injecting it again keeps the existing instance, so marks are never doubled. */
import { createPageMarks } from '@/lib/page-marks/page-marks';
import { PAGE_MARKS_GLOBAL, type PageMarksApi } from '@/lib/page-marks/types';

export default defineUnlistedScript(() => {
  const g = globalThis as unknown as Record<string, PageMarksApi | undefined>;
  g[PAGE_MARKS_GLOBAL] ??= createPageMarks(document);
});
