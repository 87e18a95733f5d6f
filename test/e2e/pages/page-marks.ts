/**
 * Ratify's verdict marks in a page a user reads: the marks (one tab stop per checked sentence,
 * named "Ratify: <Verdict>. <sentence> …"), and the tooltip a mark opens. The tooltip lives in a
 * closed shadow root, out of reach of the page and of Playwright's selectors; the DevTools
 * protocol still sees it as the browser lays it out.
 */
import { expect, type CDPSession, type Locator, type Page } from '@playwright/test';

export type VerdictLabel = 'Supported' | 'Corrected' | 'Refuted' | 'Unverifiable';

interface CdpNode {
  backendNodeId: number;
  nodeType: number;
  nodeName: string;
  nodeValue: string;
  attributes?: string[];
  children?: CdpNode[];
  shadowRoots?: (CdpNode & { shadowRootType?: string })[];
  contentDocument?: CdpNode;
}

interface Point {
  x: number;
  y: number;
}

/** The tooltip as the browser has it now. */
export interface Tooltip {
  /** Its host (the page's `<div popover>` with a shadow root) exists. */
  found: boolean;
  /** The host says it is open (`data-open`). */
  open: boolean;
  shadowType?: string;
  /** The visible box's text, whitespace collapsed. */
  text: string;
  /** All text in its shadow root but its style sheet, whitespace collapsed. */
  allText: string;
  /** Element names and links anywhere in its shadow root, and any inline handler attribute. */
  tags: string[];
  links: { href: string; text: string }[];
  handlers: string[];
  /** The box's border box in the viewport (width 0 until laid out). */
  box?: { x: number; y: number; width: number; height: number };
  /** Centre of "Show in Ratify", when the tooltip offers it. */
  show?: Point;
  /** Centre of the first button with this text, for a real mouse click. */
  button(label: string): Promise<Point>;
}

const attr = (n: CdpNode, name: string): string | undefined => {
  const a = n.attributes ?? [];
  for (let i = 0; i + 1 < a.length; i += 2) if (a[i] === name) return a[i + 1];
  return undefined;
};
const attrs = (n: CdpNode): [string, string][] => {
  const a = n.attributes ?? [];
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < a.length; i += 2) out.push([a[i] ?? '', a[i + 1] ?? '']);
  return out;
};
const kids = (n: CdpNode): CdpNode[] => [...(n.children ?? []), ...(n.shadowRoots ?? []), ...(n.contentDocument ? [n.contentDocument] : [])];
function find(n: CdpNode, pred: (n: CdpNode) => boolean): CdpNode | undefined {
  if (pred(n)) return n;
  for (const c of kids(n)) {
    const f = find(c, pred);
    if (f) return f;
  }
  return undefined;
}
function all(n: CdpNode, out: CdpNode[] = []): CdpNode[] {
  out.push(n);
  for (const c of kids(n)) all(c, out);
  return out;
}
const textOf = (n: CdpNode): string => (n.nodeType === 3 ? n.nodeValue : (n.children ?? []).map(textOf).join(' '));
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

export class PageMarks {
  constructor(readonly page: Page) {}

  /** Every piece of every mark (a mark across a link is in pieces). */
  get pieces(): Locator {
    return this.page.locator('[data-ratify-mark]');
  }
  /** One per mark: its first piece, the one that takes focus. */
  get marks(): Locator {
    return this.page.locator('[data-ratify-mark][tabindex="0"]');
  }
  /** The marks inside an element of the page (`#s-eiffel`, `nav`). */
  marksIn(selector: string): Locator {
    return this.page.locator(`${selector} [data-ratify-mark][tabindex="0"]`);
  }
  piecesIn(selector: string): Locator {
    return this.page.locator(`${selector} [data-ratify-mark]`);
  }
  /** The mark(s) of a verdict, by their accessible name. */
  mark(verdict: VerdictLabel): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^Ratify: ${verdict}\\.`) });
  }
  /** The verdict each mark is named with, in page order (of the marks in `within`, if given). */
  verdicts(within?: string): Promise<(string | undefined)[]> {
    return (within ? this.marksIn(within) : this.marks).evaluateAll((els) => els.map((e) => /^Ratify: (\w+)\./.exec(e.getAttribute('aria-label') ?? '')?.[1]));
  }
  async waitForMarks(timeout = 10_000): Promise<void> {
    await this.pieces.first().waitFor({ state: 'attached', timeout });
  }

  /** The tooltip's host element in the page (its content is in a closed shadow root). */
  get tooltipHost(): Locator {
    return this.page.locator('body > div[popover]');
  }
  /** Waits until the host says the tooltip is open. */
  async expectTooltipOpen(): Promise<void> {
    await expect(this.tooltipHost).toHaveAttribute('data-open', '');
  }
  async expectTooltipClosed(): Promise<void> {
    await expect(this.tooltipHost).not.toHaveAttribute('data-open', '');
  }

  private cdp?: CDPSession;
  private async session(): Promise<CDPSession> {
    this.cdp ??= await this.page.context().newCDPSession(this.page);
    return this.cdp;
  }

  /** The tooltip now, read through the DevTools protocol. */
  async tooltip(): Promise<Tooltip> {
    const cdp = await this.session();
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: CdpNode };
    const host = find(root, (n) => n.nodeName === 'DIV' && attr(n, 'popover') !== undefined && !!n.shadowRoots?.length);
    const shadow = host?.shadowRoots?.[0];
    const boxNode = shadow && find(shadow, (n) => n.nodeName === 'DIV' && (attr(n, 'class') ?? '').startsWith('box'));
    const inside = shadow ? all(shadow) : [];
    const elements = inside.filter((n) => n.nodeType === 1);
    const styleText = new Set(elements.filter((n) => n.nodeName === 'STYLE').flatMap((s) => all(s)));
    const quad = async (id: number) => ((await cdp.send('DOM.getBoxModel', { backendNodeId: id })) as { model: { border: number[] } }).model.border;
    const centre = (q: number[]): Point => ({ x: ((q[0] ?? 0) + (q[4] ?? 0)) / 2, y: ((q[1] ?? 0) + (q[5] ?? 0)) / 2 });
    let box: Tooltip['box'];
    let show: Point | undefined;
    if (boxNode) {
      const [x1 = 0, y1 = 0, , , x2 = 0, y2 = 0] = await quad(boxNode.backendNodeId).catch(() => [] as number[]);
      box = { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
      const s = find(boxNode, (n) => n.nodeName === 'BUTTON' && attr(n, 'class') === 'show');
      if (s) show = centre(await quad(s.backendNodeId));
    }
    return {
      found: !!host,
      open: !!host && attr(host, 'data-open') !== undefined,
      shadowType: shadow?.shadowRootType,
      text: boxNode ? squash(textOf(boxNode)) : '',
      allText: squash(inside.filter((n) => n.nodeType === 3 && !styleText.has(n)).map((n) => n.nodeValue).join(' ')),
      tags: [...new Set(elements.map((n) => n.nodeName))],
      links: elements.filter((n) => n.nodeName === 'A').map((n) => ({ href: attr(n, 'href') ?? '', text: squash(textOf(n)) })),
      handlers: elements.flatMap((n) => attrs(n).filter(([k]) => /^on/i.test(k)).map(([k, v]) => `${n.nodeName} ${k}=${v}`)),
      ...(box ? { box } : {}),
      ...(show ? { show } : {}),
      button: async (label: string) => {
        const b = boxNode && find(boxNode, (n) => n.nodeName === 'BUTTON' && textOf(n).trim() === label);
        if (!b) throw new Error(`no button ${label} in the tooltip`);
        return centre(await quad(b.backendNodeId));
      },
    };
  }

  /** The tooltip once it is open and laid out. */
  async openTooltip(): Promise<Tooltip & { box: NonNullable<Tooltip['box']> }> {
    let tip: Tooltip | undefined;
    await expect.poll(async () => (tip = await this.tooltip()).open && (tip.box?.width ?? 0) > 0).toBe(true);
    return tip as Tooltip & { box: NonNullable<Tooltip['box']> };
  }

  /** Records, in the page, every time the tooltip opens (its host's synchronous `beforetoggle`),
   * tagged with the phase the test says it is in: a "nothing opened" check then reads what
   * happened up to a later, positive event instead of waiting a fixed time. */
  async recordTooltipOpens(): Promise<void> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __tooltipOpens?: string[]; __tooltipPhase?: string };
      const listening = w.__tooltipOpens !== undefined;
      w.__tooltipOpens = [];
      w.__tooltipPhase = '';
      if (listening) return;
      document.addEventListener('beforetoggle', (e) => void ((e).newState === 'open' && w.__tooltipOpens?.push(w.__tooltipPhase ?? '')), { capture: true });
    });
  }
  async tooltipPhase(name: string): Promise<void> {
    await this.page.evaluate((n) => Object.assign(window, { __tooltipPhase: n }), name);
  }
  tooltipOpens(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __tooltipOpens?: string[] }).__tooltipOpens ?? []);
  }
}
