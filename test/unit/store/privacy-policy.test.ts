/**
 * PRIVACY.md says what the README's "What Ratify sends where" says, declares in words exactly the
 * Firefox data consent the manifest carries, and is linked from the README (the options page's
 * link is checked in test/e2e/privacy-policy.spec.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config from '../../../wxt.config';

const readme = readFileSync('README.md', 'utf8');
const privacy = readFileSync('PRIVACY.md', 'utf8');

/** The bold recipient at the start of each row of the first table after `heading`. */
function recipients(md: string, heading: RegExp): string[] {
  const start = md.search(heading);
  expect(start, String(heading)).toBeGreaterThanOrEqual(0);
  const rows = md.slice(start).split('\n').filter((l) => l.startsWith('| **'));
  const table: string[] = [];
  for (const row of rows) {
    table.push(/^\| \*\*(.+?)\*\*/.exec(row)![1]!);
    if (table.length === 3) break;
  }
  return table;
}

async function firefoxManifest(): Promise<{ browser_specific_settings: { gecko: { data_collection_permissions: { required: string[]; optional?: string[] } } } }> {
  const manifest = config.manifest as (env: object) => unknown;
  return (await manifest({ browser: 'firefox', manifestVersion: 2, mode: 'production', command: 'build' })) as never;
}

describe('privacy policy', () => {
  it('names the same recipients as the README, in the same order', () => {
    const fromReadme = recipients(readme, /^## What Ratify sends where/m);
    expect(fromReadme).toEqual(['Your model endpoint', 'The search providers you enabled', 'Web pages found by search']);
    expect(recipients(privacy, /^## What Ratify sends, to whom, and when/m)).toEqual(fromReadme);
  });

  it('holds the web-search rule: queries only from what the user typed or selected, never decided by tabs or the page', () => {
    for (const doc of [readme, privacy]) {
      const row = doc.split('\n').find((l) => l.startsWith('| **The search providers you enabled**'))!;
      expect(row).toMatch(/written only from what you typed or selected/);
      expect(row).toMatch(/nothing (in )?your open tabs or the page you are on (contain )?decides a word of them/);
    }
  });

  it('explains exactly the data kinds the Firefox manifest declares', async () => {
    const declared = (await firefoxManifest()).browser_specific_settings.gecko.data_collection_permissions;
    const section = privacy.slice(privacy.indexOf("## Firefox's data consent"), privacy.indexOf('## Permissions'));
    const explained = [...section.matchAll(/^- `(\w+)` —/gm)].map((m) => m[1]);
    expect(explained.sort()).toEqual([...declared.required].sort());
    expect(declared.optional ?? []).toEqual([]);
  });

  it('is linked from the README', () => {
    expect(readme).toContain('[PRIVACY.md](PRIVACY.md)');
  });
});
