/** The one tooltip of the page marks: the verdict, what it means, and "Show in Ratify" (the claim
 * in the side panel, where its correction and sources are). Its host is a <div> with a closed
 * shadow root; only trusted (user-made) events work it. It is placed where it covers no other
 * mark: below or above the line, pushed past any mark in the way, else beside the mark. */
import { VERDICT_ICON, type MarkLabels } from './labels';
import { TOOLTIP_CSS } from './styles';
import type { MarkVerdict } from './types';

const HIDE_DELAY_MS = 250;
/** How long the pointer must rest on another mark before its tooltip replaces the open one. */
const SWITCH_DELAY_MS = 180;

export interface TooltipDeps<E> {
  doc: Document;
  labels(): MarkLabels;
  adoptCss(shadow: ShadowRoot, key: string, css: string): void;
  /** "Clear marks" in the tooltip. */
  clear(): void;
  /** The mark's piece that takes focus. */
  firstOf(entry: E): HTMLElement | undefined;
  verdictOf(entry: E): MarkVerdict;
  /** Where the other marks are (viewport rectangles): the tooltip must not cover them. */
  others?(entry: E): DOMRect[];
  /** "Show in Ratify": opens this mark's claim in the panel (offered when `canShow` says so). */
  onShow?(entry: E): void;
  canShow?(): boolean;
}

type Box = { left: number; top: number; width: number; height: number };

function overlap(a: Box, r: DOMRect): number {
  const w = Math.min(a.left + a.width, r.right) - Math.max(a.left, r.left);
  const h = Math.min(a.top + a.height, r.bottom) - Math.max(a.top, r.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** One tooltip: the verdict, and where the details are (the side panel). */
export function createTooltip<E>(deps: TooltipDeps<E>) {
  const { doc, adoptCss } = deps;
  const win = doc.defaultView;
  let host: HTMLElement | undefined;
  let box: HTMLElement | undefined;
  let current: { entry: E; anchor: HTMLElement; point?: { x: number; y: number } } | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let switchTimer: ReturnType<typeof setTimeout> | undefined;
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
      // On the way to the tooltip the pointer may cross other marks: they do not take it over.
      cancelSwitch();
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

  function cancelSwitch() {
    if (switchTimer !== undefined) clearTimeout(switchTimer);
    switchTimer = undefined;
  }

  function cancelHide() {
    if (hideTimer !== undefined) clearTimeout(hideTimer);
    hideTimer = undefined;
  }

  /** Below the line the pointer is on (or the mark's first line), else above it, each pushed past
   * the marks in the way, else beside the mark: the first place that covers no other mark and fits
   * in the window; if none does, the one that covers least. */
  function place() {
    if (!current || !box || !win) return;
    const rects = [...current.anchor.getClientRects()];
    const p = current.point;
    const line = (p && rects.find((r) => p.y >= r.top - 2 && p.y <= r.bottom + 2)) ?? rects[0] ?? current.anchor.getBoundingClientRect();
    const { width, height } = box.getBoundingClientRect();
    const avoid = [...(deps.others?.(current.entry) ?? []), ...rects.filter((r) => r !== line)];
    const fits = (b: Box) => b.left >= 4 && b.top >= 4 && b.left + b.width <= win.innerWidth - 4 && b.top + b.height <= win.innerHeight - 4;
    const cost = (b: Box) => avoid.reduce((n, r) => n + overlap(b, r), 0);
    const clampX = (x: number) => Math.max(8, Math.min(x, win.innerWidth - width - 8));
    const lefts = [...new Set([clampX((p?.x ?? line.left) - 16), clampX(line.left), 8, clampX(win.innerWidth)])];
    const candidates: Box[] = [];
    for (const left of lefts)
      for (const dir of [1, -1]) {
        let top = dir > 0 ? line.bottom + 6 : line.top - height - 6;
        // Pushed past the marks it would cover, a few times at most.
        for (let i = 0; i < 6; i++) {
          const b = { left, top, width, height };
          candidates.push(b);
          const hit = avoid.filter((r) => overlap(b, r) > 0);
          if (!hit.length) break;
          top = dir > 0 ? Math.max(...hit.map((r) => r.bottom)) + 6 : Math.min(...hit.map((r) => r.top)) - height - 6;
        }
      }
    const whole = current.anchor.getBoundingClientRect();
    candidates.push({ left: whole.right + 8, top: line.top, width, height }, { left: whole.left - width - 8, top: line.top, width, height });
    const dist = (b: Box) => Math.abs(b.top - line.bottom) + Math.abs(b.left - line.left) / 4;
    const free = candidates.filter((b) => fits(b) && cost(b) === 0).sort((a, b) => dist(a) - dist(b));
    const best = free[0] ?? candidates.filter(fits).sort((a, b) => cost(a) - cost(b) || dist(a) - dist(b))[0] ?? (candidates[0] as Box);
    box.style.left = `${Math.round(best.left)}px`;
    box.style.top = `${Math.round(best.top)}px`;
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
    box.append(head, el('p', 'explanation', deps.labels().details[verdict]));
    const actions = el('div', 'actions');
    if (deps.onShow && (deps.canShow?.() ?? true)) {
      const show = el('button', 'show', deps.labels().show);
      show.type = 'button';
      show.addEventListener('click', (e) => {
        if (e.isTrusted && current) deps.onShow?.(current.entry);
      });
      actions.append(show);
    }
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
    /** The pointer entered a mark: its tooltip opens, after a moment when another one is open (the
     * pointer may only be passing over it on the way to that tooltip). */
    hover(entry: E, anchor: HTMLElement, e: MouseEvent) {
      cancelSwitch();
      if (!current || current.entry === entry) return api.open(entry, anchor, e, false);
      const point = { x: e.clientX, y: e.clientY };
      switchTimer = setTimeout(() => {
        switchTimer = undefined;
        if (!hovered) api.open(entry, anchor, { clientX: point.x, clientY: point.y } as MouseEvent, false);
      }, SWITCH_DELAY_MS);
    },
    /** The pointer left a mark. */
    unhover() {
      cancelSwitch();
      api.hideSoon();
    },
    open(entry: E, anchor: HTMLElement, e: MouseEvent | undefined, moveFocus: boolean) {
      cancelHide();
      cancelSwitch();
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
      cancelSwitch();
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
