/**
 * Both packages as the stores check them, offline: addons.mozilla.org's linter (web-ext lint) on
 * the Firefox package, and tools/store/package-checks.ts on both. `npm run check:stores` prints
 * the report (after `npm run build && npm run build:firefox`); test/packages/stores.spec.ts runs
 * the same in `npm test`.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { checkManifest, checkMinimumVersion, checkNoRemoteCode, checkPermissions, type Check } from './package-checks';

export const CHROME_DIR = '.output/chrome-mv3';
export const FIREFOX_DIR = '.output/firefox-mv2';
/** Firefox's data-consent key (data_collection_permissions) exists from Firefox 140; AMO requires
 * it of new add-ons, so the Firefox minimum is at least that. */
export const FIREFOX_FLOOR = { version: 140, why: 'data_collection_permissions (Firefox 140+, required by addons.mozilla.org)' };

export interface LintResult {
  summary: { errors: number; warnings: number; notices: number };
  messages: { _type: string; code: string; message: string; file?: string; line?: number }[];
  /** What `web-ext lint` prints: the summary and one line per message. */
  text: string;
}

/** Mozilla's addons-linter through web-ext (an npm devDependency), offline, as AMO runs it. */
export function webExtLint(dir = FIREFOX_DIR, root = process.cwd()): LintResult {
  const bin = path.join(root, 'node_modules', '.bin', 'web-ext');
  const args = ['lint', '--source-dir', dir, '--no-config-discovery', '--boring'];
  let json: string;
  try {
    json = execFileSync(bin, [...args, '--output', 'json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    // web-ext exits non-zero on errors; its report is still on stdout.
    json = String((e as { stdout?: string }).stdout ?? '');
  }
  const parsed = JSON.parse(json.slice(json.indexOf('{'))) as { summary: LintResult['summary']; errors: LintResult['messages']; warnings: LintResult['messages']; notices: LintResult['messages'] };
  const messages = [...parsed.errors, ...parsed.warnings, ...parsed.notices];
  const { errors, warnings, notices } = parsed.summary;
  const text = [`web-ext lint --source-dir ${dir}`, `errors ${errors}, warnings ${warnings}, notices ${notices}`, ...messages.map((m) => `${m._type.toUpperCase()} ${m.code} ${m.file ?? ''}${m.line ? `:${m.line}` : ''} ${m.message}`)].join('\n');
  return { summary: parsed.summary, messages, text };
}

export function packageChecks(root = process.cwd()): Check[] {
  const chrome = path.join(root, CHROME_DIR);
  const firefox = path.join(root, FIREFOX_DIR);
  return [
    checkManifest(chrome, 'chrome'),
    { ...checkNoRemoteCode(chrome), name: 'chrome: no remotely hosted or evaluated code' },
    checkPermissions(chrome, root, 'chrome'),
    checkMinimumVersion(chrome, root, 'chrome'),
    checkManifest(firefox, 'firefox'),
    { ...checkNoRemoteCode(firefox), name: 'firefox: no remotely hosted or evaluated code' },
    checkPermissions(firefox, root, 'firefox'),
    checkMinimumVersion(firefox, root, 'firefox', FIREFOX_FLOOR),
  ];
}

export function formatCheck(c: Check): string {
  return [`${c.problems.length ? 'FAIL' : 'ok  '} ${c.name}`, ...c.problems.map((p) => `  ✗ ${p}`), ...c.facts.map((f) => `    ${f}`)].join('\n');
}

/** Each permission with every line that uses it: what a reviewer asks to see. */
export function formatPermissionUses(root = process.cwd()): string {
  const out: string[] = [];
  for (const [browser, dir] of [
    ['chrome', CHROME_DIR],
    ['firefox', FIREFOX_DIR],
  ] as const) {
    const { uses } = checkPermissions(path.join(root, dir), root, browser);
    out.push(`${browser}:`);
    for (const [p, u] of uses) out.push(`  ${p}`, ...u.map((x) => `    ${x.file}:${x.line}  ${x.text}`));
  }
  return out.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const lint = webExtLint();
  console.log(lint.text);
  const checks = packageChecks();
  for (const c of checks) console.log(`\n${formatCheck(c)}`);
  console.log(`\nWhere each permission is used:\n${formatPermissionUses()}`);
  const failed = checks.filter((c) => c.problems.length).length + (lint.summary.errors + lint.summary.warnings > 0 ? 1 : 0);
  process.exitCode = failed ? 1 : 0;
}
