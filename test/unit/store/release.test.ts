/**
 * The release's changelog step and version check (tools/release/), and the store material's
 * limits: texts the forms cap, a justification for every permission, images at the stores' sizes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config from '../../../wxt.config';
import { checkVersion, releaseChangelog } from '../../../tools/release/changelog';
import { pngSize } from '../../../tools/store/package-checks';

const CHANGELOG = `# Changelog

Intro.

## [Unreleased]

### Added

- Something new.

## [0.1.0] - 2026-11-25

- First.
`;

describe('release', () => {
  it('moves Unreleased under the version, dated, and leaves Unreleased empty', () => {
    const out = releaseChangelog(CHANGELOG, '0.2.0', '2026-12-01');
    expect(out).toBe(`# Changelog

Intro.

## [Unreleased]

## [0.2.0] - 2026-12-01

### Added

- Something new.

## [0.1.0] - 2026-11-25

- First.
`);
  });

  it('refuses a release with nothing under Unreleased, or a version already there', () => {
    const released = releaseChangelog(CHANGELOG, '0.2.0', '2026-12-01');
    expect(() => releaseChangelog(released, '0.3.0', '2026-12-02')).toThrow(/nothing to release/);
    expect(() => releaseChangelog(CHANGELOG, '0.1.0', '2026-12-02')).toThrow(/already has a section for 0.1.0/);
  });

  it('takes only x.y.z versions newer than the current one', () => {
    expect(() => checkVersion('0.2.0', '0.1.0')).not.toThrow();
    expect(() => checkVersion('0.1.0', '0.1.0')).toThrow(/not newer/);
    expect(() => checkVersion('0.0.9', '0.1.0')).toThrow(/not newer/);
    expect(() => checkVersion('v0.2', '0.1.0')).toThrow(/not a version/);
    expect(() => checkVersion('0.02.0', '0.1.0')).toThrow(/not a version/);
  });

  it('the repository changelog can be released', () => {
    expect(() => releaseChangelog(readFileSync('CHANGELOG.md', 'utf8'), '99.0.0', '2026-12-01')).not.toThrow();
  });
});

describe('store material', () => {
  const cws = readFileSync('store/chrome-web-store.md', 'utf8');

  it('justifies every permission either manifest asks for', async () => {
    const manifest = config.manifest as (env: object) => Promise<Record<string, string[] | undefined>> | Record<string, string[] | undefined>;
    for (const browser of ['chrome', 'firefox']) {
      const m = await manifest({ browser, manifestVersion: browser === 'chrome' ? 3 : 2, mode: 'production', command: 'build' });
      // WXT adds sidePanel from the side panel entrypoint; the config lists the rest.
      const asked = [...(m.permissions ?? []), ...(m.optional_permissions ?? []), ...(m.optional_host_permissions ?? []), ...(browser === 'chrome' ? ['sidePanel'] : [])];
      for (const p of asked) expect(cws, p).toMatch(new RegExp(`^### (Host permission: )?\`${p.replace(/[<>]/g, '\\$&')}\``, 'm'));
    }
  });

  it('keeps the summaries within what the forms take', () => {
    for (const file of ['store/listing.en.md', 'store/listing.zh-CN.md']) {
      const quotes = [...readFileSync(file, 'utf8').matchAll(/^> (.+)$/gm)].map((m) => m[1]!);
      expect(quotes, file).toHaveLength(2);
      expect(quotes[0]!.length, `${file}: Chrome summary`).toBeLessThanOrEqual(132);
      expect(quotes[1]!.length, `${file}: AMO summary`).toBeLessThanOrEqual(250);
    }
    // The Chrome summary is the manifest description, in each language.
    const en = JSON.parse(readFileSync('public/_locales/en/messages.json', 'utf8')) as Record<string, { message: string }>;
    expect(readFileSync('store/listing.en.md', 'utf8')).toContain(`> ${en.extDescription!.message}`);
  });

  it('lists images at the sizes the stores take, and they exist', () => {
    for (const file of ['store/listing.en.md', 'store/listing.zh-CN.md']) {
      const rows = [...readFileSync(file, 'utf8').matchAll(/^\| `([^`]+\.png)` \| (\d+)×(\d+) \|/gm)];
      expect(rows.length, file).toBeGreaterThan(1);
      for (const [, img, w, h] of rows) expect(pngSize(`store/images/${img}`), img).toEqual({ width: Number(w), height: Number(h) });
    }
  });
});
