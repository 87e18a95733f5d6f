/**
 * The previous release, built from its commit, for the update tests (update.spec.ts and
 * test/e2e-firefox/update.spec.ts): its sources from `git archive`, its locked dependencies, both
 * packages built with its own wxt.config.ts. Built once into test-results/older-builds/<commit>/
 * and reused by later runs on the same machine (CI builds it once per run).
 *
 * After a release, point PREVIOUS_RELEASE at it (CHANGELOG.md, tools/release/release.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const PREVIOUS_RELEASE = { version: '0.1.0', commit: 'a2cb6f0a9f1fe0c72bd93595021120dbe3d2cf8f' };

export interface OlderBuild {
  version: string;
  commit: string;
  chrome: string;
  firefox: string;
  /** The settings format version that build reads and writes (lib/settings/migrations.ts then). */
  settingsVersion: number;
}

type Lock = { packages: Record<string, { version?: string; integrity?: string }> };

/** Whether every package the older lockfile installs is installed here, same version, same
 * tarball: then this checkout's node_modules gives the older build exactly its dependencies. */
function sameDependencies(older: Lock, current: Lock): boolean {
  return Object.entries(older.packages).every(([key, p]) => key === '' || (current.packages[key]?.version === p.version && current.packages[key]?.integrity === p.integrity));
}

export async function olderBuild(root = process.cwd()): Promise<OlderBuild> {
  const { version, commit } = PREVIOUS_RELEASE;
  const dir = path.join(root, 'test-results', 'older-builds', commit);
  const src = path.join(dir, 'src');
  const out = { version, commit, chrome: path.join(dir, 'chrome-mv3'), firefox: path.join(dir, 'firefox-mv2') };
  const settingsFile = path.join(dir, 'settings-version');
  if (existsSync(path.join(out.chrome, 'manifest.json')) && existsSync(path.join(out.firefox, 'manifest.json')) && existsSync(settingsFile)) {
    return { ...out, settingsVersion: Number(readFileSync(settingsFile, 'utf8')) };
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(src, { recursive: true });
  const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  run('git', ['archive', '--format=tar', '-o', path.join(dir, 'src.tar'), commit], root);
  run('tar', ['-xf', path.join(dir, 'src.tar'), '-C', src], root);
  const olderLock = JSON.parse(readFileSync(path.join(src, 'package-lock.json'), 'utf8')) as Lock;
  const currentLock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Lock;
  if (sameDependencies(olderLock, currentLock)) run('cp', ['-al', path.join(root, 'node_modules'), path.join(src, 'node_modules')], root);
  else run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], src);
  run('npx', ['wxt', 'build'], src);
  run('npx', ['wxt', 'build', '-b', 'firefox'], src);
  await cp(path.join(src, '.output', 'chrome-mv3'), out.chrome, { recursive: true });
  await cp(path.join(src, '.output', 'firefox-mv2'), out.firefox, { recursive: true });
  const settingsVersion = Number(/SETTINGS_VERSION = (\d+)/.exec(readFileSync(path.join(src, 'lib/settings/migrations.ts'), 'utf8'))?.[1]);
  if (!settingsVersion) throw new Error(`no SETTINGS_VERSION in ${commit}'s lib/settings/migrations.ts`);
  await writeFile(settingsFile, String(settingsVersion));
  await rm(src, { recursive: true, force: true });
  await rm(path.join(dir, 'src.tar'), { force: true });
  return { ...out, settingsVersion };
}
