/**
 * Which browser versions a built package needs: the platform features its code uses (found by
 * parsing every script with acorn) and the extension APIs and manifest keys it relies on, each
 * with the version it shipped in, from MDN's browser-compat-data (the data addons-linter uses)
 * or, where that has no entry, from the browser's own documentation (cited below).
 *
 * A feature a file tests for before using (`typeof X`, `"y" in X`, `X?.y`, `X.y ? … : …`) is
 * optional there: the code has a fallback, so it does not raise the minimum.
 */
import { Parser, type Node } from 'acorn';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
type Support = { version_added: string | boolean | null; flags?: unknown[] };
type Compat = { __compat?: { support: Record<string, Support | Support[] | undefined> } };
const bcd = require('@mdn/browser-compat-data') as Record<string, unknown>;

export type Browser = 'chrome' | 'firefox';

export interface Requirement {
  feature: string;
  /** Where the version comes from: a browser-compat-data key or a documentation URL. */
  source: string;
  chrome?: number;
  firefox?: number;
  /** Files that use it. */
  files: string[];
  /** Files that test for it first (then it is optional there). */
  guardedIn: string[];
}

function bcdEntry(key: string): Compat | undefined {
  let o: unknown = bcd;
  for (const k of key.split('.')) o = (o as Record<string, unknown> | undefined)?.[k];
  return o as Compat | undefined;
}

/** The version a browser shipped a feature in (unflagged), from browser-compat-data. */
export function shippedIn(key: string, browser: Browser): number | undefined {
  const support = bcdEntry(key)?.__compat?.support[browser];
  const first = (Array.isArray(support) ? support : [support]).find((s) => s && !s.flags);
  const v = first?.version_added;
  return typeof v === 'string' ? Number.parseFloat(v.replace('≤', '')) : undefined;
}

/** Static members of these globals are looked up as `javascript.builtins.<G>.<m>` or `api.<G>.<m>_static`. */
const GLOBALS = ['Array', 'ArrayBuffer', 'Atomics', 'Error', 'Intl', 'Iterator', 'Map', 'Math', 'Object', 'Promise', 'RegExp', 'Set', 'String', 'Uint8Array', 'URL', 'AbortSignal', 'Response', 'Document', 'ReadableStream'];
/** Instance methods distinctive enough to know by name, with their compat key. */
const METHODS: Record<string, string> = {
  toSpliced: 'javascript.builtins.Array.toSpliced',
  toSorted: 'javascript.builtins.Array.toSorted',
  toReversed: 'javascript.builtins.Array.toReversed',
  findLast: 'javascript.builtins.Array.findLast',
  findLastIndex: 'javascript.builtins.Array.findLastIndex',
  transferToFixedLength: 'javascript.builtins.ArrayBuffer.transferToFixedLength',
  toBase64: 'javascript.builtins.Uint8Array.toBase64',
  toHex: 'javascript.builtins.Uint8Array.toHex',
  setFromBase64: 'javascript.builtins.Uint8Array.setFromBase64',
  isWellFormed: 'javascript.builtins.String.isWellFormed',
  toWellFormed: 'javascript.builtins.String.toWellFormed',
  symmetricDifference: 'javascript.builtins.Set.symmetricDifference',
  isSubsetOf: 'javascript.builtins.Set.isSubsetOf',
  isDisjointFrom: 'javascript.builtins.Set.isDisjointFrom',
  showPopover: 'api.HTMLElement.showPopover',
  replaceChildren: 'api.Element.replaceChildren',
};
/** Global constructors and functions newer than the rest. */
const IDENTIFIERS: Record<string, string> = {
  Float16Array: 'javascript.builtins.Float16Array',
  structuredClone: 'api.structuredClone',
  WeakRef: 'javascript.builtins.WeakRef',
  FinalizationRegistry: 'javascript.builtins.FinalizationRegistry',
  CompressionStream: 'api.CompressionStream',
  DecompressionStream: 'api.DecompressionStream',
  AggregateError: 'javascript.builtins.AggregateError',
  BigInt: 'javascript.builtins.BigInt',
};
/** Syntax, by the node acorn gives it. */
const SYNTAX: Record<string, string> = {
  StaticBlock: 'javascript.classes.static.initialization_blocks',
  PrivateIdentifierIn: 'javascript.classes.private_class_fields_in',
  LogicalAssignment: 'javascript.operators.nullish_coalescing_assignment',
  UsingDeclaration: 'javascript.statements.using',
  RegExpV: 'javascript.builtins.RegExp.unicodeSets',
};

function staticKey(obj: string, prop: string): string | undefined {
  for (const key of [`javascript.builtins.${obj}.${prop}`, `api.${obj}.${prop}_static`, `api.${obj}.${prop}`]) if (bcdEntry(key)?.__compat) return key;
  return undefined;
}

export type AnyNode = Node & Record<string, unknown>;
const own = (table: Record<string, string>, name: string): string | undefined => (Object.hasOwn(table, name) ? table[name] : undefined);

const parsed = new Map<string, AnyNode>();
/** A script's syntax tree, as a module or, failing that, a classic script (Firefox's background.js
 * may use what modules forbid); cached by content, as both packages hold the same pdf.js. */
export function parseScript(code: string): AnyNode {
  const hash = createHash('sha256').update(code).digest('hex');
  let ast = parsed.get(hash);
  if (!ast) {
    try {
      ast = Parser.parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true }) as unknown as AnyNode;
    } catch {
      ast = Parser.parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true, allowReturnOutsideFunction: true }) as unknown as AnyNode;
    }
    parsed.set(hash, ast);
  }
  return ast;
}

/** Feature keys used in one script, and those it tests for. */
export function scanScript(code: string): { used: Set<string>; tested: Set<string> } {
  const used = new Set<string>();
  const tested = new Set<string>();
  const ast = parseScript(code);
  const keyOf = (n: AnyNode): string | undefined => {
    if (n.type === 'Identifier') return own(IDENTIFIERS, n.name as string);
    if (n.type !== 'MemberExpression' || n.computed) return undefined;
    const prop = (n.property as AnyNode).name as string;
    const obj = n.object as AnyNode;
    if (obj.type === 'Identifier' && GLOBALS.includes(obj.name as string)) return staticKey(obj.name as string, prop);
    return own(METHODS, prop);
  };
  const visit = (n: AnyNode, testing: boolean): void => {
    if (!n || typeof n.type !== 'string') return;
    const key = keyOf(n);
    if (key) (testing ? tested : used).add(key);
    switch (n.type) {
      case 'StaticBlock':
        used.add(SYNTAX.StaticBlock!);
        break;
      case 'AssignmentExpression':
        if (['??=', '||=', '&&='].includes(n.operator as string)) used.add(SYNTAX.LogicalAssignment!);
        break;
      case 'BinaryExpression': {
        const left = n.left as AnyNode;
        const right = n.right as AnyNode;
        if (n.operator === 'in' && left.type === 'PrivateIdentifier') used.add(SYNTAX.PrivateIdentifierIn!);
        // "captureStackTrace" in Error: a test for Error.captureStackTrace.
        const name = left.type === 'Literal' ? left.value : left.type === 'TemplateLiteral' && (left.expressions as unknown[]).length === 0 ? (left.quasis as { value: { cooked: string } }[])[0]?.value.cooked : undefined;
        if (n.operator === 'in' && typeof name === 'string' && right.type === 'Identifier' && GLOBALS.includes(right.name as string)) {
          const key = staticKey(right.name as string, name);
          if (key) tested.add(key);
        }
        break;
      }
      case 'VariableDeclaration':
        if (String(n.kind).includes('using')) used.add(SYNTAX.UsingDeclaration!);
        break;
      case 'Literal':
        if ((n.regex as { flags?: string } | undefined)?.flags?.includes('v')) used.add(SYNTAX.RegExpV!);
        break;
    }
    for (const [k, v] of Object.entries(n)) {
      if (k === 'type' || k === 'start' || k === 'end') continue;
      // What a file tests for: typeof X, "y" in X, X.y ? … : …, X.y && …, if (X.y), X?.y.
      const test =
        testing ||
        (n.type === 'UnaryExpression' && n.operator === 'typeof') ||
        (n.type === 'BinaryExpression' && n.operator === 'in') ||
        ((n.type === 'ConditionalExpression' || n.type === 'IfStatement') && k === 'test') ||
        (n.type === 'LogicalExpression' && k === 'left') ||
        (n.type === 'MemberExpression' && n.optional === true && k === 'object') ||
        (n.type === 'CallExpression' && n.optional === true && k === 'callee');
      if (Array.isArray(v)) for (const c of v) visit(c as AnyNode, test);
      else if (v && typeof v === 'object') visit(v as AnyNode, test);
    }
  };
  visit(ast, false);
  return { used, tested };
}

/** Every script of a package directory (relative paths), parsed as what it is loaded as. */
export function scanPackage(dir: string, files: string[]): Map<string, Requirement> {
  const out = new Map<string, Requirement>();
  for (const file of files.filter((f) => /\.m?js$/.test(f))) {
    const found = scanScript(readFileSync(path.join(dir, file), 'utf8'));
    for (const key of new Set([...found.used, ...found.tested])) {
      const r = out.get(key) ?? { feature: key.replace(/^(javascript\.builtins|javascript|api)\./, ''), source: key, chrome: shippedIn(key, 'chrome'), firefox: shippedIn(key, 'firefox'), files: [], guardedIn: [] };
      if (found.used.has(key) || found.tested.has(key)) r.files.push(file);
      if (found.tested.has(key)) r.guardedIn.push(file);
      out.set(key, r);
    }
  }
  return out;
}

/** A requirement counts where a file uses the feature without testing for it. */
export function isRequired(r: Requirement): boolean {
  return r.files.some((f) => !r.guardedIn.includes(f));
}

/** The highest version among requirements, with the features that set it. */
export function highest(reqs: Requirement[], browser: Browser): { version: number; by: string[] } {
  let version = 0;
  let by: string[] = [];
  for (const r of reqs) {
    const v = r[browser];
    if (v === undefined) continue;
    if (v > version) [version, by] = [v, [r.feature]];
    else if (v === version) by.push(r.feature);
  }
  return { version, by };
}
