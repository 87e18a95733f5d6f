/** What a reader could not see on a page parsed without layout (fetched search results, read in
 * the offscreen document, on Firefox's background page or with linkedom in Node). Without a
 * renderer only declared styles can be judged: the element's inline style and the rules of the
 * page's own <style> elements whose selector matches it. Each declaration block is judged on its
 * own (no cascade, no inheritance of colours), which catches the usual hiding idioms (display,
 * visibility, opacity, tiny fonts, clip/clip-path, scale(0), far-away offsets and indents,
 * zero-size boxes with overflow hidden, text in its own background colour) without guessing.
 * External stylesheets are not fetched: that would be a request on the page's behalf. */

export interface StaticHiddenChecks {
  isHidden(el: Element): boolean;
  isTextHidden(el: Element): boolean;
}

import { contrast, parseColor } from './rendered-hidden';

const FAR = 500; // px: an offset this large only serves to push text out of sight

type Decls = Map<string, string>;

export function parseDeclarations(block: string): Decls {
  const out: Decls = new Map();
  for (const part of block.split(';')) {
    const i = part.indexOf(':');
    if (i < 0) continue;
    const name = part.slice(0, i).trim().toLowerCase();
    const value = part.slice(i + 1).replace(/!important/i, '').trim().toLowerCase();
    if (name && value) out.set(name, value);
  }
  return out;
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

/** The whole element is invisible by these declarations. */
export function hidesElement(d: Decls): boolean {
  if (d.get('display') === 'none') return true;
  const vis = d.get('visibility');
  if (vis === 'hidden' || vis === 'collapse') return true;
  if (d.get('content-visibility') === 'hidden') return true;
  const opacity = d.get('opacity');
  if (opacity !== undefined && parseFloat(opacity) < 0.1) return true;
  const filter = d.get('filter') ?? '';
  const fo = /opacity\(\s*([\d.]+)(%?)/.exec(filter);
  if (fo && (fo[2] ? parseFloat(fo[1] ?? '1') / 100 : parseFloat(fo[1] ?? '1')) < 0.1) return true;
  const transform = d.get('transform') ?? '';
  if (/scale[xy]?\(\s*0(\.0*)?\s*[,)]/.test(transform)) return true;
  for (const m of transform.matchAll(/translate[xy3d]*\(([^)]*)\)/g)) if ((m[1] ?? '').split(',').some((v) => Math.abs(px(v)) >= FAR)) return true;
  const positioned = d.get('position') === 'absolute' || d.get('position') === 'fixed';
  if (positioned && ['left', 'top', 'right', 'margin-left', 'margin-top'].some((k) => px(d.get(k)) <= -FAR)) return true;
  if (['margin-left', 'margin-top'].some((k) => px(d.get(k)) <= -FAR)) return true;
  const clip = d.get('clip');
  if (clip && /^rect\(\s*0(px)?[\s,]+0(px)?[\s,]+0(px)?[\s,]+0(px)?\s*\)$|^rect\(\s*1px[\s,]+1px[\s,]+1px[\s,]+1px\s*\)$/.test(clip)) return true;
  const clipPath = d.get('clip-path') ?? '';
  if (/^inset\(\s*(50|[5-9]\d|100)%/.test(clipPath) || /^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(clipPath)) return true;
  const overflowHidden = ['overflow', 'overflow-x', 'overflow-y'].some((k) => /hidden|clip/.test(d.get(k) ?? ''));
  if (overflowHidden && ['width', 'height', 'max-width', 'max-height'].some((k) => { const v = px(d.get(k)); return !isNaN(v) && v <= 1; })) return true;
  return false;
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
}

/** Top-level style rules of a stylesheet's text, plus those inside @media/@supports (kept: the
 * widest reading errs towards leaving text out, never towards letting hidden text in). */
export function parseRules(css: string): Rule[] {
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
        if (/^@(media|supports|layer|container)/i.test(prelude)) walk(body);
      } else if (prelude) rules.push({ selector: prelude, decls: parseDeclarations(body) });
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
  // Every declaration that applies to an element: matching <style> rules in order, then its
  // inline style (no specificity: hiding is judged per declaration, not by which one wins).
  const matched = new Map<Element, Decls>();
  const css = [...doc.querySelectorAll('style')].map((s) => s.textContent ?? '').join('\n');
  for (const rule of parseRules(css)) {
    let els: Element[];
    try {
      els = [...doc.querySelectorAll(rule.selector)];
    } catch {
      continue; // a selector this DOM cannot evaluate (pseudo-elements, newer syntax) tells us nothing
    }
    for (const el of els) matched.set(el, new Map([...(matched.get(el) ?? []), ...rule.decls]));
  }
  const declared = (el: Element): Decls => {
    const inline = el.getAttribute('style');
    return inline ? new Map([...(matched.get(el) ?? []), ...parseDeclarations(inline)]) : (matched.get(el) ?? new Map());
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
      return hidesElement(declared(el)) || opacity(el) < 0.1;
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
