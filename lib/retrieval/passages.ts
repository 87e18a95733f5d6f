/** Cuts a page's readable text into sentence-bounded passages. Sentences come from
 * Intl.Segmenter, which also handles scripts without spaces (Chinese, Japanese) and RTL text. */
import type { Origin, Passage } from '../core/passage';
import type { Heading, ReadablePage } from './page';
import { hashText } from '../core/text';

export interface ChunkOptions {
  /** Target passage size in characters (PipelineSettings.passageChars). */
  targetChars: number;
  origin: Origin;
  tabId?: number;
  provider?: string;
  /** Overlap between consecutive passages under one heading, as a share of `targetChars`: a
   * passage cut for size starts with the last sentences of the one before (as many as fit), so
   * an answer that straddles a cut is whole in one of them. Default PASSAGE_OVERLAP. */
  overlap?: number;
}

/** Measured on the development set's tuning part: overlap 0.15–0.5 at 900–1,500 characters gave
 * no better top-5 and a worse top-1 (near-duplicate windows crowd the top 5; bench/README.md). */
export const PASSAGE_OVERLAP = 0;

/** A heading starts a new passage only once the current one holds this share of the target:
 * pages of many short sections (feature lists, FAQs, tool menus) otherwise become passages of a
 * line or two, too short to hold an answer with its context, that crowd one page into the top 5.
 * Measured on the development set's tuning part (0 / 0.2 / 0.4 / 0.6 / 0.8 / 1): top-5 0.69 /
 * 0.71 / 0.71 / 0.72 / 0.72 / 0.71, MRR 0.53 / 0.56 / 0.55 / 0.57 / 0.54 / 0.53. */
export const SECTION_MERGE = 0.6;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(lang: string | undefined): Intl.Segmenter {
  const key = lang || 'en';
  let s = segmenters.get(key);
  if (!s) {
    try {
      s = new Intl.Segmenter(key, { granularity: 'sentence' });
    } catch {
      s = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    segmenters.set(key, s);
  }
  return s;
}

/** V8's segmenter slows down sharply on long inputs (≈quadratic), so long lines are fed in
 * windows of about this size, resuming at the last sentence start of each window. */
const WINDOW = 1000;

/** Sentence spans [start, end) in `text`, trimmed of surrounding whitespace. Lines ("\n") always
 * end a sentence: they are block boundaries from extraction. */
export function sentenceSpans(text: string, lang?: string): [number, number][] {
  const seg = segmenter(lang);
  const out: [number, number][] = [];
  const push = (s: number, e: number) => {
    while (s < e && /\s/.test(text.charAt(s))) s++;
    while (e > s && /\s/.test(text.charAt(e - 1))) e--;
    if (e > s) out.push([s, e]);
  };
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    let pos = lineStart;
    while (pos < lineEnd) {
      if (lineEnd - pos <= WINDOW * 1.5) {
        for (const s of seg.segment(text.slice(pos, lineEnd))) push(pos + s.index, pos + s.index + s.segment.length);
        break;
      }
      const chunk = text.slice(pos, pos + WINDOW);
      const parts = [...seg.segment(chunk)];
      // Keep all but the last sentence of the window (it may be cut); resume where it starts.
      const last = parts.at(-1);
      if (last && parts.length > 1) {
        for (const s of parts.slice(0, -1)) push(pos + s.index, pos + s.index + s.segment.length);
        pos += last.index;
      } else {
        // One sentence longer than the window: cut it at a space (or anywhere, for CJK).
        const sp = chunk.lastIndexOf(' ');
        const cut = sp > WINDOW / 2 ? sp + 1 : WINDOW;
        push(pos, pos + cut);
        pos += cut;
      }
    }
    lineStart = lineEnd + 1;
  }
  return out;
}

/** Heading path (outermost first) in force at `offset`. */
function headingPathAt(headings: Heading[], offset: number): string[] {
  const stack: Heading[] = [];
  for (const h of headings) {
    if (h.offset > offset) break;
    for (let top = stack.at(-1); top && top.level >= h.level; top = stack.at(-1)) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.text);
}

/** The heading path two paths share (outermost first). */
function commonPrefix(a: string[], b: string[]): string[] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/** Stable: the same URL, content and offsets give the same id in every run. */
export function passageId(url: string, hash: string, start: number, end: number): string {
  return `p${hashText(`${url}\n${hash}\n${start}-${end}`)}`;
}

/** Splits a sentence longer than `max` at spaces (or anywhere, for scripts without spaces). */
function splitLong(text: string, [s, e]: [number, number], max: number): [number, number][] {
  const out: [number, number][] = [];
  while (e - s > max) {
    const sp = text.lastIndexOf(' ', s + max);
    const cut = sp > s + max / 2 ? sp : s + max;
    out.push([s, cut]);
    s = cut;
    while (s < e && text[s] === ' ') s++;
  }
  if (e > s) out.push([s, e]);
  return out;
}

export function chunkPage(page: ReadablePage, opts: ChunkOptions): Passage[] {
  const { text } = page;
  const target = Math.max(80, opts.targetChars);
  const sentences = sentenceSpans(text, page.lang).flatMap((sp) => splitLong(text, sp, Math.round(target * 1.5)));
  const headingStarts = new Set(page.headings.map((h) => h.offset));
  const out: Passage[] = [];
  let cur: [number, number] | undefined;
  const emit = () => {
    if (!cur) return;
    const [start, end] = cur;
    out.push({
      id: passageId(page.url, page.hash, start, end),
      url: page.url,
      title: page.title,
      origin: opts.origin,
      text: text.slice(start, end),
      headingPath: commonPrefix(headingPathAt(page.headings, start), headingPathAt(page.headings, end - 1)),
      start,
      end,
      ...(opts.tabId !== undefined ? { tabId: opts.tabId } : {}),
      ...(opts.provider ? { provider: opts.provider } : {}),
    });
    cur = undefined;
  };
  const overlap = Math.max(0, Math.min(0.5, opts.overlap ?? PASSAGE_OVERLAP)) * target;
  let onlyHeading = false;
  /** Starts of the sentences in the current passage (for the overlap). */
  let starts: number[] = [];
  for (const [s, e] of sentences) {
    const isHeading = headingStarts.has(s);
    // A heading starts a new passage unless the current one is still short (SECTION_MERGE): then
    // the next section joins it, and the passage keeps the heading path both share. A heading
    // with nothing under it before the next one is dropped rather than made a passage.
    if (cur && isHeading && (onlyHeading || cur[1] - cur[0] >= target * SECTION_MERGE)) {
      if (onlyHeading) cur = undefined;
      else emit();
      starts = [];
    } else if (cur && e - cur[0] > target && (cur[1] - cur[0] >= target * 0.4 || e - cur[0] > target * 1.5)) {
      // A short passage absorbs the next sentence rather than stand alone (within 1.5 × target).
      const end = cur[1];
      emit();
      // The next passage starts with the last sentences of this one that fit in the overlap.
      const back = starts.filter((x, i) => i > 0 && end - x <= overlap)[0];
      if (back !== undefined) cur = [back, end];
      starts = starts.filter((x) => back !== undefined && x >= back);
    }
    starts.push(s);
    if (cur) cur[1] = e;
    else cur = [s, e];
    onlyHeading = isHeading && cur[0] === s;
  }
  emit();
  return out;
}
