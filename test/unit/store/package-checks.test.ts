/**
 * The store checks (tools/store/) catch what they are for, on small packages made here: remote or
 * evaluated code, manifest fields and icons a store refuses, a minimum version below or above
 * what the code needs, features used with and without a test for them first.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanScript } from '../../../tools/store/features';
import { checkManifest, checkMinimumVersion, checkNoRemoteCode, checkPermissions, pngSize } from '../../../tools/store/package-checks';

const root = mkdtempSync(path.join(tmpdir(), 'ratify-pkg-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A PNG header that says width × height (what the checks read). */
function png(width: number, height: number): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

function pkg(name: string, files: Record<string, string | Buffer>): string {
  const dir = path.join(root, name);
  for (const [f, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), content);
  }
  return dir;
}

const icons = { 'icon/16.png': png(16, 16), 'icon/32.png': png(32, 32), 'icon/48.png': png(48, 48), 'icon/128.png': png(128, 128) };
const manifest = (extra: object) =>
  JSON.stringify({ manifest_version: 3, name: 'Ratify', version: '1.2.3', description: 'Checks what you read.', icons: { 16: 'icon/16.png', 32: 'icon/32.png', 48: 'icon/48.png', 128: 'icon/128.png' }, ...extra });

describe('store checks', () => {
  it('a clean package passes', () => {
    const dir = pkg('clean', { 'manifest.json': manifest({ minimum_chrome_version: '97' }), ...icons, 'a.js': 'export const x = [1, 2].findLast((v) => v > 1);' });
    expect(checkManifest(dir, 'chrome').problems).toEqual([]);
    expect(checkNoRemoteCode(dir).problems).toEqual([]);
    expect(pngSize(path.join(dir, 'icon/128.png'))).toEqual({ width: 128, height: 128 });
  });

  it('remote scripts and string evaluation are found', () => {
    const dir = pkg('remote', {
      'manifest.json': manifest({}),
      'page.html': '<script src="https://cdn.example.com/lib.js"></script>',
      'a.js': 'import("https://cdn.example.com/m.js"); eval("1"); const F = Function; new F("return 1"); setTimeout("go()", 1); importScripts("x.js");',
    });
    const problems = checkNoRemoteCode(dir).problems.join('\n');
    expect(problems).toContain('page.html: <script> loads https://cdn.example.com/lib.js');
    expect(problems).toContain('imports https://cdn.example.com/m.js');
    expect(problems).toContain('eval() evaluates a string as code');
    expect(problems).toContain('the Function constructor taken as a value');
    expect(problems).toContain('setTimeout with a string');
    expect(problems).toContain('importScripts()');
  });

  it('manifest fields and icons a store refuses are named', () => {
    const dir = pkg('bad-manifest', {
      'manifest.json': manifest({ version: '1.02', description: 'x'.repeat(140), key: 'MIIB…', icons: { 16: 'icon/16.png', 128: 'icon/16.png' } }),
      ...icons,
      '_private/x.js': '',
      'chunks/_virtual_x.js': '',
    });
    const problems = checkManifest(dir, 'chrome').problems.join('\n');
    expect(problems).toContain('version "1.02"');
    expect(problems).toContain('description must be 1-132 characters (has 140)');
    expect(problems).toContain('has a "key"');
    expect(problems).toContain('icons lacks 48×48');
    expect(problems).toContain('icons 128: icon/16.png is 16×16');
    expect(problems).toContain('names starting with "_" at the package root are reserved: _private');
    expect(problems).not.toContain('chunks/_virtual_x.js');
  });

  it('the minimum version must be what the code needs, neither lower nor higher', () => {
    const code = { ...icons, 'a.js': 'export const s = Math.sumPrecise([0.1, 0.2]);' };
    const low = pkg('low', { 'manifest.json': manifest({ minimum_chrome_version: '120' }), ...code });
    const high = pkg('high', { 'manifest.json': manifest({ minimum_chrome_version: '150' }), ...code });
    const exact = pkg('exact', { 'manifest.json': manifest({ minimum_chrome_version: '147' }), ...code });
    const noSources = pkg('src', { 'entrypoints/x.ts': '', 'lib/x.ts': '', 'components/x.tsx': '' });
    expect(checkMinimumVersion(low, noSources, 'chrome').problems.join()).toContain('120 is lower than what the code needs: 147 (Math.sumPrecise)');
    expect(checkMinimumVersion(high, noSources, 'chrome').problems.join()).toContain('150 is higher than needed: 147');
    expect(checkMinimumVersion(exact, noSources, 'chrome').problems).toEqual([]);
  });

  it('every permission is used, every API has its permission, and an optional one has a test without it', () => {
    const dir = pkg('perms', { 'manifest.json': manifest({ permissions: ['storage', 'alarms'], optional_permissions: ['bookmarks'] }), ...icons });
    const root = pkg('perms-src', {
      'entrypoints/background.ts': "browser.storage.local.get('x');\nbrowser.contextMenus.create({ id: 'x' });\n",
      'lib/x.ts': '',
      'components/x.tsx': '',
    });
    const problems = checkPermissions(dir, root, 'chrome').problems.join('\n');
    expect(problems).toContain('permission "alarms" is asked for but no source line uses it');
    expect(problems).toContain('browser.contextMenus needs the "contextMenus" permission (entrypoints/background.ts:2)');
    expect(problems).toContain('optional "bookmarks": no end-to-end test of Ratify without it');
    expect(problems).not.toContain('"storage"');
  });

  it('a feature the code tests for first is optional; one it calls outright is required', () => {
    expect([...scanScript('Math.sumPrecise([1])').used]).toContain('javascript.builtins.Math.sumPrecise');
    const guarded = scanScript('const sum = typeof Math.sumPrecise === "function" ? Math.sumPrecise : (a) => a.reduce((x, y) => x + y, 0);');
    expect([...guarded.tested]).toContain('javascript.builtins.Math.sumPrecise');
    const inTest = scanScript('const c = "captureStackTrace" in Error ? Error.captureStackTrace : () => {};');
    expect([...inTest.tested]).toContain('javascript.builtins.Error.captureStackTrace');
  });
});
