/**
 * Part 4(a): what each entrypoint of the built extension makes the browser load, as JavaScript,
 * raw and gzipped.
 *
 * An entrypoint is every top-level .html or .js file of the build (background.js, marks.js,
 * sidepanel.html, options.html, and an offscreen or content script if one is ever added).
 * Its files are the scripts an HTML page loads (`<script src>` and `<link rel="modulepreload">`)
 * or the .js file itself, plus every chunk they import statically, transitively
 * (`import … from "./x.js"`, `export … from "./x.js"`, bare `import "./x.js"`). Dynamic
 * `import("…")` chunks load later, on demand, so they are not counted (WXT emits none today).
 * A shared chunk counts in full for every entrypoint that imports it: that is what opening that
 * entrypoint costs. gzip is level 9, per file, summed (each file is fetched and cached alone).
 *
 * Regexes rather than a parser: Vite's output is minified and regular, and keeping this
 * dependency-free matters more than handling hand-written edge cases.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface EntrySize {
  /** Paths relative to the build directory, entry file first, then its chunks sorted. */
  files: string[];
  bytes: number;
  gzipBytes: number;
}

const HTML_SCRIPT = /<script\b[^>]*\bsrc="([^"]+)"/g;
const HTML_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"|<link\b[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"/g;
// `from"./x.js"` (import/export … from) and side-effect `import"./x.js"`; not `import(`.
const JS_STATIC_IMPORT = /\b(?:from|import)\s*["']([^"']+\.js)["']/g;

/** Resolve a reference from `fromFile` (relative to `root`) to a path relative to `root`. */
function resolveRef(root: string, fromFile: string, ref: string): string | undefined {
  if (/^[a-z]+:/i.test(ref)) return undefined; // remote or chrome-extension:// URLs: not ours
  const rel = ref.startsWith('/') ? ref.slice(1) : path.posix.join(path.posix.dirname(fromFile), ref);
  const norm = path.posix.normalize(rel);
  return existsSync(path.join(root, norm)) ? norm : undefined;
}

function jsClosure(root: string, start: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const f = queue.shift() as string;
    if (seen.has(f)) continue;
    seen.add(f);
    const src = readFileSync(path.join(root, f), 'utf8');
    for (const m of src.matchAll(JS_STATIC_IMPORT)) {
      const dep = resolveRef(root, f, m[1]!);
      if (dep && !seen.has(dep)) queue.push(dep);
    }
  }
  return [...seen];
}

/** Sizes per entrypoint, keyed by file name without extension, in alphabetical order. */
export function measureEntrySizes(root: string): Record<string, EntrySize> {
  const entries = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isFile() && /\.(html|js)$/.test(d.name))
    .map((d) => d.name)
    .sort();
  const out: Record<string, EntrySize> = {};
  for (const entry of entries) {
    let roots: string[];
    if (entry.endsWith('.html')) {
      const html = readFileSync(path.join(root, entry), 'utf8');
      const refs = [...html.matchAll(HTML_SCRIPT)].map((m) => m[1]).concat([...html.matchAll(HTML_PRELOAD)].map((m) => m[1] ?? m[2]));
      roots = refs.map((r) => resolveRef(root, entry, r!)).filter((r): r is string => r !== undefined && r.endsWith('.js'));
    } else {
      roots = [entry];
    }
    const closure = jsClosure(root, roots);
    // The page's own script first, so `files[0]` says what the entry is; chunks after, sorted.
    const files = [...closure.slice(0, 1), ...closure.slice(1).sort()];
    let bytes = 0;
    let gzipBytes = 0;
    for (const f of files) {
      const buf = readFileSync(path.join(root, f));
      bytes += buf.length;
      gzipBytes += gzipSync(buf, { level: 9 }).length;
    }
    const name = entry.replace(/\.(html|js)$/, '');
    out[name in out ? entry : name] = { files, bytes, gzipBytes }; // x.html and x.js: keep both
  }
  return out;
}
