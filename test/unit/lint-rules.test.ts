/** The boundaries `npm run lint` enforces, each shown failing on a deliberate violation (and the
 * same code passing where it is allowed), through the repository's own eslint.config.js. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function rules(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('lint rules', () => {
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

  it('no file over 400 lines', async () => {
    const code = Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    expect(await rules(code, 'lib/pipeline/x.ts')).toContain('max-lines');
    expect(await rules(code.split('\n').slice(0, 400).join('\n') + '\n', 'lib/pipeline/x.ts')).toEqual([]);
  });

  it('an error is never swallowed without a comment saying why', async () => {
    expect(await rules('export function f() {\n  try {\n    g();\n  } catch {}\n}\ndeclare function g(): void;\n', 'lib/x.ts')).toEqual(expect.arrayContaining(['ratify/no-silent-catch']));
    expect(await rules('export const p = fetch("x").catch(() => undefined);\n', 'lib/x.ts')).toContain('ratify/no-silent-catch');
    expect(await rules('export const p = fetch("x").then(() => 1, () => {});\n', 'lib/x.ts')).toContain('ratify/no-silent-catch');
    expect(await rules('// Offline is fine: the cache answers.\nexport const p = fetch("x").catch(() => undefined);\n', 'lib/x.ts')).toEqual([]);
    expect(await rules('export function f() {\n  try {\n    g();\n  } catch {\n    // best effort\n  }\n}\ndeclare function g(): void;\n', 'lib/x.ts')).toEqual([]);
  });
});
