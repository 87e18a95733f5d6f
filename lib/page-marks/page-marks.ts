/** The page side of verdict marks: wraps each found sentence in <ratify-mark> elements, shows one
 * tooltip for the hovered or focused mark, and puts the page back exactly as it was on clear.
 *
 * Rules that keep the page intact: only the matched text is touched (text nodes are split at the
 * match and the middle part moved into a mark); styles live in shadow roots; listeners sit on our
 * own elements (plus Escape on the document while the tooltip is open) and never stop an event
 * from reaching the page's handlers. Model and page text go in as textContent only. */
import { findSentences, type TextSegment } from './find-text';
import { VERDICT_ICON, marksLabels, marksLanguage, type MarkLabels } from './labels';
import { MARK_CSS, TOOLTIP_CSS } from './styles';
import { MARK_VERDICTS, type PageMark, type PageMarksApi, type ShowMarksOptions, type ShowMarksResult } from './types';

export const MARK_TAG = 'ratify-mark';
export const TOOLTIP_TAG = 'ratify-tooltip';

const MAX_MARKS = 200;
const MAX_TEXT = 2000;
const MAX_SOURCES = 20;
const HIDE_DELAY_MS = 250;

/** Marks arrive from the worker, but their text comes from a model: check shapes and sizes. */
export function sanitizeMarks(input: unknown): PageMark[] {
  if (!Array.isArray(input)) return [];
  const str = (v: unknown, max = MAX_TEXT): string | undefined => (typeof v === 'string' && v.trim() ? v.slice(0, max) : undefined);
  const out: PageMark[] = [];
  for (const raw of input.slice(0, MAX_MARKS)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const m = raw as Record<string, unknown>;
    const sentence = str(m.sentence);
    const verdict = MARK_VERDICTS.find((v) => v === m.verdict);
    if (!sentence || !verdict) continue;
    const sources = (Array.isArray(m.sources) ? m.sources : []).slice(0, MAX_SOURCES).flatMap((s: unknown) => {
      if (typeof s !== 'object' || s === null) return [];
      const r = s as Record<string, unknown>;
      const url = str(r.url, 4000) ?? '';
      return [{ n: typeof r.n === 'number' && Number.isFinite(r.n) ? r.n : 0, title: str(r.title, 300) ?? url, url }];
    });
    out.push({ sentence, verdict, correction: str(m.correction), explanation: str(m.explanation), sources });
  }
  return out;
}

/** The URL when it is http(s), else undefined: anything else (javascript:, data:, file:) is shown
 * as text, never as a link. */
export function httpUrl(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

interface Split {
  left: Text;
  right: Text;
}

interface ShownMark {
  mark: PageMark;
  /** The mark's pieces in document order; the first is the one that takes focus. */
  els: HTMLElement[];
}

export function createPageMarks(doc: Document): PageMarksApi {
  const win = doc.defaultView;
  let shown: ShownMark[] = [];
  let splits: Split[] = [];
  let labels: MarkLabels = marksLabels('en');
  const sheets = new Map<string, CSSStyleSheet | null>();
  const tip = createTooltip();

  function show(input: PageMark[], options: ShowMarksOptions = {}): ShowMarksResult {
    clear();
    const marks = sanitizeMarks(input);
    labels = marksLabels(options.language ?? marksLanguage(win?.navigator.language));
    const root = doc.body ?? doc.documentElement;
    const found = findSentences(root, marks.map((m) => m.sentence), { isVisible });

    // Split from the end of each text node backwards so the offsets of earlier segments in the
    // same node stay valid.
    const pieces: { seg: TextSegment; mark: number; order: number }[] = [];
    found.forEach((segs, mark) => segs?.forEach((seg, order) => pieces.push({ seg, mark, order })));
    const byNode = new Map<Text, typeof pieces>();
    for (const p of pieces) byNode.set(p.seg.node, [...(byNode.get(p.seg.node) ?? []), p]);
    const els: HTMLElement[][] = marks.map(() => []);
    for (const group of byNode.values()) {
      group.sort((a, b) => b.seg.start - a.seg.start);
      for (const p of group) (els[p.mark] ??= [])[p.order] = wrap(p.seg);
    }

    const missing: string[] = [];
    marks.forEach((mark, i) => {
      const pieces = els[i];
      if (!found[i] || !pieces?.length) {
        missing.push(mark.sentence);
        return;
      }
      const entry: ShownMark = { mark, els: pieces };
      shown.push(entry);
      decorate(entry);
    });
    return { shown: shown.length, missing };
  }

  function wrap({ node, start, end }: TextSegment): HTMLElement {
    if (end < node.length) splits.push({ left: node, right: node.splitText(end) });
    let middle = node;
    if (start > 0) {
      middle = node.splitText(start);
      splits.push({ left: node, right: middle });
    }
    const el = doc.createElement(MARK_TAG);
    middle.parentNode?.insertBefore(el, middle);
    el.appendChild(middle);
    return el;
  }

  function decorate(entry: ShownMark) {
    const { mark, els } = entry;
    const text = els.map((e) => e.textContent ?? '').join(' ').replace(/\s+/g, ' ').trim();
    els.forEach((el, i) => {
      el.setAttribute('data-verdict', mark.verdict);
      const shadow = el.attachShadow?.({ mode: 'closed' });
      if (shadow) {
        adoptCss(shadow, 'mark', MARK_CSS);
        shadow.append(doc.createElement('slot'));
        if (i === els.length - 1) {
          const icon = doc.createElement('span');
          icon.className = 'icon';
          icon.setAttribute('aria-hidden', 'true');
          shadow.append(icon);
        }
      }
      el.addEventListener('mouseenter', (e) => tip.open(entry, el, e as MouseEvent, false));
      el.addEventListener('mouseleave', () => tip.hideSoon());
    });
    // One tab stop per mark, on its first piece; it carries the whole story for screen readers.
    const first = els[0];
    if (!first) return;
    first.tabIndex = 0;
    first.setAttribute('role', 'button');
    first.setAttribute('aria-haspopup', 'dialog');
    const parts = [labels.markAria.replace('{verdict}', labels.verdict[mark.verdict]).replace('{sentence}', text)];
    if (mark.correction) parts.push(`${labels.shouldRead} ${mark.correction}`);
    parts.push(labels.hint);
    first.setAttribute('aria-label', parts.join(' '));
    first.addEventListener('focus', () => tip.open(entry, first, undefined, false));
    first.addEventListener('blur', (e) => tip.blurFrom((e as FocusEvent).relatedTarget));
    first.addEventListener('keydown', (e) => {
      const k = (e as KeyboardEvent).key;
      if (k === 'Enter' || k === ' ') {
        e.preventDefault(); // Space would scroll the page
        tip.open(entry, first, undefined, true);
      } else if (k === 'Escape') tip.close(false);
    });
  }

  function clear() {
    tip.close(false);
    for (const { els } of shown) {
      for (const el of els) {
        const parent = el.parentNode;
        if (!parent) continue;
        while (el.firstChild) parent.insertBefore(el.firstChild, el);
        el.remove();
      }
    }
    // Undo the splits newest first, and only where the two halves are still neighbours: the page
    // may have changed in between, and its own adjacent text nodes are never merged.
    for (let i = splits.length - 1; i >= 0; i--) {
      const { left, right } = splits[i] as Split;
      if (right.previousSibling === left) {
        left.appendData(right.data);
        right.remove();
      }
    }
    shown = [];
    splits = [];
    tip.remove();
  }

  function isVisible(el: Element): boolean {
    if (typeof el.checkVisibility !== 'function') return true;
    if (el.checkVisibility()) return true;
    // display: contents has no box of its own, yet its children show.
    return win?.getComputedStyle(el).display === 'contents';
  }

  /** A constructed sheet where the page's CSP and the browser allow it, else a <style> (Firefox
   * content scripts cannot always adopt sheets across the Xray boundary). */
  function adoptCss(shadow: ShadowRoot, key: string, css: string) {
    let sheet = sheets.get(key);
    if (sheet === undefined) {
      try {
        sheet = new (win as Window & typeof globalThis).CSSStyleSheet();
        sheet.replaceSync(css);
      } catch {
        sheet = null;
      }
      sheets.set(key, sheet);
    }
    if (sheet) {
      try {
        shadow.adoptedStyleSheets = [sheet];
        return;
      } catch {
        sheets.set(key, null);
      }
    }
    const style = doc.createElement('style');
    style.textContent = css;
    shadow.append(style);
  }

  function createTooltip() {
    let host: HTMLElement | undefined;
    let box: HTMLElement | undefined;
    let owner: { entry: ShownMark; anchor: HTMLElement; point?: { x: number; y: number } } | undefined;
    let hideTimer: ReturnType<typeof setTimeout> | undefined;
    let hovered = false;

    const onDocKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') api.close(true);
    };
    const onViewport = () => place();

    function ensure(): { host: HTMLElement; box: HTMLElement } {
      if (host && box && host.isConnected) return { host, box };
      host = doc.createElement(TOOLTIP_TAG);
      const shadow = host.attachShadow({ mode: 'closed' });
      adoptCss(shadow, 'tooltip', TOOLTIP_CSS);
      box = doc.createElement('div');
      box.className = 'box';
      box.setAttribute('role', 'dialog');
      shadow.append(box);
      box.addEventListener('mouseenter', () => {
        hovered = true;
        cancelHide();
      });
      box.addEventListener('mouseleave', () => {
        hovered = false;
        api.hideSoon();
      });
      box.addEventListener('keydown', (e) => {
        if (e.key === 'Escape') api.close(true);
      });
      box.addEventListener('focusout', (e) => api.blurFrom(e.relatedTarget));
      (doc.body ?? doc.documentElement).append(host);
      return { host, box };
    }

    function cancelHide() {
      if (hideTimer !== undefined) clearTimeout(hideTimer);
      hideTimer = undefined;
    }

    /** Below the line the pointer is on (or the mark's first line), above it when there is no room. */
    function place() {
      if (!owner || !box || !win) return;
      const rects = [...owner.anchor.getClientRects()];
      const p = owner.point;
      const line = (p && rects.find((r) => p.y >= r.top - 2 && p.y <= r.bottom + 2)) ?? rects[0] ?? owner.anchor.getBoundingClientRect();
      const { width, height } = box.getBoundingClientRect();
      const vw = win.innerWidth;
      const vh = win.innerHeight;
      const left = Math.max(8, Math.min((p?.x ?? line.left) - 16, vw - width - 8));
      let top = line.bottom + 6;
      if (top + height > vh - 8 && line.top - height - 6 >= 8) top = line.top - height - 6;
      box.style.left = `${Math.round(left)}px`;
      box.style.top = `${Math.round(top)}px`;
    }

    function render(box: HTMLElement, mark: PageMark) {
      box.replaceChildren();
      box.className = `box ${mark.verdict}`;
      const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] => {
        const e = doc.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined) e.textContent = text;
        return e;
      };
      const head = el('div', 'head');
      head.id = 'ratify-head';
      const badge = el('span', 'badge', VERDICT_ICON[mark.verdict]);
      badge.setAttribute('aria-hidden', 'true');
      head.append(badge, el('span', 'verdict', labels.verdict[mark.verdict]));
      box.setAttribute('aria-labelledby', 'ratify-head');
      box.setAttribute('aria-description', labels.dialog);
      box.append(head);
      if (mark.correction) {
        const p = el('p', 'correction');
        p.append(el('span', 'label', labels.shouldRead), ' ', el('span', 'corrected', mark.correction));
        box.append(p);
      }
      if (mark.explanation) box.append(el('p', 'explanation', mark.explanation));
      box.append(el('p', 'sources-title', labels.sources));
      if (mark.sources.length) {
        const list = el('ol', 'sources');
        for (const s of mark.sources) {
          const li = el('li');
          li.append(el('span', 'n', `[${s.n}]`));
          const href = httpUrl(s.url);
          if (href) {
            const a = el('a', undefined, s.title);
            a.href = href;
            a.target = '_blank';
            a.rel = 'noopener noreferrer';
            li.append(a, ' ', el('span', 'site', new URL(href).hostname));
          } else {
            li.append(el('span', 'title', s.title));
          }
          list.append(li);
        }
        box.append(list);
      } else {
        box.append(el('p', 'explanation', labels.noSources));
      }
      const actions = el('div', 'actions');
      const clearBtn = el('button', 'clear', labels.clear);
      clearBtn.type = 'button';
      clearBtn.addEventListener('click', () => clear());
      const close = el('button', 'close', '×');
      close.type = 'button';
      close.setAttribute('aria-label', labels.close);
      close.addEventListener('click', () => api.close(true));
      actions.append(clearBtn, close);
      box.append(actions);
    }

    const api = {
      open(entry: ShownMark, anchor: HTMLElement, e: MouseEvent | undefined, moveFocus: boolean) {
        cancelHide();
        const { host, box } = ensure();
        const point = e ? { x: e.clientX, y: e.clientY } : undefined;
        if (owner?.entry !== entry) render(box, entry.mark);
        owner = { entry, anchor, point };
        if (!host.hasAttribute('data-open')) {
          host.setAttribute('data-open', '');
          // The top layer puts it above the page's own overlays; older browsers get z-index only.
          if (typeof host.showPopover === 'function') {
            host.setAttribute('popover', 'manual');
            host.showPopover();
          }
          doc.addEventListener('keydown', onDocKey);
          win?.addEventListener('scroll', onViewport, { capture: true, passive: true });
          win?.addEventListener('resize', onViewport, { passive: true });
        }
        place();
        if (moveFocus) box.querySelector<HTMLElement>('a, button')?.focus();
      },
      close(returnFocus: boolean) {
        cancelHide();
        if (!host?.hasAttribute('data-open')) return;
        const back = owner?.entry.els[0];
        const hadFocus = returnFocus && host.matches(':focus-within');
        host.removeAttribute('data-open');
        if (host.hasAttribute('popover')) host.hidePopover();
        doc.removeEventListener('keydown', onDocKey);
        win?.removeEventListener('scroll', onViewport, { capture: true });
        win?.removeEventListener('resize', onViewport);
        owner = undefined;
        hovered = false;
        if (hadFocus && back?.isConnected) back.focus({ preventScroll: true });
      },
      hideSoon() {
        cancelHide();
        hideTimer = setTimeout(() => {
          // Stay open while the reader is in it by keyboard or pointer.
          const focusInside = host?.matches(':focus-within') || (owner && doc.activeElement === owner.entry.els[0]);
          if (!hovered && !focusInside) api.close(false);
        }, HIDE_DELAY_MS);
      },
      blurFrom(to: EventTarget | null) {
        if (to instanceof Node && (to === host || to === owner?.entry.els[0] || box?.contains(to))) return;
        api.hideSoon();
      },
      remove() {
        api.close(false);
        host?.remove();
        host = box = undefined;
      },
    };
    return api;
  }

  return {
    show,
    clear,
    count: () => shown.length,
  };
}
