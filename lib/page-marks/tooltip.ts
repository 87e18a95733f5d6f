/** The one tooltip of the page marks: the verdict, and where the details are (the side panel).
 * Its host is a <div> with a closed shadow root; only trusted (user-made) events work it. */
import { VERDICT_ICON, type MarkLabels } from './labels';
import { TOOLTIP_CSS } from './styles';
import type { MarkVerdict } from './types';

const HIDE_DELAY_MS = 250;

export interface TooltipDeps<E> {
  doc: Document;
  labels(): MarkLabels;
  adoptCss(shadow: ShadowRoot, key: string, css: string): void;
  /** "Clear marks" in the tooltip. */
  clear(): void;
  /** The mark's piece that takes focus. */
  firstOf(entry: E): HTMLElement | undefined;
  verdictOf(entry: E): MarkVerdict;
}

/** One tooltip: the verdict, and where the details are (the side panel). */
export function createTooltip<E>(deps: TooltipDeps<E>) {
  const { doc, adoptCss } = deps;
  const win = doc.defaultView;
  let host: HTMLElement | undefined;
  let box: HTMLElement | undefined;
  let current: { entry: E; anchor: HTMLElement; point?: { x: number; y: number } } | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let hovered = false;

  const onDocKey = (e: KeyboardEvent) => {
    if (e.isTrusted && e.key === 'Escape') api.close(true);
  };
  const onViewport = () => place();

  function ensure(): { host: HTMLElement; box: HTMLElement } {
    if (host && box && host.isConnected) return { host, box };
    host = doc.createElement('div');
    const shadow = host.attachShadow({ mode: 'closed' });
    adoptCss(shadow, 'tooltip', TOOLTIP_CSS);
    box = doc.createElement('div');
    box.className = 'box';
    box.setAttribute('role', 'dialog');
    shadow.append(box);
    box.addEventListener('mouseenter', (e) => {
      if (!e.isTrusted) return;
      hovered = true;
      cancelHide();
    });
    box.addEventListener('mouseleave', (e) => {
      if (!e.isTrusted) return;
      hovered = false;
      api.hideSoon();
    });
    box.addEventListener('keydown', (e) => {
      if (e.isTrusted && e.key === 'Escape') api.close(true);
    });
    box.addEventListener('focusout', (e) => e.isTrusted && api.blurFrom(e.relatedTarget));
    // The top layer puts it above the page's own overlays; older browsers get z-index only.
    if (typeof host.showPopover === 'function') host.setAttribute('popover', 'manual');
    (doc.body ?? doc.documentElement).append(host);
    return { host, box };
  }

  function cancelHide() {
    if (hideTimer !== undefined) clearTimeout(hideTimer);
    hideTimer = undefined;
  }

  /** Below the line the pointer is on (or the mark's first line), above it when there is no room. */
  function place() {
    if (!current || !box || !win) return;
    const rects = [...current.anchor.getClientRects()];
    const p = current.point;
    const line = (p && rects.find((r) => p.y >= r.top - 2 && p.y <= r.bottom + 2)) ?? rects[0] ?? current.anchor.getBoundingClientRect();
    const { width, height } = box.getBoundingClientRect();
    const left = Math.max(8, Math.min((p?.x ?? line.left) - 16, win.innerWidth - width - 8));
    let top = line.bottom + 6;
    if (top + height > win.innerHeight - 8 && line.top - height - 6 >= 8) top = line.top - height - 6;
    box.style.left = `${Math.round(left)}px`;
    box.style.top = `${Math.round(top)}px`;
  }

  function render(box: HTMLElement, verdict: MarkVerdict) {
    box.replaceChildren();
    box.className = `box ${verdict}`;
    const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] => {
      const e = doc.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const head = el('div', 'head');
    head.id = 'ratify-head';
    const badge = el('span', 'badge', VERDICT_ICON[verdict]);
    badge.setAttribute('aria-hidden', 'true');
    head.append(badge, el('span', 'verdict', deps.labels().verdict[verdict]));
    box.setAttribute('aria-labelledby', 'ratify-head');
    box.setAttribute('aria-description', deps.labels().dialog);
    box.append(head, el('p', 'explanation', deps.labels().details));
    const actions = el('div', 'actions');
    const clearBtn = el('button', 'clear', deps.labels().clear);
    clearBtn.type = 'button';
    clearBtn.addEventListener('click', (e) => e.isTrusted && deps.clear());
    const close = el('button', 'close', '×');
    close.type = 'button';
    close.setAttribute('aria-label', deps.labels().close);
    close.addEventListener('click', (e) => e.isTrusted && api.close(true));
    actions.append(clearBtn, close);
    box.append(actions);
  }

  const api = {
    open(entry: E, anchor: HTMLElement, e: MouseEvent | undefined, moveFocus: boolean) {
      cancelHide();
      const { host, box } = ensure();
      const point = e ? { x: e.clientX, y: e.clientY } : undefined;
      if (current?.entry !== entry) render(box, deps.verdictOf(entry));
      current = { entry, anchor, point };
      if (!host.hasAttribute('data-open')) {
        host.setAttribute('data-open', '');
        if (host.hasAttribute('popover')) host.showPopover();
        doc.addEventListener('keydown', onDocKey);
        win?.addEventListener('scroll', onViewport, { capture: true, passive: true });
        win?.addEventListener('resize', onViewport, { passive: true });
      }
      place();
      if (moveFocus) box.querySelector<HTMLElement>('button')?.focus();
    },
    ownedBy: (entry: E) => current?.entry === entry,
    close(returnFocus: boolean) {
      cancelHide();
      if (!host?.hasAttribute('data-open')) return;
      const back = current && deps.firstOf(current.entry);
      const hadFocus = returnFocus && host.matches(':focus-within');
      host.removeAttribute('data-open');
      if (host.hasAttribute('popover')) host.hidePopover();
      doc.removeEventListener('keydown', onDocKey);
      win?.removeEventListener('scroll', onViewport, { capture: true });
      win?.removeEventListener('resize', onViewport);
      current = undefined;
      hovered = false;
      if (hadFocus && back?.isConnected) back.focus({ preventScroll: true });
    },
    hideSoon() {
      cancelHide();
      hideTimer = setTimeout(() => {
        // Stay open while the reader is in it by keyboard or pointer.
        const focusInside = host?.matches(':focus-within') || (current && doc.activeElement === deps.firstOf(current.entry));
        if (!hovered && !focusInside) api.close(false);
      }, HIDE_DELAY_MS);
    },
    blurFrom(to: EventTarget | null) {
      if (to instanceof Node && (to === host || to === (current && deps.firstOf(current.entry)) || box?.contains(to))) return;
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
