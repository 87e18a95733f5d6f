/** Verdict marks in a tab: the worker's side. Injects entrypoints/marks.ts on demand (no content
 * script on every page) and calls it through scripting.executeScript, in the extension's isolated
 * world where the page's scripts cannot reach it. */
import { browser } from 'wxt/browser';
import { PAGE_MARKS_GLOBAL, type PageMark, type PageMarksApi, type ShowMarksOptions, type ShowMarksResult } from '@/lib/page-marks/types';

export type { MarkVerdict, PageMark, ShowMarksOptions, ShowMarksResult } from '@/lib/page-marks/types';

/** Replaces any marks in the tab's top frame with these. Resolves with how many were found. */
export async function showMarks(tabId: number, marks: PageMark[], options: ShowMarksOptions = {}): Promise<ShowMarksResult> {
  await browser.scripting.executeScript({ target: { tabId }, files: ['/marks.js'] });
  const [res] = await browser.scripting.executeScript({
    target: { tabId },
    // Serialized into the page: it can only use its arguments and the global marks.js installed.
    func: (key: string, m: PageMark[], o: ShowMarksOptions) => {
      const api = (globalThis as unknown as Record<string, PageMarksApi | undefined>)[key];
      return api ? api.show(m, o) : { shown: 0, missing: m.map((x) => x.sentence) };
    },
    args: [PAGE_MARKS_GLOBAL, marks, options],
  });
  return res?.result ?? { shown: 0, missing: marks.map((m) => m.sentence) };
}

/** Removes every mark from the tab and restores its text. A tab that never had marks is left alone
 * (nothing is injected). */
export async function clearMarks(tabId: number): Promise<void> {
  await browser.scripting.executeScript({
    target: { tabId },
    func: (key: string) => {
      (globalThis as unknown as Record<string, PageMarksApi | undefined>)[key]?.clear();
    },
    args: [PAGE_MARKS_GLOBAL],
  });
}

/** How many marks the tab shows now; 0 when it never had any or navigated since. */
export async function countMarks(tabId: number): Promise<number> {
  const [res] = await browser.scripting.executeScript({
    target: { tabId },
    func: (key: string) => (globalThis as unknown as Record<string, PageMarksApi | undefined>)[key]?.count() ?? 0,
    args: [PAGE_MARKS_GLOBAL],
  });
  return typeof res?.result === 'number' ? res.result : 0;
}

/** Brings the mark of `sentence` into view with its tooltip (the tab is made the active one
 * first). False when the tab shows no such mark (reloaded, cleared, never marked). */
export async function revealMark(tabId: number, sentence: string): Promise<boolean> {
  const tab = await browser.tabs.update(tabId, { active: true });
  // A window that cannot be focused (Firefox without the windows API in this context) still scrolls.
  if (tab?.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true }).catch(() => undefined);
  const [res] = await browser.scripting.executeScript({
    target: { tabId },
    func: (key: string, s: string) => (globalThis as unknown as Record<string, PageMarksApi | undefined>)[key]?.reveal(s) ?? false,
    args: [PAGE_MARKS_GLOBAL, sentence],
  });
  return res?.result === true;
}
