/** The part of a selection the user can see, by the tab reader's own rules (rendered-hidden.ts).
 * A verification checks, and marks, only what the user selected and could read: a sentence hidden
 * in the selected paragraph (opacity 0, white on white, 1 px…) is neither checked nor marked, so
 * a page cannot learn another tab's secret from the verdict a hidden sentence would get. Runs in
 * the tab (entrypoints/reader.ts). */
import type { HiddenChecks } from './rendered-hidden';

export interface VisibleSelection {
  /** The selection's visible text, in order. */
  text: string;
  /** How many sentences of hidden text the selection held (left out). */
  hiddenSentences: number;
}

const SENTENCE_END = /[.!?。！？]+(?=\s|$)/g;

function sentences(text: string): number {
  const t = text.trim();
  if (!/[\p{L}\p{N}]/u.test(t)) return 0;
  return Math.max(1, (t.match(SENTENCE_END) ?? []).length);
}

export function visibleSelection(range: Range, checks: HiddenChecks): VisibleSelection {
  const root = range.commonAncestorContainer;
  const doc = root.ownerDocument ?? (root as Document);
  const hiddenEl = new Map<Element, boolean>();
  /** An element, or one of its ancestors, that the reader would drop whole. */
  const hiddenTree = (el: Element | null): boolean => {
    if (!el) return false;
    const known = hiddenEl.get(el);
    if (known !== undefined) return known;
    const h = checks.isHidden(el) || hiddenTree(el.parentElement);
    hiddenEl.set(el, h);
    return h;
  };
  const view = doc.defaultView;
  /** The block a text node flows in: a new block starts a new line, as Selection.toString() does. */
  const blockOf = (el: Element | null): Element | null => {
    let e = el;
    while (e && view && view.getComputedStyle(e).display.startsWith('inline')) e = e.parentElement;
    return e;
  };
  let text = '';
  let hidden = '';
  let block: Element | null = null;
  const walker = doc.createTreeWalker(root.nodeType === 3 ? (root.parentNode ?? root) : root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!range.intersectsNode(n)) continue;
    const raw = n.nodeValue ?? '';
    const from = n === range.startContainer ? range.startOffset : 0;
    const to = n === range.endContainer ? range.endOffset : raw.length;
    const piece = raw.slice(from, to);
    const parent = n.parentElement;
    if (parent && (hiddenTree(parent) || checks.isTextHidden(parent))) {
      hidden += ` ${piece}`;
      continue;
    }
    const b = blockOf(parent);
    if (text && b !== block) text += '\n';
    block = b;
    text += piece;
  }
  return { text: text.replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim(), hiddenSentences: sentences(hidden) };
}
