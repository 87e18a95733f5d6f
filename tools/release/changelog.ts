/** The changelog step of a release (Keep a Changelog): what is under "Unreleased" becomes the new
 * version's section, dated; "Unreleased" starts empty again. */

const UNRELEASED = /^## \[Unreleased\][^\n]*\n/m;

export function releaseChangelog(text: string, version: string, date: string): string {
  const head = UNRELEASED.exec(text);
  if (!head) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  const bodyStart = head.index + head[0].length;
  const next = text.slice(bodyStart).search(/^## \[/m);
  const bodyEnd = next === -1 ? text.length : bodyStart + next;
  const body = text.slice(bodyStart, bodyEnd).trim();
  if (!/^- /m.test(body)) throw new Error('nothing to release: "Unreleased" in CHANGELOG.md lists no change');
  if (new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\]`, 'm').test(text)) throw new Error(`CHANGELOG.md already has a section for ${version}`);
  return `${text.slice(0, head.index)}## [Unreleased]\n\n## [${version}] - ${date}\n\n${body}\n\n${text.slice(bodyEnd)}`;
}

/** x.y.z, each part a number without leading zeros, and newer than `current`. */
export function checkVersion(version: string, current: string): void {
  if (!/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.test(version)) throw new Error(`"${version}" is not a version like 1.2.3 (what both stores accept)`);
  const a = version.split('.').map(Number);
  const b = current.split('.').map(Number);
  const newer = a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  if (newer <= 0) throw new Error(`${version} is not newer than the current version ${current}`);
}
