/** Marks in a page, drawn one drawing at a time per tab (a page check redraws as each verdict
 * lands): a run's verdicts on the sentences of the page it came from. */
import { browser } from 'wxt/browser';
import { showMarks } from '@/lib/browser/marks';
import { pickLanguage } from '@/lib/i18n/messages';
import type { PageMark } from '@/lib/page-marks/types';
import type { Run } from '@/lib/core/run';
import type { Settings } from '@/lib/settings/schema';

export type DrawMarks = (run: Run, marks: PageMark[], settings: Settings) => Promise<number>;

export function createMarkDrawer(): DrawMarks {
  const drawing = new Map<number, Promise<unknown>>();
  return (run, marks, settings) => {
    const tabId = run.input.page?.tabId;
    // A PDF viewer cannot be marked (the panel says so instead).
    if (tabId === undefined || run.input.page?.pdf) return Promise.resolve(0);
    const language = pickLanguage(settings.ui.language, browser.i18n.getUILanguage());
    // Pages that cannot be scripted (browser pages, PDFs, the Web Store) just get no marks.
    const next = (drawing.get(tabId) ?? Promise.resolve())
      .then(() => showMarks(tabId, marks, { language, runId: run.id }).then((r) => r.shown))
      .catch(() => 0);
    drawing.set(tabId, next);
    return next;
  };
}
