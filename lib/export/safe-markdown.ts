/** The one sanitizer for model-written Markdown, used by the panel (components/Markdown.tsx) and
 * by both exports (./render.ts). The model's text is attacker-influenced (it has read pages), so:
 *
 *  - a link is a link only when it points at one of the run's validated sources; any other link
 *    the model wrote becomes its label followed by its address as code, visible and not
 *    clickable (so "[1](http://attacker/?d=CODE)" can never pass for citation 1);
 *  - a bare address (GFM autolink) becomes code;
 *  - images become their alt text (no request to a remote host when the text is shown or pasted);
 *  - raw HTML is dropped; reference definitions are dropped (their links are resolved above).
 *
 * It rewrites only the offending spans of the original text (found by parsing it the way the
 * panel renders it: CommonMark + GFM), so everything else, citation markers included, stays
 * byte for byte as the model wrote it. */
import type { Definition, Link, LinkReference, Nodes } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit, SKIP } from 'unist-util-visit';

const parser = unified().use(remarkParse).use(remarkGfm);

/** An address as compared with the sources' (fragment ignored: text fragments are added later). */
export function linkKey(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

/** Shown as code: visible, never a link (backticks inside cannot close it). */
function codeSpan(s: string): string {
  const clean = s.replace(/[\r\n]+/g, ' ');
  return clean.includes('`') ? `\`\` ${clean} \`\`` : `\`${clean}\``;
}

function span(md: string, n: Nodes): [number, number] | undefined {
  const a = n.position?.start.offset;
  const b = n.position?.end.offset;
  return a === undefined || b === undefined ? undefined : [a, b];
}

/** The source text of a node's children (a link's label). */
function rawLabel(md: string, n: Nodes): string {
  const kids = 'children' in n ? n.children : [];
  const first = kids[0];
  const last = kids[kids.length - 1];
  if (!first || !last) return '';
  const a = first.position?.start.offset;
  const b = last.position?.end.offset;
  return a === undefined || b === undefined ? '' : md.slice(a, b);
}

/** Tags that only format the text inside them ("H<sub>2</sub>O" is one word); any other tag
 * (a line break, an image, a block) stood between its neighbours. */
const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);

function separates(html: string): boolean {
  const tag = /^<\/?([a-z][a-z0-9-]*)/i.exec(html.trim())?.[1]?.toLowerCase();
  return !tag || !INLINE_TAGS.has(tag);
}

/** What replaces the span `at`, kept apart from the words it stood between ("tracker.js" and
 * "on" around an image must not become "tracker.jspixelon"). */
function apart(md: string, at: [number, number], text: string): string {
  const before = md[at[0] - 1] ?? ' ';
  const after = md[at[1]] ?? ' ';
  const gap = (c: string) => /[\p{L}\p{N}]/u.test(c);
  if (!text) return gap(before) && gap(after) ? ' ' : '';
  return `${gap(before) && gap(text[0] ?? ' ') ? ' ' : ''}${text}${gap(after) && gap(text[text.length - 1] ?? ' ') ? ' ' : ''}`;
}

/** `allowed`: the run's validated source URLs (any form; compared by linkKey). */
export function sanitizeMarkdown(md: string, allowed: Iterable<string> | Set<string>): string {
  const keys = allowed instanceof Set ? allowed : new Set([...allowed].map(linkKey).filter((k): k is string => !!k));
  const tree = parser.parse(md);
  const defs = new Map<string, Definition>();
  visit(tree, 'definition', (d) => {
    defs.set(d.identifier, d);
  });
  const edits: { at: [number, number]; text: string }[] = [];
  visit(tree, (n) => {
    const at = span(md, n);
    const text = at && replacement(md, n, at, { defs, keys });
    if (!at || text === undefined) return undefined;
    edits.push({ at, text });
    return SKIP;
  });
  let out = md;
  for (const e of edits.sort((x, y) => y.at[0] - x.at[0])) out = out.slice(0, e.at[0]) + e.text + out.slice(e.at[1]);
  return out;
}

interface Allowed {
  /** The text's reference definitions, by identifier. */
  defs: Map<string, Definition>;
  /** The validated sources' link keys. */
  keys: Set<string>;
}

/** What the node at `at` becomes (its children are not visited then); undefined: it stays, and
 * its children are visited. HTML and definitions go; an image becomes its alt text; a link that
 * is not a validated source becomes its label (linkReplacement). */
function replacement(md: string, n: Nodes, at: [number, number], a: Allowed): string | undefined {
  if (n.type === 'html' || n.type === 'definition') return n.type === 'html' && separates(n.value) ? apart(md, at, '') : '';
  if (n.type === 'image' || n.type === 'imageReference') return apart(md, at, n.alt ? sanitizeMarkdown(n.alt, a.keys) : '');
  if (n.type === 'link' || n.type === 'linkReference') return linkReplacement(md, n, at, a);
  return undefined;
}

function linkReplacement(md: string, n: Link | LinkReference, at: [number, number], a: Allowed): string | undefined {
  const url = n.type === 'link' ? n.url : (a.defs.get(n.identifier)?.url ?? '');
  const key = linkKey(url);
  if (n.type === 'link' && key && a.keys.has(key)) return undefined; // a validated source: kept
  const inner = rawLabel(md, n);
  const shown = md.slice(...at);
  // A bare address (GFM literal, www.… or an e-mail address, or <…>): as written, as code,
  // so it is neither a link nor linked again when the text is rendered.
  if (n.type === 'link' && (inner === shown || shown === `<${inner}>`)) return codeSpan(inner);
  const text = sanitizeMarkdown(inner, a.keys);
  // A web address is shown so the user sees where it would go; any other scheme (javascript:,
  // data:) only as its label.
  return key ? `${text} (${codeSpan(url)})` : text;
}
