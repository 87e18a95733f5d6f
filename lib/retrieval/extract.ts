/** Readable text from a DOM Document, the same code in the tab (reader script), in the offscreen
 * document, on Firefox's background page and in Node (linkedom). Readability first; when it finds
 * no article, the page's visible text. Form controls are never read: their values can hold
 * passwords or card numbers, and they are not evidence anyway. */
import { Readability } from '@mozilla/readability';
import type { Heading, ReadablePage } from './page';
import { hashText } from '../core/text';
import { READER_RULES } from './reader-rules';

const SKIP = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'INPUT', 'TEXTAREA', 'SELECT', 'OPTION', 'BUTTON',
  'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'HEAD', 'DATALIST', 'OUTPUT', 'MATH',
]);
const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT',
  'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER',
  'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'THEAD', 'TFOOT',
  'TR', 'TD', 'TH', 'UL', 'CAPTION', 'BODY', 'HTML',
]);
/** In the visible-text fallback, page chrome is left out. */
const CHROME = new Set(['NAV', 'FOOTER', 'ASIDE']);

/** Hash of what a tab shows, cheap enough to compute on every read (no layout, no extraction). */
export function contentHash(doc: Document): string {
  return hashText(`${READER_RULES}\n${doc.title}\n${doc.body?.textContent ?? ''}`);
}

function hidden(el: Element): boolean {
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  // What the user types (mail drafts, comments, editors) is theirs, not the page's: never read.
  const editable = el.getAttribute('contenteditable');
  if ((editable !== null && editable.toLowerCase() !== 'false') || el.getAttribute('role') === 'textbox') return true;
  const style = el.getAttribute('style');
  if (style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)) return true;
  const type = el.getAttribute('type');
  if (type && /password/i.test(type)) return true;
  const ac = el.getAttribute('autocomplete');
  return !!ac && /cc-|current-password|new-password/i.test(ac);
}

interface TextOptions {
  skipChrome?: boolean;
  isHidden?: (el: Element) => boolean;
}

/** Node types whose children are walked: element, document, document fragment. */
const CONTAINERS = new Set([1, 9, 11]);

/** An element whose text is never read: not text (SKIP), hidden, or chrome when that is left out. */
const leftOut = (el: Element, tag: string, opts: TextOptions): boolean =>
  SKIP.has(tag) || hidden(el) || !!opts.isHidden?.(el) || (!!opts.skipChrome && CHROME.has(tag));

/** Collects text one line per block, recording headings with their offsets. */
class BlockText {
  private readonly lines: string[] = [];
  private readonly headings: Heading[] = [];
  private offset = 0;
  private buf = '';

  constructor(private readonly opts: TextOptions) {}

  /** Ends the current line; returns its text ('' when it had none). */
  private flush(): string {
    const t = this.buf.replace(/\s+/g, ' ').trim();
    this.buf = '';
    if (t) {
      this.lines.push(t);
      this.offset += t.length + 1;
    }
    return t;
  }

  walk(node: Node): void {
    if (node.nodeType === 3) {
      this.buf += node.nodeValue ?? '';
      return;
    }
    if (!CONTAINERS.has(node.nodeType)) return;
    const el = node as Element;
    const tag = node.nodeType === 1 ? el.tagName.toUpperCase() : '';
    if (tag && leftOut(el, tag, this.opts)) return;
    if (tag === 'PRE') return this.preformatted(el);
    const block = BLOCK.has(tag);
    if (block) this.flush();
    const at = this.offset;
    for (let c = node.firstChild; c; c = c.nextSibling) this.walk(c);
    if (block) this.heading(tag, this.flush(), at);
  }

  /** Preformatted text keeps its lines. */
  private preformatted(el: Element): void {
    this.flush();
    for (const l of (el.textContent ?? '').split('\n')) {
      this.buf = l;
      this.flush();
    }
  }

  private heading(tag: string, text: string, at: number): void {
    const level = /^H([1-6])$/.exec(tag);
    if (level && text) this.headings.push({ level: Number(level[1]), text, offset: at });
  }

  result(): { text: string; headings: Heading[] } {
    this.flush();
    return { text: this.lines.join('\n'), headings: this.headings };
  }
}

/** Text with one line per block and headings recorded with their offsets. */
export function textFromNode(root: Node, opts: TextOptions = {}): { text: string; headings: Heading[] } {
  const collector = new BlockText(opts);
  collector.walk(root);
  return collector.result();
}

export interface ExtractOptions {
  /** Readability output shorter than this falls back to the visible text. */
  minArticleChars?: number;
  hash?: string;
  /** For a rendered page: whether the user cannot see an element (CSS-hidden, zero-size text).
   * Such text is left out, so instructions hidden from the reader never reach the model. */
  isHidden?: (el: Element) => boolean;
  /** Whether only an element's own text is invisible (its children may show): the same colour as
   * its background, a tiny font, pushed away by text-indent. Its direct text is left out. */
  isTextHidden?: (el: Element) => boolean;
}

export function extractReadable(doc: Document, url: string, opts: ExtractOptions = {}): ReadablePage {
  const hash = opts.hash ?? contentHash(doc);
  const lang = doc.documentElement?.getAttribute('lang') || undefined;
  let title = (doc.title ?? '').trim();
  let out: { text: string; headings: Heading[] } | undefined;
  // What the user cannot see is gone before anything reads the page (the live page is only read).
  // Editable areas and attribute-hidden elements go too: Readability keeps some of them.
  const clean = doc.cloneNode(true) as Document;
  if (doc.body && clean.body) dropHidden(doc.body, clean.body, opts);
  try {
    // Readability changes the document it is given; the live page (and the fallback) must not see that.
    const work = clean.cloneNode(true) as Document;
    // serializer: keep the element instead of an HTML string, so no second parse is needed.
    const article = new Readability<Element>(work, { serializer: (el) => el as Element }).parse();
    if (article?.content) {
      const t = textFromNode(article.content);
      if (t.text.length >= (opts.minArticleChars ?? 200)) out = t;
      if (article.title) title = article.title.trim();
    }
  } catch {
    // Readability throws on some odd documents; the visible text below still serves.
  }
  out ??= textFromNode(clean.body ?? clean, { skipChrome: true });
  return { url, hash, title: title || url, text: out.text, headings: out.headings, lang };
}

/** Remove from `copy` the elements whose counterpart in `live` is hidden, and the direct text of
 * those whose own text is. The copy is a fresh clone of `live`, so walking both trees in step
 * pairs each element with its original; the live page is only read, never changed. */
function dropHidden(live: Element, copy: Element, opts: Pick<ExtractOptions, 'isHidden' | 'isTextHidden'>): void {
  const doomed: Node[] = [];
  const visit = (a: Element, b: Element) => {
    if (opts.isTextHidden?.(a)) for (let t = b.firstChild; t; t = t.nextSibling) if (t.nodeType === 3) doomed.push(t);
    let x = a.firstElementChild;
    let y = b.firstElementChild;
    while (x && y) {
      if (hidden(x) || opts.isHidden?.(x)) doomed.push(y);
      else visit(x, y);
      x = x.nextElementSibling;
      y = y.nextElementSibling;
    }
  };
  visit(live, copy);
  for (const n of doomed) n.parentNode?.removeChild(n);
}
