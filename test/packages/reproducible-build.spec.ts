/**
 * What addons.mozilla.org's reviewers do with the sources package: unpack it in an empty folder,
 * install exactly the locked dependencies, build the Firefox package, and compare it with the one
 * submitted. Every file must be byte-identical.
 *
 * The dependencies: the sources' package.json and package-lock.json must be the repository's, byte
 * for byte, so `npm ci` there installs what `npm ci` installed here (on CI, moments before, from a
 * fresh clone). That tree is hard-linked into the folder instead of installed a second time (a
 * minute on CI); where linking is impossible (another file system) npm ci runs there.
 */
import { expect, test } from '@playwright/test';
import JSZip from 'jszip';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageFiles } from '../../tools/store/package-checks.ts';

const ROOT = process.cwd();

function digests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of packageFiles(dir)) out[f] = createHash('sha256').update(readFileSync(path.join(dir, f))).digest('hex');
  return out;
}

test('the Firefox package built from the sources zip in an empty folder is byte-identical to the one submitted', async () => {
  const { name, version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  // The submission: the Firefox zip and the sources zip, as `npm run release` makes them.
  execFileSync('npx', ['wxt', 'zip', '-b', 'firefox'], { cwd: ROOT, stdio: 'pipe' });
  const submitted = path.join(ROOT, '.output/firefox-mv2');
  const sourcesZip = path.join(ROOT, '.output', `${name}-${version}-sources.zip`);

  const work = await mkdtemp(path.join(tmpdir(), 'ratify-sources-'));
  try {
    const zip = await JSZip.loadAsync(await readFile(sourcesZip));
    for (const entry of Object.values(zip.files)) {
      if (entry.dir) continue;
      await mkdir(path.dirname(path.join(work, entry.name)), { recursive: true });
      await writeFile(path.join(work, entry.name), await entry.async('nodebuffer'));
    }
    for (const f of ['package.json', 'package-lock.json']) expect(await readFile(path.join(work, f)), f).toEqual(await readFile(path.join(ROOT, f)));
    try {
      execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(work, 'node_modules')], { stdio: 'pipe' });
      // Build caches are not dependencies.
      for (const cache of ['.cache', '.vite']) await rm(path.join(work, 'node_modules', cache), { recursive: true, force: true });
    } catch {
      await rm(path.join(work, 'node_modules'), { recursive: true, force: true });
      execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: work, stdio: 'pipe' });
    }
    execFileSync('npx', ['wxt', 'build', '-b', 'firefox'], { cwd: work, stdio: 'pipe' });

    const rebuilt = digests(path.join(work, '.output/firefox-mv2'));
    const original = digests(submitted);
    console.log(`${Object.keys(original).length} files compared, sources zip ${sourcesZip}`);
    expect(Object.keys(rebuilt)).toEqual(Object.keys(original));
    const differ = Object.keys(original).filter((f) => rebuilt[f] !== original[f]);
    expect(differ, 'files that differ').toEqual([]);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
