/**
 * `npm run release -- <version> [--date YYYY-MM-DD]`: what a maintainer runs to cut a release.
 *  1. checks the version (x.y.z, newer than package.json's) and that "Unreleased" lists changes;
 *  2. bumps the version in package.json and package-lock.json (`npm version`); the manifests
 *     take it from package.json (WXT);
 *  3. moves "Unreleased" in CHANGELOG.md under the version, dated (today in UTC by default);
 *  4. builds the three zips: the Chrome package, the Firefox package and the sources package
 *     addons.mozilla.org asks for (wxt zip), and prints them with their sizes and SHA-256.
 * It commits and tags nothing: it prints the commands, so the maintainer reviews the diff first.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkVersion, releaseChangelog } from './changelog';

function main(argv: string[]): void {
  const version = argv.find((a) => !a.startsWith('--'));
  const dateFlag = argv.indexOf('--date');
  const date = dateFlag >= 0 ? argv[dateFlag + 1]! : new Date().toISOString().slice(0, 10);
  if (!version) throw new Error('usage: npm run release -- <version> [--date YYYY-MM-DD]');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`--date ${date} is not YYYY-MM-DD`);
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string };
  checkVersion(version, pkg.version);
  const changelog = releaseChangelog(readFileSync('CHANGELOG.md', 'utf8'), version, date);

  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'inherit' });
  run('npm', ['version', version, '--no-git-tag-version']);
  writeFileSync('CHANGELOG.md', changelog);
  run('npx', ['wxt', 'zip']);
  run('npx', ['wxt', 'zip', '-b', 'firefox']);

  console.log(`\nRatify ${version} (${date}):`);
  for (const kind of ['chrome', 'firefox', 'sources']) {
    const file = path.join('.output', `${pkg.name}-${version}-${kind}.zip`);
    const bytes = readFileSync(file);
    console.log(`  ${file}  ${(statSync(file).size / 1024).toFixed(0)} KiB  sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
  }
  console.log(`\nReview the diff (package.json, package-lock.json, CHANGELOG.md), then:\n  git commit -am "Release ${version}" && git tag v${version}`);
  console.log(`Then point PREVIOUS_RELEASE in test/e2e/older-build.ts at ${version} and that commit, so the update tests start from it.`);
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error(`release: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
