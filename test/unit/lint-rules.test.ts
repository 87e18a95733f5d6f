/** The boundaries `npm run lint` enforces, each shown failing on a deliberate violation (and the
 * same code passing where it is allowed), through the repository's own eslint.config.js. */
import { readdirSync, readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The snippets below are linted as if they were files at these (nonexistent) paths; the type-aware
// rules need a program for them, so they join the project as its tsconfig describes it.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['lib/x.ts', 'lib/x.test.ts', 'lib/*/x.ts', 'lib/*/x.test.ts', 'lib/*/*/x.ts', 'components/x.tsx', 'components/X.tsx', 'entrypoints/x.ts'], defaultProject: 'tsconfig.json', maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 100 },
      },
    },
  },
});

async function rules(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('lint rules', () => {
  // The type-aware rules build the project's program once, on the first file linted.
  beforeAll(() => rules('export const warm = 1;\n', 'lib/x.ts'), 120_000);

  it('browser APIs only in lib/browser and entrypoints', async () => {
    const code = "import { browser } from 'wxt/browser';\nexport const tabs = () => browser.tabs.query({});\n";
    expect(await rules(code, 'lib/pipeline/x.ts')).toContain('no-restricted-imports');
    expect(await rules(code, 'components/X.tsx')).toContain('no-restricted-imports');
    expect(await rules('export const id = () => chrome.runtime.id;\n', 'lib/retrieval/x.ts')).toContain('no-restricted-globals');
    expect(await rules(code, 'lib/browser/x.ts')).toEqual([]);
    expect(await rules(code, 'entrypoints/x.ts')).toEqual([]);
  });

  it('shipped code never imports from test/', async () => {
    const code = "import { startFakeLlm } from '../../test/harness/fake-llm.ts';\nexport const s = startFakeLlm;\n";
    expect(await rules(code, 'lib/pipeline/x.ts')).toContain('no-restricted-imports');
    expect(await rules(code, 'entrypoints/x.ts')).toContain('no-restricted-imports');
    expect(await rules(code, 'lib/pipeline/x.test.ts')).toEqual([]);
  });

  it('a web query is made only by toWebQuery (lib/core/flow.ts), never by a cast', async () => {
    const cast = "import type { WebQuery } from '../core/flow';\nexport const q = 'code 739-114' as WebQuery;\n";
    expect(await rules(cast, 'lib/pipeline/x.ts')).toContain('no-restricted-syntax');
    expect(await rules(cast.replace('as WebQuery', 'as unknown as WebQuery'), 'components/x.tsx')).toContain('no-restricted-syntax');
    expect(await rules("import type { WebQuery } from '../core/flow';\nexport const q = <WebQuery>'x';\n", 'lib/retrieval/x.ts')).toContain('no-restricted-syntax');
    // flow.ts itself may cast (linted as it is, with a cast added: the type-aware rules keep
    // what a file was linted as for the files linted after it).
    expect(await rules(`${readFileSync('lib/core/flow.ts', 'utf8')}\nexport const castHere = 'code 739-114' as WebQuery;\n`, 'lib/core/flow.ts')).toEqual([]);
    expect(await rules("import { toWebQuery } from '../core/flow';\nexport const q = toWebQuery('x', ['typed']);\n", 'lib/pipeline/x.ts')).toEqual([]);
  });

  it("an 'abort' listener in lib/ goes through followAbort (one added after the abort never runs)", async () => {
    const code = "export function follow(signal: AbortSignal, f: () => void): void {\n  signal.addEventListener('abort', f, { once: true });\n}\n";
    expect(await rules(code, 'lib/pipeline/x.ts')).toContain('no-restricted-syntax');
    expect(await rules(code, 'lib/core/x.ts')).toContain('no-restricted-syntax');
    expect(await rules(code, 'lib/pipeline/x.test.ts')).toEqual([]);
    expect(await rules(readFileSync('lib/core/abort.ts', 'utf8'), 'lib/core/abort.ts')).toEqual([]);
    expect(await rules("import { followAbort } from '../core/abort';\nexport const follow = (s: AbortSignal, f: () => void) => followAbort(s, f);\n", 'lib/pipeline/x.ts')).toEqual([]);
  });

  it('no file over 400 lines', async () => {
    const code = Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    expect(await rules(code, 'lib/pipeline/x.ts')).toContain('max-lines');
    expect(await rules(code.split('\n').slice(0, 400).join('\n') + '\n', 'lib/pipeline/x.ts')).toEqual([]);
  });

  it('no shipped function over 80 lines or with more than 20 paths through it', async () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  s += ${i};`).join('\n');
    const fn = (n: number) => `export function f(): number {\n  let s = 0;\n${body(n - 4)}\n  return s;\n}\n`;
    expect(await rules(fn(81), 'lib/x.ts')).toContain('max-lines-per-function');
    expect(await rules(fn(80), 'lib/x.ts')).toEqual([]);
    // Tests and tools are not shipped: a long describe block is fine.
    expect(await rules(fn(81), 'lib/x.test.ts')).toEqual([]);
    const branches = (n: number) => `export function g(x: number): number {\n${Array.from({ length: n }, (_, i) => `  if (x === ${i}) return ${i};`).join('\n')}\n  return -1;\n}\n`;
    expect(await rules(branches(20), 'lib/x.ts')).toContain('complexity');
    expect(await rules(branches(19), 'lib/x.ts')).toEqual([]);
  });

  it('type-aware rules: a promise is never left floating, an unsafe any never spreads', async () => {
    const floating = 'export function f(p: Promise<number>): void {\n  p.then((x) => x + 1);\n}\n';
    expect(await rules(floating, 'lib/x.ts')).toContain('@typescript-eslint/no-floating-promises');
    expect(await rules(floating.replace('  p.then', '  void p.then'), 'lib/x.ts')).toEqual([]);
    const unsafe = 'export function f(s: string): number {\n  const v = JSON.parse(s);\n  return v.n;\n}\n';
    expect(await rules(unsafe, 'lib/x.ts')).toEqual(expect.arrayContaining(['@typescript-eslint/no-unsafe-assignment', '@typescript-eslint/no-unsafe-return']));
  });

  it('an error is never swallowed without a comment saying why', async () => {
    expect(await rules('export function f() {\n  try {\n    g();\n  } catch {}\n}\ndeclare function g(): void;\n', 'lib/x.ts')).toEqual(expect.arrayContaining(['ratify/no-silent-catch']));
    expect(await rules('export const p = fetch("x").catch(() => undefined);\n', 'lib/x.ts')).toContain('ratify/no-silent-catch');
    expect(await rules('export const p = fetch("x").then(() => 1, () => {});\n', 'lib/x.ts')).toContain('ratify/no-silent-catch');
    expect(await rules('// Offline is fine: the cache answers.\nexport const p = fetch("x").catch(() => undefined);\n', 'lib/x.ts')).toEqual([]);
    expect(await rules('export function f() {\n  try {\n    g();\n  } catch {\n    // best effort\n  }\n}\ndeclare function g(): void;\n', 'lib/x.ts')).toEqual([]);
  });

  it('lib/ folders import one way only, down the layers of ARCHITECTURE.md', async () => {
    const LAYER = '@typescript-eslint/no-restricted-imports';
    // Deliberate reverse imports: the core reaching up to the pipeline, retrieval to the store that
    // implements its page cache, settings to the search implementations, the pipeline to the runs.
    expect(await rules("import type { Run } from '../pipeline/run';\nexport type R = Run;\n", 'lib/core/x.ts')).toContain(LAYER);
    expect(await rules("import { createMemoryPageCache } from '../store/page-cache';\nexport const c = createMemoryPageCache;\n", 'lib/retrieval/x.ts')).toContain(LAYER);
    expect(await rules("import { createBrave } from '../retrieval/search/brave';\nexport const b = createBrave;\n", 'lib/settings/x.ts')).toContain(LAYER);
    expect(await rules("export { RUNS_PORT } from '@/lib/runs/messages';\n", 'lib/pipeline/x.ts')).toContain(LAYER);
    expect(await rules("import { createBrave } from '../../retrieval/search/brave';\nexport const b = createBrave;\n", 'lib/llm/sub/x.ts')).toContain(LAYER);
    // The same imports the other way round are allowed.
    expect(await rules("import type { Run } from '../core/run';\nexport type R = Run;\n", 'lib/pipeline/x.ts')).toEqual([]);
    expect(await rules("import type { PageCache } from '../retrieval/page-cache';\nexport type P = PageCache;\n", 'lib/store/x.ts')).toEqual([]);
    expect(await rules("import { SEARCH_PROVIDERS } from '@/lib/settings/search-providers';\nexport const s = SEARCH_PROVIDERS;\n", 'lib/retrieval/x.ts')).toEqual([]);
    // Tests beside a folder may reach up (they check it together with what uses it).
    expect(await rules("import type { Run } from '../pipeline/run';\nexport type R = Run;\n", 'lib/core/x.test.ts')).toEqual([]);
  });

  it('every folder of lib/ has its place in the layers', async () => {
    const folders = readdirSync('lib', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(folders).toContain('core');
    expect(readdirSync('lib', { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name)).toEqual([]);
    for (const folder of folders) {
      // Each folder is covered by the rule (nothing in lib/ imports the UI), and every folder but
      // the core is above the core.
      expect(await rules("import { App } from '@/components/App';\nexport const a = App;\n", `lib/${folder}/x.ts`), folder).toContain('@typescript-eslint/no-restricted-imports');
      if (folder !== 'core') expect(await rules(`export * from '../${folder}/x';\n`, 'lib/core/x.ts'), folder).toContain('@typescript-eslint/no-restricted-imports');
    }
    expect(await rules("import { App } from '../entrypoints/sidepanel/App';\nexport const a = App;\n", 'components/x.tsx')).toContain('@typescript-eslint/no-restricted-imports');
  });
});
