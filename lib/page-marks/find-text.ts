/** Finds sentences in a page's text the way a reader sees it: across text nodes and inline
 * elements (<a>, <b>, footnote spans), ignoring whitespace and case, with typographic quotes and
 * dashes folded. Pure DOM reading, no mutation, so it runs in linkedom for tests. */

export interface TextSegment {
  node: Text;
  /** Offsets into node.data, end exclusive. */
  start: number;
  end: number;
}

export interface FindOptions {
  /** False hides an element's text (the page passes the tab reader's visibility rules). Default:
   * all visible. */
  isVisible?: (el: Element) => boolean;
  /** True when only an element's own text is hidden (same colour as its background, too small):
   * its direct text is skipped, its children are still read. */
  isTextHidden?: (el: Element) => boolean;
}

// Text that is not prose a user could have selected, or that we must never rewrap (form controls,
// editors: wrapping would corrupt what the user types; scripts and styles: not rendered).
const SKIP_TAGS = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'SELECT', 'OPTION', 'INPUT', 'BUTTON',
  'IFRAME', 'OBJECT', 'CANVAS', 'VIDEO', 'AUDIO', 'SVG', 'MATH', 'HEAD', 'TITLE',
  'RATIFY-TOOLTIP',
]);

const FOLD: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'", '`': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u00ab': '"', '\u00bb': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2212': '-',
};

// Invisible characters that pages sprinkle into text (soft hyphens, zero-width joiners).
const IGNORABLE = /[\s\u00ad\u200b-\u200d\u2060\ufeff]/;

/** One comparable unit per UTF-16 code unit, or '' when it does not count. */
function fold(c: string): string {
  if (IGNORABLE.test(c)) return '';
  const f = FOLD[c] ?? c.toLowerCase();
  // Some lower-casings change length (İ → i̇); keep such characters as they are so positions map 1:1.
  return f.length === 1 ? f : c;
}

export function foldText(s: string): string {
  let out = '';
  for (const c of s.split('')) out += fold(c);
  return out;
}

interface TextIndex {
  /** Folded text of the whole root. */
  text: string;
  /** For each character of `text`: where it came from. */
  nodes: Text[];
  offsets: number[];
}

function isSkipped(el: Element, opts: FindOptions): boolean {
  if (SKIP_TAGS.has(el.tagName.toUpperCase())) return true;
  if (el.hasAttribute('hidden')) return true;
  const editable = el.getAttribute('contenteditable');
  if (editable !== null && editable !== 'false') return true;
  return opts.isVisible ? !opts.isVisible(el) : false;
}

export function buildTextIndex(root: Node, opts: FindOptions = {}): TextIndex {
  const index: TextIndex = { text: '', nodes: [], offsets: [] };
  const parts: string[] = [];
  // Iterative walk: pages can nest deeper than the call stack likes.
  const stack: Node[] = [root];
  const textHidden = new Map<Element, boolean>();
  const ownTextHidden = (el: Element | null): boolean => {
    if (!el || !opts.isTextHidden) return false;
    let v = textHidden.get(el);
    if (v === undefined) textHidden.set(el, (v = opts.isTextHidden(el)));
    return v;
  };
  while (stack.length) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3) {
      const t = node as Text;
      if (ownTextHidden(t.parentElement)) continue;
      const data = t.data;
      for (let i = 0; i < data.length; i++) {
        const f = fold(data.charAt(i));
        if (!f) continue;
        parts.push(f);
        index.nodes.push(t);
        index.offsets.push(i);
      }
      continue;
    }
    if (node.nodeType === 1 && node !== root && isSkipped(node as Element, opts)) continue;
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as ChildNode);
  }
  index.text = parts.join('');
  return index;
}

const TRAILING = /[\s.,;:!?。！？、，；：…"'”’)\]）】]+$/;

/** Where each sentence is in the page: a list of text-node segments per sentence (undefined when
 * not found). Sentences are matched in order, each at its first occurrence that does not overlap
 * an earlier match, so repeated sentences mark successive occurrences. */
export function findSentences(root: Node, sentences: string[], opts: FindOptions = {}): (TextSegment[] | undefined)[] {
  const index = buildTextIndex(root, opts);
  const used: [number, number][] = [];
  return sentences.map((sentence) => {
    // A model often drops or adds the closing punctuation: try the sentence as given, then without it.
    for (const needle of [foldText(sentence), foldText(sentence.replace(TRAILING, ''))]) {
      if (needle.length < 2) continue;
      const at = findFree(index.text, needle, used);
      if (at < 0) continue;
      used.push([at, at + needle.length]);
      return segmentsOf(index, at, at + needle.length);
    }
    return undefined;
  });
}

function findFree(text: string, needle: string, used: [number, number][]): number {
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if (!used.some(([s, e]) => at < e && s < end)) return at;
  }
  return -1;
}

function segmentsOf(index: TextIndex, from: number, to: number): TextSegment[] {
  const out: TextSegment[] = [];
  for (let i = from; i < to; i++) {
    // The index holds one node and offset per character of its text, and i is inside that text.
    const node = index.nodes[i] as Text;
    const offset = index.offsets[i] as number;
    const last = out.at(-1);
    // Whitespace inside a node between two matched characters stays inside the segment.
    if (last && last.node === node) last.end = offset + 1;
    else out.push({ node, start: offset, end: offset + 1 });
  }
  // Spaces at the inner edges of pieces belong to the sentence too (so its underline has no gaps
  // at "<b>Nobel</b> <i>Prize</i>"); the outer edges stay tight.
  out.forEach((seg, i) => {
    const data = seg.node.data;
    if (i > 0) while (seg.start > 0 && IGNORABLE.test(data.charAt(seg.start - 1))) seg.start--;
    if (i < out.length - 1) while (seg.end < data.length && IGNORABLE.test(data.charAt(seg.end))) seg.end++;
  });
  return out;
}
