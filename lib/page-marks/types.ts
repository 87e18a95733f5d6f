/** In-page verdict marks: the data the extension hands to the page script (lib/browser/marks.ts
 * → entrypoints/marks.ts). Plain JSON so it survives scripting.executeScript's structured clone. */

import { VERDICTS, type Verdict } from '../core/verdicts';

/** The one verdict list (lib/core/verdicts.ts). */
export type MarkVerdict = Verdict;
export const MARK_VERDICTS: readonly MarkVerdict[] = VERDICTS;

/** What a tab is given: its own sentence and the verdict, nothing else. The correction, the
 * explanation and the sources come from other tabs and the web; the page's scripts share the DOM
 * with the marks, so those stay in the side panel. */
export interface PageMark {
  /** The sentence as it appears in the page (whitespace and case may differ). */
  sentence: string;
  verdict: MarkVerdict;
}

export interface ShowMarksResult {
  /** How many of the given marks were found in the page and marked. */
  shown: number;
  /** Sentences that could not be found (in the order given). */
  missing: string[];
}

export type MarksLanguage = 'en' | 'zh-CN';

export interface ShowMarksOptions {
  /** Tooltip language; default: the page's navigator.language. */
  language?: MarksLanguage;
  /** The run the marks come from: "Show in Ratify" in a tooltip names it (with the mark's own
   * sentence) to the worker, which opens that claim in the panel. Kept in this script's memory,
   * never in the page's DOM. */
  runId?: string;
}

/** What a tooltip's "Show in Ratify" sends to the worker: the run and the page's own sentence of
 * the mark, nothing else. */
export interface MarkShowMessage {
  type: typeof MARK_SHOW;
  runId: string;
  sentence: string;
}

export const MARK_SHOW = 'ratify/mark-show';

export function isMarkShowMessage(x: unknown): x is MarkShowMessage {
  if (typeof x !== 'object' || x === null) return false;
  const m = x as Record<string, unknown>;
  return m.type === MARK_SHOW && typeof m.runId === 'string' && m.runId.length <= 100 && typeof m.sentence === 'string' && m.sentence.length <= 2000;
}

/** What entrypoints/marks.ts installs on the content-script (isolated world) global. The page's
 * own scripts run in another world and cannot see or call it. */
export interface PageMarksApi {
  show(marks: PageMark[], options?: ShowMarksOptions): ShowMarksResult;
  clear(): void;
  /** How many marks are in the page now. */
  count(): number;
  /** Scrolls the mark of this sentence into view and shows its tooltip; false when there is none. */
  reveal(sentence: string): boolean;
}

export const PAGE_MARKS_GLOBAL = '__ratifyPageMarks';
