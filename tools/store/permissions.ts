/**
 * Where the sources use each permission the manifest asks for (so none is unused, and a store
 * reviewer can be shown the lines), and which permission each extension API namespace the
 * sources call needs (so none is missing). The justifications a store form asks for are in
 * store/chrome-web-store.md; a section per permission there is checked too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Use {
  file: string;
  line: number;
  text: string;
}

/** Lines that show a permission in use. Permissions without an API of their own (activeTab,
 * unlimitedStorage, favicon) are shown by what they enable. */
export const PERMISSION_EVIDENCE: Record<string, { shows: string; patterns: RegExp[] }> = {
  activeTab: {
    shows: 'the user invokes Ratify on a tab (context menu, shortcut, toolbar button) and it reads that selection or marks that page with no host access',
    patterns: [/contextMenus\.onClicked\.addListener/, /commands\.onCommand\.addListener/, /setPanelBehavior\(\{ openPanelOnActionClick/],
  },
  storage: { shows: 'settings and the active run in storage.local', patterns: [/browser\.storage\./, /storage\.defineItem/] },
  contextMenus: { shows: 'the "Verify with RAT" menu item', patterns: [/browser\.contextMenus\./] },
  tabs: { shows: 'titles and addresses of open tabs for the source list and the @ picker; focusing a cited tab', patterns: [/browser\.tabs\.(query|get|update|create|on[A-Z]\w*)/] },
  scripting: { shows: 'reading a tab (reader.js), drawing marks (marks.js), selecting a quote', patterns: [/browser\.scripting\.executeScript/] },
  unlimitedStorage: { shows: 'IndexedDB (Dexie): history with traces, the page cache and embeddings, kept beyond the default quota', patterns: [/extends Dexie/] },
  sidePanel: { shows: 'the side panel, opened from the action, the menu and the shortcut', patterns: [/browser\.sidePanel\./] },
  offscreen: { shows: 'the offscreen document that parses fetched pages and PDFs and runs the built-in model', patterns: [/browser\.offscreen\b/] },
  favicon: { shows: "site icons from Chrome's local favicon cache (no request leaves the browser)", patterns: [/\/_favicon\//] },
  '<all_urls>': { shows: 'optional: reading other open tabs and the pages search results point to, asked at first use', patterns: [/browser\.permissions\.(request|contains|remove)/] },
};

/** For each optional permission, the end-to-end tests that run Ratify without it (the user has
 * not allowed it, or took it back) and check it goes on with what it may read and says why. */
export const OPTIONAL_DEGRADES: Record<string, string[]> = {
  '<all_urls>': ['test/e2e/site-access.spec.ts', 'test/e2e-firefox/site-access.spec.ts'],
};

/** The permission an API namespace needs (null: none; it is always available or a manifest key). */
export const NAMESPACE_PERMISSION: Record<string, string | null> = {
  runtime: null,
  i18n: null,
  tabs: null, // Available without a permission; `tabs` is what exposes url and title (evidence above).
  windows: null,
  permissions: null,
  commands: null,
  action: null,
  sidebarAction: null,
  storage: 'storage',
  contextMenus: 'contextMenus',
  scripting: 'scripting',
  sidePanel: 'sidePanel',
  offscreen: 'offscreen',
};

const SOURCE_DIRS = ['entrypoints', 'lib', 'components'];

/** Shipped source files (tests and test helpers left out), relative to `root`. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of SOURCE_DIRS) {
    for (const f of readdirSync(path.join(root, dir), { recursive: true }) as string[]) {
      const rel = path.join(dir, f).split(path.sep).join('/');
      if (/\.(ts|tsx)$/.test(rel) && !/\.test\.tsx?$/.test(rel)) out.push(rel);
    }
  }
  return out.sort();
}

function grep(root: string, files: string[], patterns: RegExp[]): Use[] {
  const uses: Use[] = [];
  for (const file of files) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      if (patterns.some((p) => p.test(text))) uses.push({ file, line: i + 1, text: text.trim().slice(0, 140) });
    });
  }
  return uses;
}

/** For each permission the manifest asks for (required and optional), the lines that use it. */
export function permissionUses(root: string, permissions: string[]): Map<string, Use[]> {
  const files = sourceFiles(root);
  const out = new Map<string, Use[]>();
  for (const p of permissions) {
    const evidence = PERMISSION_EVIDENCE[p];
    out.set(p, evidence ? grep(root, files, evidence.patterns) : []);
  }
  return out;
}

/** Extension API namespaces the sources call (browser.<namespace>), with where. */
export function namespacesUsed(root: string): Map<string, Use[]> {
  const out = new Map<string, Use[]>();
  for (const use of grep(root, sourceFiles(root), [/\bbrowser\.[a-zA-Z0-9]+/])) {
    for (const m of use.text.matchAll(/\bbrowser\.([a-zA-Z0-9]+)/g)) {
      const ns = m[1]!;
      out.set(ns, [...(out.get(ns) ?? []), use]);
    }
  }
  return out;
}

/** Extension API members the sources call (browser.<namespace>.<member>). */
export function apiMembersUsed(root: string): Map<string, Use[]> {
  const out = new Map<string, Use[]>();
  for (const use of grep(root, sourceFiles(root), [/\bbrowser\.[a-zA-Z0-9]+\.[a-zA-Z]+/])) {
    for (const m of use.text.matchAll(/\bbrowser\.([a-zA-Z0-9]+)\.([a-zA-Z]+)/g)) {
      const key = `${m[1]}.${m[2]}`;
      out.set(key, [...(out.get(key) ?? []), use]);
    }
  }
  return out;
}
