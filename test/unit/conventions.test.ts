/** lib/ holds what ships: every module in it is part of the extension, reached from an entrypoint,
 * and none is a test double, a fixture or the eval tool (those live in test/harness/ and tools/).
 * The layout checked as a test, in the spirit of refined-github's build/features.test.ts. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();

function walk(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? [rel + '/', ...walk(rel)] : [rel];
  });
}

const isModule = (f: string) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f);

/** The modules a file imports (static, re-exported and dynamic with a literal path), resolved.
 * With `valuesOnly`, imports of types alone are left out: the bundler erases them. */
function importsOf(file: string, valuesOnly = false): string[] {
  const src = readFileSync(path.join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/(?:\b(?:import|export)\s+([^'";]*?)\s*from\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
    const clause = m[1] ?? '';
    if (valuesOnly && (/^type\s/.test(clause) || /^\{\s*(?:type\s+[^,}]+,?\s*)+\}$/.test(clause))) continue;
    const spec = m[2] ?? '';
    let base: string;
    if (spec.startsWith('@/') || spec.startsWith('~/')) base = spec.slice(2);
    else if (spec.startsWith('.')) base = path.posix.join(path.posix.dirname(file), spec);
    else continue;
    const found = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((c) => existsSync(path.join(ROOT, c)) && statSync(path.join(ROOT, c)).isFile());
    if (found) out.push(found);
  }
  return out;
}

/** Every module reached from `entries`. */
function reached(entries: string[], valuesOnly = false): Set<string> {
  const seen = new Set<string>();
  const todo = [...entries];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...importsOf(f, valuesOnly));
  }
  return seen;
}

/** Node's page readers (linkedom, pdf.js's legacy build): how the shipped reading code runs under
 * Node (unit tests, the bench, `npm run eval`) where the extension uses the offscreen document. */
const NODE_ADAPTERS = ['lib/retrieval/node-reader.ts', 'lib/retrieval/pdf-node.ts'];

describe('lib/ holds what ships', () => {
  const files = walk('lib');

  it('holds TypeScript modules and their unit tests only: no data, fixtures or docs', () => {
    expect(files.filter((f) => !f.endsWith('/') && !/\.tsx?$/.test(f))).toEqual([]);
  });

  it('has no folder of test doubles, fixtures or evaluation', () => {
    const folders = files.filter((f) => f.endsWith('/')).map((f) => f.slice(0, -1));
    expect(folders.filter((f) => /\/(tests?|testing|fixtures|mocks|__mocks__|fakes?|doubles|harness|eval)$/.test(f))).toEqual([]);
  });

  it('every module is reached from an entrypoint (nothing in lib/ is there for tests, bench or eval only)', () => {
    const seen = reached(walk('entrypoints').filter(isModule));
    expect(seen.has('lib/pipeline/run.ts')).toBe(true);
    expect(files.filter(isModule).filter((f) => !seen.has(f))).toEqual(NODE_ADAPTERS);
  });
});

describe('the panel and the options page load descriptors, not implementations', () => {
  // Search providers are described in lib/settings/search-providers.ts and LLM presets in
  // lib/settings/schema.ts; the implementations (and the OpenAI SDK) belong to the worker.
  const implementation = (f: string) => f.startsWith('lib/retrieval/search/') || f === 'lib/llm/client.ts' || f === 'lib/llm/builtin.ts';
  for (const page of ['entrypoints/options/main.tsx', 'entrypoints/sidepanel/main.tsx']) {
    it(page, () => {
      const seen = reached([page], true);
      expect(seen.has('lib/settings/search-providers.ts')).toBe(true);
      expect([...seen].filter(implementation)).toEqual([]);
    });
  }
});
