/** The page side of verdict marks: wraps each found sentence in marks, shows one small tooltip for
 * the hovered or focused mark, and puts the page back exactly as it was on clear.
 *
 * The page is hostile ground (its scripts share the DOM with us, though not our JavaScript
 * world), so a mark tells the page nothing it did not show already: the verdict of the page's own
 * sentence. The correction, the explanation and the sources (written from other tabs and the web)
 * stay in the side panel. And the page cannot take marks over:
 * - marks and the tooltip are <span>/<div> with closed shadow roots, attached before they enter
 *   the page: no custom-element name a page could define first (a page's custom element class
 *   would run its own code and reach a closed root through ElementInternals.shadowRoot);
 * - the verdict lives in this script's memory and is drawn inside the shadow root; attributes the
 *   page changes on a mark are put back;
 * - a mark whose text the page changes is removed (the verdict was for the old text);
 * - only trusted (user-made) events open the tooltip or press its buttons;
 * - the extension only ever touches the marks it made (kept here), never anything found by a
 *   selector, so a forged mark is just page content.
 *
 * Rules that keep the page intact: only the matched text is touched (text nodes are split at the
 * match and the middle part moved into a mark); styles live in shadow roots; listeners sit on our
 * own elements (plus Escape on the document while the tooltip is open) and never stop an event
 * from reaching the page's handlers. Page text goes in as textContent only. */
import { findSentences, type TextSegment } from './find-text';
import { marksLabels, marksLanguage, type MarkLabels } from './labels';
import { createTooltip, type Tooltip } from './tooltip';
import { MARK_CSS } from './styles';
import { MARK_VERDICTS, type MarkVerdict, type PageMark, type PageMarksApi, type ShowMarksOptions, type ShowMarksResult } from './types';
import { foldText } from './find-text';

/** What the page script is given by its entrypoint: the tab reader's visibility rules (so nothing
 * the reader leaves out is ever marked), and where "Show in Ratify" goes. */
export interface PageMarksEnv {
  /** Fresh checks for each drawing (styles and layout change). */
  visibility?: () => { isHidden(el: Element): boolean; isTextHidden(el: Element): boolean };
  onShow?(runId: string, sentence: string): void;
}

/** The attribute every mark piece carries, so users' tools (and tests) can find marks. It names no
 * verdict, and the extension never looks marks up by it. */
export const MARK_ATTR = 'data-ratify-mark';

const MAX_MARKS = 200;

/** Marks arrive from the worker: check shapes and sizes, and keep only what the page may see. */
export function sanitizeMarks(input: unknown): PageMark[] {
  if (!Array.isArray(input)) return [];
  const out: PageMark[] = [];
  for (const raw of input.slice(0, MAX_MARKS)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const m = raw as Record<string, unknown>;
    const sentence = typeof m.sentence === 'string' && m.sentence.trim() ? m.sentence.slice(0, 2000) : undefined;
    const verdict = MARK_VERDICTS.find((v) => v === m.verdict);
    if (sentence && verdict) out.push({ sentence, verdict });
  }
  return out;
}

interface Split {
  left: Text;
  right: Text;
}

interface ShownMark {
  verdict: MarkVerdict;
  /** The sentence as the worker gave it (what "Show in Ratify" names). */
  sentence: string;
  /** The mark's pieces in document order; the first is the one that takes focus. */
  els: HTMLElement[];
  /** Each piece's text when it was marked: the verdict holds for this text only. */
  texts: string[];
  /** The attributes each piece must carry (role, tabindex, label): put back if the page changes them. */
  attrs: Record<string, string>[];
}

const isTrusted = (e: Event) => e.isTrusted;

export function createPageMarks(doc: Document, env: PageMarksEnv = {}): PageMarksApi {
  const marks = new PageMarks(doc, env);
  return {
    show: (input, options) => marks.show(input, options),
    clear: () => marks.clear(),
    reveal: (sentence) => marks.reveal(sentence),
    // Marks the page has since removed (a re-render) are gone for the reader too.
    count: () => marks.count(),
  };
}

class PageMarks {
  private readonly win: Window | null;
  private shown: ShownMark[] = [];
  private runId: string | undefined;
  private splits: Split[] = [];
  private labels: MarkLabels = marksLabels('en');
  private readonly sheets = new Map<string, CSSStyleSheet | null>();
  private readonly owner = new Map<Node, ShownMark>();
  /** Closed roots are handed out only by attachShadow: kept here for drawing the icon. */
  private readonly roots = new WeakMap<Element, ShadowRoot>();
  private readonly tip: Tooltip<ShownMark>;
  private readonly observer: MutationObserver | undefined;
  /** What is drawn now: the same marks asked for again (a run's last verdict, then its end, in
   * another order) are left as they are, so a tooltip being read or a mark being focused is not taken away. */
  private drawn: { key: string; result: ShowMarksResult } | undefined;

  constructor(
    private readonly doc: Document,
    private readonly env: PageMarksEnv,
  ) {
    const win = (this.win = doc.defaultView);
    this.tip = createTooltip<ShownMark>({
      doc,
      labels: () => this.labels,
      adoptCss: (shadow, key, css) => this.adoptCss(shadow, key, css),
      clear: () => this.clear(),
      firstOf: (e) => e.els[0],
      verdictOf: (e) => e.verdict,
      // The tooltip is placed where it covers no other mark.
      others: (e) => this.shown.filter((x) => x !== e).flatMap((x) => x.els.flatMap((el) => [...el.getClientRects()])),
      // Offered only for marks that name their run (the worker's).
      ...(env.onShow ? { onShow: (e: ShownMark) => this.runId && env.onShow?.(this.runId, e.sentence), canShow: () => this.runId !== undefined } : {}),
    });
    this.observer = win?.MutationObserver ? new win.MutationObserver((records) => this.onPageChange(records)) : undefined;
  }

  show(input: PageMark[], options: ShowMarksOptions = {}): ShowMarksResult {
    const marks = sanitizeMarks(input);
    // In any order: a page check's marks come in the order verdicts land, its end's in page order.
    const key = JSON.stringify([options.runId ?? null, options.language ?? null, marks.map((m) => `${m.verdict}\n${m.sentence}`).sort()]);
    if (this.drawn?.key === key && this.shown.every((e) => e.els.every((el) => el.isConnected))) return this.drawn.result;
    this.clear();
    this.runId = typeof options.runId === 'string' ? options.runId : undefined;
    this.labels = marksLabels(options.language ?? marksLanguage(this.win?.navigator.language));
    const found = this.find(marks);
    const missing = this.keep(marks, found, this.wrapAll(marks, found));
    this.observer?.takeRecords(); // our own changes
    const result = { shown: this.shown.length, missing };
    this.drawn = { key, result };
    return result;
  }

  /** Where each mark's sentence is, in what the tab reader reads (nothing it leaves out). */
  private find(marks: PageMark[]): (TextSegment[] | undefined)[] {
    const root = this.doc.body ?? this.doc.documentElement;
    const hidden = this.env.visibility?.();
    return findSentences(
      root,
      marks.map((m) => m.sentence),
      { isVisible: (el) => this.isVisible(el) && !hidden?.isHidden(el), ...(hidden ? { isTextHidden: (el: Element) => hidden.isTextHidden(el) } : {}) },
    );
  }

  /** Wraps every found segment, and gives each mark's pieces in order. Split from the end of each
   * text node backwards so the offsets of earlier segments in the same node stay valid. */
  private wrapAll(marks: PageMark[], found: (TextSegment[] | undefined)[]): HTMLElement[][] {
    const pieces: { seg: TextSegment; mark: number; order: number }[] = [];
    found.forEach((segs, mark) => segs?.forEach((seg, order) => pieces.push({ seg, mark, order })));
    const byNode = new Map<Text, typeof pieces>();
    for (const p of pieces) byNode.set(p.seg.node, [...(byNode.get(p.seg.node) ?? []), p]);
    const els: HTMLElement[][] = marks.map(() => []);
    for (const group of byNode.values()) {
      group.sort((a, b) => b.seg.start - a.seg.start);
      for (const p of group) (els[p.mark] ??= [])[p.order] = this.wrap(p.seg, marks[p.mark]?.verdict ?? 'unverifiable');
    }
    return els;
  }

  /** Keeps (and decorates) every mark that was found; gives the sentences that were not. */
  private keep(marks: PageMark[], found: (TextSegment[] | undefined)[], els: HTMLElement[][]): string[] {
    const missing: string[] = [];
    marks.forEach((mark, i) => {
      const pieces = els[i];
      if (!found[i] || !pieces?.length) {
        missing.push(mark.sentence);
        return;
      }
      const entry: ShownMark = { verdict: mark.verdict, sentence: mark.sentence, els: pieces, texts: pieces.map((e) => e.textContent ?? ''), attrs: [] };
      this.shown.push(entry);
      this.decorate(entry);
    });
    return missing;
  }

  /** A mark piece: a span whose closed shadow root draws the verdict, made whole before the page
   * can see it. */
  private wrap({ node, start, end }: TextSegment, verdict: MarkVerdict): HTMLElement {
    const { doc } = this;
    if (end < node.length) this.splits.push({ left: node, right: node.splitText(end) });
    let middle = node;
    if (start > 0) {
      middle = node.splitText(start);
      this.splits.push({ left: node, right: middle });
    }
    const el = doc.createElement('span');
    const shadow = el.attachShadow({ mode: 'closed' });
    this.roots.set(el, shadow);
    this.adoptCss(shadow, 'mark', MARK_CSS);
    const face = doc.createElement('span');
    face.className = `m ${verdict}`;
    face.append(doc.createElement('slot'));
    shadow.append(face);
    middle.parentNode?.insertBefore(el, middle);
    el.appendChild(middle);
    return el;
  }

  /** A found mark's attributes, icon and listeners: one tab stop on its first piece, the tooltip
   * on hover and focus, and the page's changes watched. */
  private decorate(entry: ShownMark): void {
    const { els } = entry;
    const text = els.map((e) => e.textContent ?? '').join(' ').replace(/\s+/g, ' ').trim();
    els.forEach((el, i) => {
      const attrs: Record<string, string> = { [MARK_ATTR]: '' };
      if (i === 0) {
        // One tab stop per mark, on its first piece: the verdict and the page's own sentence.
        const label = this.labels.markAria.replace('{verdict}', this.labels.verdict[entry.verdict]).replace('{sentence}', text);
        Object.assign(attrs, { tabindex: '0', role: 'button', 'aria-haspopup': 'dialog', 'aria-label': `${label} ${this.labels.hint}` });
      }
      entry.attrs[i] = attrs;
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      if (i === els.length - 1) this.addIcon(el, entry.verdict);
      this.owner.set(el, entry);
      this.observer?.observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
      el.addEventListener('mouseenter', (e) => isTrusted(e) && this.tip.hover(entry, el, e));
      el.addEventListener('mouseleave', (e) => isTrusted(e) && this.tip.unhover());
    });
    const first = els[0];
    if (first) this.listenOnFirst(entry, first);
  }

  private addIcon(el: HTMLElement, verdict: MarkVerdict): void {
    const icon = this.doc.createElement('span');
    icon.className = `icon ${verdict}`;
    icon.setAttribute('aria-hidden', 'true');
    this.roots.get(el)?.append(icon);
  }

  /** The mark's tab stop: focus shows the tooltip, Enter or Space moves into it, Escape closes it. */
  private listenOnFirst(entry: ShownMark, first: HTMLElement): void {
    const { tip } = this;
    first.addEventListener('focus', (e) => isTrusted(e) && tip.open(entry, first, undefined, false));
    first.addEventListener('blur', (e) => isTrusted(e) && tip.blurFrom(e.relatedTarget));
    first.addEventListener('keydown', (e) => {
      if (!isTrusted(e)) return;
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault(); // Space would scroll the page
        tip.open(entry, first, undefined, true);
      } else if (e.key === 'Escape') tip.close(false);
    });
  }

  /** The page touched a mark: attributes are put back; changed text ends that mark. */
  private onPageChange(records: MutationRecord[]): void {
    const changed = new Set<ShownMark>();
    for (const r of records) {
      let node: Node | null = r.target;
      while (node && !this.owner.has(node)) node = node.parentNode;
      const entry = node && this.owner.get(node);
      if (!entry) continue;
      if (r.type === 'attributes') restoreAttrs(entry);
      else changed.add(entry);
    }
    for (const entry of changed) {
      if (entry.els.some((el, i) => el.textContent !== entry.texts[i] || el.childNodes.length !== 1)) this.remove(entry);
    }
    this.observer?.takeRecords(); // our own repairs
  }

  /** Unwraps one mark's pieces, leaving whatever text is in them now. */
  private remove(entry: ShownMark): void {
    if (this.tip.ownedBy(entry)) this.tip.close(false);
    for (const el of entry.els) {
      this.owner.delete(el);
      const parent = el.parentNode;
      if (!parent) continue;
      while (el.firstChild) parent.insertBefore(el.firstChild, el);
      el.remove();
    }
    this.shown = this.shown.filter((x) => x !== entry);
  }

  clear(): void {
    this.drawn = undefined;
    this.tip.close(false);
    this.observer?.disconnect();
    for (const entry of [...this.shown]) this.remove(entry);
    // Undo the splits newest first, and only where the two halves are still neighbours: the page
    // may have changed in between, and its own adjacent text nodes are never merged.
    for (let i = this.splits.length - 1; i >= 0; i--) {
      const { left, right } = this.splits[i] as Split;
      if (right.previousSibling === left) {
        left.appendData(right.data);
        right.remove();
      }
    }
    this.shown = [];
    this.splits = [];
    this.tip.remove();
  }

  private isVisible(el: Element): boolean {
    if (typeof el.checkVisibility !== 'function') return true;
    if (el.checkVisibility()) return true;
    // display: contents has no box of its own, yet its children show.
    return this.win?.getComputedStyle(el).display === 'contents';
  }

  /** A constructed sheet where the page's CSP and the browser allow it, else a <style> (Firefox
   * content scripts cannot always adopt sheets across the Xray boundary). */
  private adoptCss(shadow: ShadowRoot, key: string, css: string): void {
    let sheet = this.sheets.get(key);
    if (sheet === undefined) {
      try {
        sheet = new (this.win as Window & typeof globalThis).CSSStyleSheet();
        sheet.replaceSync(css);
      } catch {
        sheet = null;
      }
      this.sheets.set(key, sheet);
    }
    if (sheet) {
      try {
        shadow.adoptedStyleSheets = [sheet];
        return;
      } catch {
        this.sheets.set(key, null);
      }
    }
    const style = this.doc.createElement('style');
    style.textContent = css;
    shadow.append(style);
  }

  /** The mark of a sentence, brought into view with its tooltip (a claim clicked in the panel). */
  reveal(sentence: string): boolean {
    const want = foldText(String(sentence));
    const entry = this.shown.find((e) => foldText(e.sentence) === want && e.els.every((el) => el.isConnected));
    const first = entry?.els[0];
    if (!entry || !first) return false;
    first.scrollIntoView({ block: 'center', inline: 'nearest' });
    this.tip.open(entry, first, undefined, false);
    return true;
  }

  count(): number {
    return this.shown.filter((e) => e.els.every((el) => el.isConnected)).length;
  }
}

/** Puts back the attributes a mark's pieces must carry (the page changed them). */
function restoreAttrs(entry: ShownMark): void {
  entry.els.forEach((el, i) => {
    const want = entry.attrs[i] ?? {};
    for (const a of [...el.attributes]) if (!(a.name in want)) el.removeAttribute(a.name);
    for (const [k, v] of Object.entries(want)) if (el.getAttribute(k) !== v) el.setAttribute(k, v);
  });
}
