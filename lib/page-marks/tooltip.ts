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

export type Box = { left: number; top: number; width: number; height: number };

function overlap(a: Box, r: DOMRect): number {
  const w = Math.min(a.left + a.width, r.right) - Math.max(a.left, r.left);
  const h = Math.min(a.top + a.height, r.bottom) - Math.max(a.top, r.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** One tooltip: the verdict, and where the details are (the side panel). */
export function createTooltip<E>(deps: TooltipDeps<E>): Tooltip<E> {
  return new Tooltip(deps);
}

export class Tooltip<E> {
  private readonly doc: Document;
  private readonly win: Window | null;
  private host: HTMLElement | undefined;
  private box: HTMLElement | undefined;
  private current: { entry: E; anchor: HTMLElement; point?: { x: number; y: number } } | undefined;
  private hideTimer: ReturnType<typeof setTimeout> | undefined;
  private switchTimer: ReturnType<typeof setTimeout> | undefined;
  private hovered = false;

  private readonly onDocKey = (e: KeyboardEvent) => {
    if (e.isTrusted && e.key === 'Escape') this.close(true);
  };
  private readonly onViewport = () => this.place();

  constructor(private readonly deps: TooltipDeps<E>) {
    this.doc = deps.doc;
    this.win = deps.doc.defaultView;
  }

  /** The pointer entered a mark: its tooltip opens, after a moment when another one is open (the
   * pointer may only be passing over it on the way to that tooltip). */
  hover(entry: E, anchor: HTMLElement, e: MouseEvent): void {
    this.cancelSwitch();
    if (!this.current || this.current.entry === entry) return this.open(entry, anchor, e, false);
    const point = { x: e.clientX, y: e.clientY };
    this.switchTimer = setTimeout(() => {
      this.switchTimer = undefined;
      if (!this.hovered) this.open(entry, anchor, { clientX: point.x, clientY: point.y } as MouseEvent, false);
    }, SWITCH_DELAY_MS);
  }

  /** The pointer left a mark. */
  unhover(): void {
    this.cancelSwitch();
    this.hideSoon();
  }

  open(entry: E, anchor: HTMLElement, e: MouseEvent | undefined, moveFocus: boolean): void {
    this.cancelHide();
    this.cancelSwitch();
    const { host, box } = this.ensure();
    const point = e ? { x: e.clientX, y: e.clientY } : undefined;
    if (this.current?.entry !== entry) this.render(box, this.deps.verdictOf(entry));
    this.current = { entry, anchor, point };
    if (!host.hasAttribute('data-open')) {
      host.setAttribute('data-open', '');
      if (host.hasAttribute('popover')) host.showPopover();
      this.doc.addEventListener('keydown', this.onDocKey);
      this.win?.addEventListener('scroll', this.onViewport, { capture: true, passive: true });
      this.win?.addEventListener('resize', this.onViewport, { passive: true });
    }
    this.place();
    if (moveFocus) box.querySelector<HTMLElement>('button')?.focus();
  }

  ownedBy(entry: E): boolean {
    return this.current?.entry === entry;
  }

  close(returnFocus: boolean): void {
    const { host, current } = this;
    this.cancelHide();
    this.cancelSwitch();
    if (!host?.hasAttribute('data-open')) return;
    const back = current && this.deps.firstOf(current.entry);
    const hadFocus = returnFocus && host.matches(':focus-within');
    host.removeAttribute('data-open');
    if (host.hasAttribute('popover')) host.hidePopover();
    this.doc.removeEventListener('keydown', this.onDocKey);
    this.win?.removeEventListener('scroll', this.onViewport, { capture: true });
    this.win?.removeEventListener('resize', this.onViewport);
    this.current = undefined;
    this.hovered = false;
    if (hadFocus && back?.isConnected) back.focus({ preventScroll: true });
  }

  hideSoon(): void {
    this.cancelHide();
    this.hideTimer = setTimeout(() => {
      // Stay open while the reader is in it by keyboard or pointer.
      const focusInside = this.host?.matches(':focus-within') || (this.current && this.doc.activeElement === this.deps.firstOf(this.current.entry));
      if (!this.hovered && !focusInside) this.close(false);
    }, HIDE_DELAY_MS);
  }

  blurFrom(to: EventTarget | null): void {
    if (to instanceof Node && (to === this.host || to === (this.current && this.deps.firstOf(this.current.entry)) || this.box?.contains(to))) return;
    this.hideSoon();
  }

  remove(): void {
    this.close(false);
    this.host?.remove();
    this.host = this.box = undefined;
  }

  private ensure(): { host: HTMLElement; box: HTMLElement } {
    if (this.host && this.box && this.host.isConnected) return { host: this.host, box: this.box };
    const { doc } = this;
    const host = (this.host = doc.createElement('div'));
    const shadow = host.attachShadow({ mode: 'closed' });
    this.deps.adoptCss(shadow, 'tooltip', TOOLTIP_CSS);
    const box = (this.box = doc.createElement('div'));
    box.className = 'box';
    box.setAttribute('role', 'dialog');
    shadow.append(box);
    this.listenOnBox(box);
    // The top layer puts it above the page's own overlays; older browsers get z-index only.
    if (typeof host.showPopover === 'function') host.setAttribute('popover', 'manual');
    (doc.body ?? doc.documentElement).append(host);
    return { host, box };
  }

  private listenOnBox(box: HTMLElement): void {
    box.addEventListener('mouseenter', (e) => {
      if (!e.isTrusted) return;
      this.hovered = true;
      this.cancelHide();
      // On the way to the tooltip the pointer may cross other marks: they do not take it over.
      this.cancelSwitch();
    });
    box.addEventListener('mouseleave', (e) => {
      if (!e.isTrusted) return;
      this.hovered = false;
      this.hideSoon();
    });
    box.addEventListener('keydown', (e) => {
      if (e.isTrusted && e.key === 'Escape') this.close(true);
    });
    box.addEventListener('focusout', (e) => e.isTrusted && this.blurFrom(e.relatedTarget));
  }

  private cancelSwitch(): void {
    if (this.switchTimer !== undefined) clearTimeout(this.switchTimer);
    this.switchTimer = undefined;
  }

  private cancelHide(): void {
    if (this.hideTimer !== undefined) clearTimeout(this.hideTimer);
    this.hideTimer = undefined;
  }

  /** Below the line the pointer is on (or the mark's first line), else above it, each pushed past
   * the marks in the way, else beside the mark: the first place that covers no other mark and fits
   * in the window; if none does, the one that covers least. */
  private place(): void {
    const { current, box, win } = this;
    if (!current || !box || !win) return;
    const rects = [...current.anchor.getClientRects()];
    const p = current.point;
    const line = (p && rects.find((r) => p.y >= r.top - 2 && p.y <= r.bottom + 2)) ?? rects[0] ?? current.anchor.getBoundingClientRect();
    const { width, height } = box.getBoundingClientRect();
    const avoid = [...(this.deps.others?.(current.entry) ?? []), ...rects.filter((r) => r !== line)];
    const clampX = (x: number) => Math.max(8, Math.min(x, win.innerWidth - width - 8));
    const lefts = [...new Set([clampX((p?.x ?? line.left) - 16), clampX(line.left), 8, clampX(win.innerWidth)])];
    const candidates = lefts.flatMap((left) => [1, -1].flatMap((dir) => pushedPast(avoid, { left, top: dir > 0 ? line.bottom + 6 : line.top - height - 6, width, height }, dir)));
    const whole = current.anchor.getBoundingClientRect();
    candidates.push({ left: whole.right + 8, top: line.top, width, height }, { left: whole.left - width - 8, top: line.top, width, height });
    const best = bestPlace(candidates, avoid, line, { width: win.innerWidth, height: win.innerHeight });
    box.style.left = `${Math.round(best.left)}px`;
    box.style.top = `${Math.round(best.top)}px`;
  }

  private render(box: HTMLElement, verdict: MarkVerdict): void {
    const { doc, deps } = this;
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
        if (e.isTrusted && this.current) deps.onShow?.(this.current.entry);
      });
      actions.append(show);
    }
    const clearBtn = el('button', 'clear', deps.labels().clear);
    clearBtn.type = 'button';
    clearBtn.addEventListener('click', (e) => e.isTrusted && deps.clear());
    const close = el('button', 'close', '×');
    close.type = 'button';
    close.setAttribute('aria-label', deps.labels().close);
    close.addEventListener('click', (e) => e.isTrusted && this.close(true));
    actions.append(clearBtn, close);
    box.append(actions);
  }
}

/** Places for a box starting at `start`, each pushed past the rectangles it would cover (up or
 * down, by `dir`), a few times at most, until one covers none. */
export function pushedPast(avoid: DOMRect[], start: Box, dir: number): Box[] {
  const out: Box[] = [];
  let top = start.top;
  for (let i = 0; i < 6; i++) {
    const b = { ...start, top };
    out.push(b);
    const hit = avoid.filter((r) => overlap(b, r) > 0);
    if (!hit.length) break;
    top = dir > 0 ? Math.max(...hit.map((r) => r.bottom)) + 6 : Math.min(...hit.map((r) => r.top)) - start.height - 6;
  }
  return out;
}

/** The nearest of `candidates` that fits in the window and covers nothing in `avoid`; else the
 * one that fits and covers least; else the first. */
export function bestPlace(candidates: Box[], avoid: DOMRect[], line: DOMRect, view: { width: number; height: number }): Box {
  const fits = (b: Box) => b.left >= 4 && b.top >= 4 && b.left + b.width <= view.width - 4 && b.top + b.height <= view.height - 4;
  const cost = (b: Box) => avoid.reduce((n, r) => n + overlap(b, r), 0);
  const dist = (b: Box) => Math.abs(b.top - line.bottom) + Math.abs(b.left - line.left) / 4;
  const free = candidates.filter((b) => fits(b) && cost(b) === 0).sort((a, b) => dist(a) - dist(b));
  return free[0] ?? candidates.filter(fits).sort((a, b) => cost(a) - cost(b) || dist(a) - dist(b))[0] ?? (candidates[0] as Box);
}
