/** What a reader could not see on a page parsed without layout (fetched search results, read in
 * the offscreen document, on Firefox's background page or with linkedom in Node). Without a
 * renderer only declared styles can be judged: the element's inline style and the rules of the
 * page's own <style> elements whose selector matches it, in a small cascade (specificity, source
 * order, !important; @media judged for a desktop screen, so a mobile-only `display: none` does not
 * count), opacity multiplied and colours inherited down the tree. That catches the usual hiding idioms (display,
 * visibility, opacity, tiny fonts, clip/clip-path, scale(0), far-away offsets and indents,
 * zero-size boxes with overflow hidden, text in its own background colour) without guessing.
 * External stylesheets are not fetched: that would be a request on the page's behalf. */

/** Plain functions (closures over the document's rules), safe to pass on alone. */
export interface StaticHiddenChecks {
  isHidden: (el: Element) => boolean;
  isTextHidden: (el: Element) => boolean;
}

import { contrast, parseColor } from './rendered-hidden';

const FAR = 500; // px: an offset this large only serves to push text out of sight

type Decls = Map<string, string>;

export function parseDeclarations(block: string, important?: Set<string>): Decls {
  const out: Decls = new Map();
  for (const part of block.split(';')) {
    const i = part.indexOf(':');
    if (i < 0) continue;
    const name = part.slice(0, i).trim().toLowerCase();
    const raw = part.slice(i + 1);
    const value = raw.replace(/!important/i, '').trim().toLowerCase();
    if (!name || !value) continue;
    out.set(name, value);
    if (/!important/i.test(raw)) important?.add(name);
  }
  return out;
}

export interface Screen {
  width: number;
  height: number;
}

/** The screens a fetched page is judged for: text is hidden only if it is hidden on both (a
 * summary shown only on phones is still text some reader sees). */
const SCREENS: Screen[] = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Whether a media query list applies to the screen; unknown features count as applying. */
export function mediaApplies(query: string, screen: Screen = SCREENS[0] as Screen): boolean {
  return query.split(',').some((q) => {
    const m = q.trim().toLowerCase();
    if (/^(only\s+)?print\b/.test(m) || /^not\s+(all|screen)\b/.test(m)) return false;
    for (const f of m.matchAll(/\((min|max)-(width|height)\s*:\s*([\d.]+)(px|em|rem)?\s*\)/g)) {
      const v = parseFloat(f[3] ?? '0') * (f[4] === 'em' || f[4] === 'rem' ? 16 : 1);
      const have = screen[f[2] as 'width' | 'height'];
      if (f[1] === 'min' ? have < v : have > v) return false;
    }
    return true;
  });
}

/** Specificity of one selector as one number: ids, then classes/attributes/pseudo-classes, then types. */
function specificity(sel: string): number {
  const s = sel.replace(/:not\(|:is\(|:where\([^)]*\)/g, ' ');
  const ids = (s.match(/#[\w-]+/g) ?? []).length;
  const classes = (s.match(/\.[\w-]+|\[[^\]]*\]|:(?!:)[\w-]+/g) ?? []).length;
  const types = (s.replace(/\[[^\]]*\]|[.#:][\w-]+/g, ' ').match(/(^|[\s>+~])[a-z][\w-]*/gi) ?? []).length;
  return ids * 10_000 + classes * 100 + types;
}

/** A selector list split at its top-level commas. */
function selectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}

/** A length in px where it can be known without layout (px, or 0 in any unit); NaN otherwise. */
function px(v: string | undefined): number {
  if (!v) return NaN;
  const m = /^(-?[\d.]+)(px|pt|em|rem)?$/.exec(v.trim());
  if (!m) return NaN;
  const n = parseFloat(m[1] ?? '');
  if (n === 0) return 0;
  return m[2] === 'pt' ? (n * 4) / 3 : m[2] === 'em' || m[2] === 'rem' ? n * 16 : m[2] === 'px' ? n : NaN;
}

function normColor(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const s = v.replace(/\s+/g, '');
  const hex = /^#([0-9a-f]{3})$/.exec(s);
  if (hex) return `#${[...(hex[1] ?? '')].map((c) => c + c).join('')}`;
  const named: Record<string, string> = { white: '#ffffff', black: '#000000', '#fff': '#ffffff', '#000': '#000000' };
  return named[s] ?? s;
}

type Hider = (d: Decls, screen: Screen) => boolean;

const positionOf = (d: Decls) => d.get('position');
const isPositioned = (d: Decls) => ['absolute', 'fixed', 'relative'].includes(positionOf(d) ?? '');
const filterOpacity = (filter: string): number => {
  const fo = /opacity\(\s*([\d.]+)(%?)/.exec(filter);
  if (!fo) return 1;
  const v = parseFloat(fo[1] ?? '1');
  return fo[2] ? v / 100 : v;
};

const notDisplayed: Hider = (d) => d.get('display') === 'none' || d.get('content-visibility') === 'hidden' || ['hidden', 'collapse'].includes(d.get('visibility') ?? '');
const transparent: Hider = (d) => {
  const opacity = d.get('opacity');
  return (opacity !== undefined && parseFloat(opacity) < 0.1) || filterOpacity(d.get('filter') ?? '') < 0.1;
};
const scaledToNothing: Hider = (d) => /scale[xy]?\(\s*0(\.0*)?\s*[,)]/.test(d.get('transform') ?? '');
const translatedFar: Hider = (d) => [...(d.get('transform') ?? '').matchAll(/translate[xy3d]*\(([^)]*)\)/g)].some((m) => (m[1] ?? '').split(',').some((v) => Math.abs(px(v)) >= FAR));
/** Pushed far left or up by an offset or a negative margin. */
const offsetFarBack: Hider = (d) =>
  (isPositioned(d) && ['left', 'top', 'right'].some((k) => px(d.get(k)) <= -FAR)) || ['margin-left', 'margin-top'].some((k) => px(d.get(k)) <= -FAR);
/** Pushed right beyond the screen: the element's own box stretches the page's scroll width, so
 * the page looks wide enough to hold it; nobody scrolls that far into blank space. */
const pushedRight: Hider = (d, screen) => {
  const farRight = screen.width + FAR;
  return (isPositioned(d) && px(d.get('left')) >= farRight) || px(d.get('margin-left')) >= farRight;
};
/** Fixed to the viewport, which never scrolls: placed beyond the screen, it is never seen. */
const fixedOffScreen: Hider = (d, screen) =>
  positionOf(d) === 'fixed' && (px(d.get('top')) >= screen.height || px(d.get('left')) >= screen.width || px(d.get('bottom')) <= -FAR);
const clippedToNothing: Hider = (d) => {
  const clip = d.get('clip') ?? '';
  const clipPath = d.get('clip-path') ?? '';
  return (
    /^rect\(\s*0(px)?[\s,]+0(px)?[\s,]+0(px)?[\s,]+0(px)?\s*\)$|^rect\(\s*1px[\s,]+1px[\s,]+1px[\s,]+1px\s*\)$/.test(clip) ||
    /^inset\(\s*(50|[5-9]\d|100)%/.test(clipPath) ||
    /^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(clipPath)
  );
};
/** A box of at most 1 px that hides what overflows it. */
const collapsedBox: Hider = (d) =>
  ['overflow', 'overflow-x', 'overflow-y'].some((k) => /hidden|clip/.test(d.get(k) ?? '')) &&
  ['width', 'height', 'max-width', 'max-height'].some((k) => {
    const v = px(d.get(k));
    return !isNaN(v) && v <= 1;
  });

/** Each way declarations can hide a whole element. */
const HIDERS: readonly Hider[] = [notDisplayed, transparent, scaledToNothing, translatedFar, offsetFarBack, pushedRight, fixedOffScreen, clippedToNothing, collapsedBox];

/** The whole element is invisible by these declarations, on this screen. */
export function hidesElement(d: Decls, screen: Screen = SCREENS[0] as Screen): boolean {
  return HIDERS.some((hides) => hides(d, screen));
}

/** Only the element's own text is invisible by these declarations. */
export function hidesText(d: Decls): boolean {
  const size = px(d.get('font-size'));
  if (!isNaN(size) && size < 4) return true;
  if (px(d.get('text-indent')) <= -FAR) return true;
  const color = normColor(d.get('color'));
  if (color === 'transparent' || /^rgba\([^)]*,\s*0(\.0\d*)?\)$/.test(color ?? '')) return true;
  const bg = normColor(d.get('background-color') ?? d.get('background'));
  return !!color && color === bg;
}

interface Rule {
  selector: string;
  decls: Decls;
  /** Properties declared !important. */
  important: Set<string>;
}

/** Style rules of a stylesheet's text, with those inside @supports/@layer/@container and inside
 * @media queries that apply to a desktop screen. */
export function parseRules(css: string, screen: Screen = SCREENS[0] as Screen): Rule[] {
  const src = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: Rule[] = [];
  const walk = (text: string) => {
    let i = 0;
    while (i < text.length) {
      const open = text.indexOf('{', i);
      if (open < 0) return;
      const prelude = text.slice(i, open).trim();
      // Find the matching brace.
      let depth = 1;
      let j = open + 1;
      for (; j < text.length && depth; j++) depth += text[j] === '{' ? 1 : text[j] === '}' ? -1 : 0;
      const body = text.slice(open + 1, j - 1);
      if (prelude.startsWith('@')) {
        const media = /^@media\s+(.*)$/is.exec(prelude);
        if (media ? mediaApplies(media[1] ?? '', screen) : /^@(supports|layer|container)/i.test(prelude)) walk(body);
      } else if (prelude) {
        const important = new Set<string>();
        rules.push({ selector: prelude, decls: parseDeclarations(body, important), important });
      }
      i = j;
    }
  };
  walk(src);
  return rules;
}

/** A declared colour as RGBA, for hex, rgb()/rgba(), transparent, white and black; undefined for
 * anything else (named colours, currentColor, variables: then nothing is judged). */
function declaredColor(v: string | undefined): [number, number, number, number] | undefined {
  const s = normColor(v);
  if (!s) return undefined;
  const hex = /^#([0-9a-f]{6})$/.exec(s);
  if (hex) {
    const n = parseInt(hex[1] ?? '0', 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1];
  }
  return parseColor(s);
}

export function createStaticHiddenChecks(doc: Document): StaticHiddenChecks {
  const css = [...doc.querySelectorAll('style')].map((s) => s.textContent ?? '').join('\n');
  // Each selector is evaluated once for both screens: querySelectorAll is the cost here.
  const matched = new Map<string, Element[]>();
  const query = (sel: string): Element[] => {
    let els = matched.get(sel);
    if (!els) {
      try {
        els = [...doc.querySelectorAll(sel)];
      } catch {
        els = []; // a selector this DOM cannot evaluate (pseudo-elements, newer syntax) tells us nothing
      }
      matched.set(sel, els);
    }
    return els;
  };
  const per = SCREENS.map((screen) => checksFor(parseRules(css, screen).filter(judged), query, screen));
  return {
    isHidden: (el) => per.every((c) => c.isHidden(el)),
    isTextHidden: (el) => per.every((c) => c.isTextHidden(el)),
  };
}

/** The properties the checks read; rules declaring none of them are skipped. */
const JUDGED = new Set([
  'display', 'visibility', 'content-visibility', 'opacity', 'filter', 'transform', 'position', 'left', 'top', 'right', 'bottom', 'margin-left', 'margin-top',
  'clip', 'clip-path', 'overflow', 'overflow-x', 'overflow-y', 'width', 'height', 'max-width', 'max-height', 'font-size', 'text-indent', 'color',
  'background', 'background-color',
]);

function judged(rule: Rule): boolean {
  for (const name of [...rule.decls.keys()]) if (!JUDGED.has(name)) rule.decls.delete(name);
  return rule.decls.size > 0;
}

function checksFor(rules: Rule[], query: (sel: string) => Element[], screen: Screen): StaticHiddenChecks {
  // The winning declaration per element and property: !important, then specificity, then source
  // order; the inline style beats every rule but an !important one.
  const won = new Map<Element, Map<string, { value: string; weight: number }>>();
  const apply = (el: Element, name: string, value: string, weight: number) => {
    let props = won.get(el);
    if (!props) won.set(el, (props = new Map<string, { value: string; weight: number }>()));
    const prev = props.get(name);
    if (!prev || weight >= prev.weight) props.set(name, { value, weight });
  };
  for (const rule of rules) {
    for (const sel of selectors(rule.selector)) {
      const spec = specificity(sel);
      for (const el of query(sel)) for (const [name, value] of rule.decls) apply(el, name, value, (rule.important.has(name) ? 2e9 : 0) + spec * 1e4);
    }
  }
  const cache = new Map<Element, Decls>();
  const declared = (el: Element): Decls => {
    let d = cache.get(el);
    if (d) return d;
    const inline = el.getAttribute('style');
    if (inline) {
      const important = new Set<string>();
      for (const [name, value] of parseDeclarations(inline, important)) apply(el, name, value, important.has(name) ? 3e9 : 1e9);
    }
    d = new Map([...(won.get(el) ?? [])].map(([k, v]) => [k, v.value]));
    cache.set(el, d);
    return d;
  };
  const opacityOf = new Map<Element, number>();
  const opacity = (el: Element | null): number => {
    if (!el) return 1;
    let v = opacityOf.get(el);
    if (v === undefined) {
      const o = parseFloat(declared(el).get('opacity') ?? '1');
      v = (isNaN(o) ? 1 : o) * opacity(el.parentElement);
      opacityOf.set(el, v);
    }
    return v;
  };
  /** The nearest declared value of an inherited-or-painted property up the tree. */
  const nearest = (el: Element | null, ...names: string[]): string | undefined => {
    for (let e = el; e; e = e.parentElement) {
      const d = declared(e);
      for (const n of names) {
        const v = d.get(n);
        if (v !== undefined) return v;
      }
    }
    return undefined;
  };
  return {
    isHidden(el) {
      // Closed <details>: everything but the summary is out of sight.
      const parent = el.parentElement;
      if (parent?.tagName === 'DETAILS' && !parent.hasAttribute('open') && el.tagName !== 'SUMMARY') return true;
      return hidesElement(declared(el), screen) || opacity(el) < 0.1;
    },
    isTextHidden(el) {
      if (hidesText(declared(el))) return true;
      let own = false;
      for (let c = el.firstChild; c && !own; c = c.nextSibling) own = c.nodeType === 3 && !!(c.nodeValue ?? '').trim();
      if (!own) return false;
      const fg = declaredColor(nearest(el, 'color'));
      // The canvas is white when no background is declared.
      const bgValue = nearest(el, 'background-color', 'background') ?? '#ffffff';
      const bg = declaredColor(bgValue);
      return !!fg && !!bg && bg[3] >= 1 && fg[3] >= 1 && contrast(fg, bg) < 1.25;
    },
  };
}
