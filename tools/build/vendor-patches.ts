/**
 * Small, reviewed edits to third-party code as it goes into the extension, so the packages carry
 * no HTML sink fed from a variable and no string evaluation (what addons.mozilla.org's linter,
 * `web-ext lint`, warns about and a store reviewer asks about). Each edit is either
 *  - equivalent: the same DOM result by a route without an HTML parser (Readability), or
 *  - a path Ratify provably never takes, replaced by a loud error (React's raw-HTML prop: the
 *    build fails if any module passes it; zod's JIT: extension CSP forbids `new Function`, so
 *    zod's probe always answered "no"; pdf.js's fallbacks that load files Ratify does not ship), or
 *  - a false positive of the linter reworded (micromark's tokenizer `.write()` is not
 *    `document.write`).
 * Every `find` must occur exactly `count` times in its file, and every patch must be used by a
 * production build (wxt.config.ts checks at build:done), so an upgraded dependency fails the
 * build here instead of shipping unpatched or stale code. The equivalence is tested in
 * test/unit/store/vendor-patches.test.ts; `npm test` runs web-ext lint on the Firefox package.
 */
import type { Plugin } from 'vite';

export interface VendorPatch {
  /** Stable name, for errors and the used-patches check. */
  name: string;
  /** Path inside node_modules (forward slashes), matched at the end of the module id. */
  file: string;
  find: string;
  replace: string;
  /** How often `find` occurs in the file (default 1). */
  count?: number;
  why: string;
}

const REFUSE_RAW_HTML = '(function () { throw Error("Ratify renders no raw HTML: dangerouslySetInnerHTML is not supported"); })()';

/** Patches of bundled modules (vite transform). */
export const BUNDLE_PATCHES: VendorPatch[] = [
  {
    name: 'readability-page-cache',
    file: '@mozilla/readability/Readability.js',
    find: 'var pageCacheHtml = page.innerHTML;',
    replace: 'var pageCache = page.cloneNode(true);',
    why: 'Readability keeps the page to start again with other flags; a deep clone keeps it without serialising it to HTML.',
  },
  {
    name: 'readability-page-restore',
    file: '@mozilla/readability/Readability.js',
    find: 'page.innerHTML = pageCacheHtml;',
    replace: 'page.replaceChildren(); for (var restored = pageCache.cloneNode(true); restored.firstChild; ) page.appendChild(restored.firstChild);',
    why: 'Restores the kept page from a fresh copy of the clone instead of re-parsing its HTML.',
  },
  {
    name: 'readability-noscript',
    file: '@mozilla/readability/Readability.js',
    find: 'tmp.innerHTML = noscript.innerHTML;',
    replace: 'for (var nsChild of noscript.childNodes) tmp.appendChild(nsChild.cloneNode(true));',
    why:
      'Reached only when _isSingleImage(noscript) holds, i.e. the noscript holds elements (an image), not text; ' +
      'copying those elements gives what re-parsing their HTML gave.',
  },
  {
    name: 'react-dom-raw-html',
    file: 'react-dom/cjs/react-dom-client.production.js',
    find: '(domElement.innerHTML = key)',
    replace: REFUSE_RAW_HTML,
    count: 2,
    why: 'The only HTML sink React has; no Ratify module passes dangerouslySetInnerHTML (checked for every bundled module by this plugin).',
  },
  {
    name: 'zod-eval-probe',
    file: 'zod/v4/core/util.js',
    find: '    try {\n        const F = Function;\n        new F("");\n        return true;\n    }\n    catch (_) {\n        return false;\n    }\n',
    replace: '    return false;\n',
    why:
      "zod probes whether `new Function` works to pick its JIT. Ratify's pages forbid it (CSP script-src without 'unsafe-eval') " +
      'and content scripts never load zod, so the probe always answered false; now it answers without trying.',
  },
  {
    name: 'zod-jit-compile',
    file: 'zod/v4/core/doc.js',
    find: '        const F = Function;\n        const content = this?.content ?? [``];\n        const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {\\n${content.join("\\n")}\\n};`);\n        return factory(...Object.values(this.closed));\n',
    replace: '        throw new Error("Ratify: zod\'s JIT is off (no eval in the extension)");\n',
    why: 'Called only when the probe above answers true, which it never does.',
  },
  {
    name: 'micromark-tokenizer-write',
    file: 'mdast-util-from-markdown/lib/index.js',
    find: 'return compiler(options)(postprocess(parse(options).document().write(preprocess()(value, encoding, true))));',
    replace:
      'const tokenizer = parse(options).document();\n  const chunks = preprocess()(value, encoding, true);\n  return compiler(options)(postprocess(tokenizer.write(chunks)));',
    why:
      "False positive: the linter reads any `<…document…>.write(x)` as document.write; this is micromark's tokenizer for the " +
      "Markdown 'document' content type. Same calls, in an order the linter does not misread.",
  },
];

/** Patches of the pdf.js files copied into the package as they are (wxt.config.ts, pdfjs/). */
export const PDFJS_PATCHES: VendorPatch[] = [
  {
    name: 'pdfjs-fake-worker',
    file: 'pdfjs-dist/build/pdf.min.mjs',
    find: '(await(import(\n/*webpackIgnore: true*/\n/*@vite-ignore*/\nthis.workerSrc))).WorkerMessageHandler',
    replace: '(await Promise.reject(new Error("pdf.js worker did not start (Ratify reads PDFs in the worker only)"))).WorkerMessageHandler',
    why:
      "pdf.js's main-thread fallback when its worker fails to start imports the same extension file the worker could not run; " +
      'Ratify reads PDFs in the worker only, and a failed worker now says so instead of trying that file again.',
  },
  {
    name: 'pdfjs-wasm-js-fallback',
    file: 'pdfjs-dist/build/pdf.worker.min.mjs',
    find: 'await(import(\n/*webpackIgnore: true*/\n/*@vite-ignore*/\n`${WasmImage.#R}${this._noWasmFilename}`))',
    replace: 'await Promise.reject(new Error("pdf.js image decoders are not shipped with Ratify"))',
    why:
      'Imports *_nowasm_fallback.js image decoders from wasmUrl, which Ratify neither sets nor ships (it reads text, not images): ' +
      'the import always failed and pdf.js went on without the image; now it fails without trying.',
  },
];

/** `code` with every patch for `id` applied; throws when a patch does not match as reviewed. */
export function applyPatches(id: string, code: string, patches: VendorPatch[], used?: Set<string>): string {
  const path = id.split('?')[0]!.replaceAll('\\', '/');
  let out = code;
  for (const p of patches) {
    if (!path.endsWith(`/node_modules/${p.file}`)) continue;
    const found = out.split(p.find).length - 1;
    if (found !== (p.count ?? 1)) {
      throw new Error(`vendor patch ${p.name}: expected ${p.count ?? 1} occurrence(s) in ${p.file}, found ${found}; review the patch against the new version`);
    }
    out = out.replaceAll(p.find, p.replace);
    used?.add(p.name);
  }
  return out;
}

/** The vite plugin: applies BUNDLE_PATCHES and refuses a bundle in which any module other than
 * React's own mentions dangerouslySetInnerHTML (what makes the React patch a dead path). */
export function vendorPatches(used: Set<string>): Plugin {
  return {
    name: 'ratify-vendor-patches',
    enforce: 'pre',
    transform(code, id) {
      const path = id.split('?')[0]!.replaceAll('\\', '/');
      if (code.includes('dangerouslySetInnerHTML') && !/\/node_modules\/react-dom\//.test(path) && !/\/node_modules\/react\//.test(path)) {
        throw new Error(`${id} mentions dangerouslySetInnerHTML: Ratify renders no raw HTML (tools/build/vendor-patches.ts)`);
      }
      if (!BUNDLE_PATCHES.some((p) => path.endsWith(`/node_modules/${p.file}`))) return null;
      return { code: applyPatches(id, code, BUNDLE_PATCHES, used), map: null };
    },
  };
}
