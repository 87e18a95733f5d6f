/**
 * The checks the Chrome Web Store (and addons.mozilla.org, beside web-ext lint) make that can be
 * made offline, on a built package directory: manifest fields and icons, no remotely hosted or
 * evaluated code, every permission used and none missing, and minimum versions true to what the
 * code uses. Each check returns problems (empty: passed) and the facts a reviewer would ask for.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { highest, isRequired, parseScript, scanPackage, shippedIn, type AnyNode, type Browser, type Requirement } from './features';
import { NAMESPACE_PERMISSION, OPTIONAL_DEGRADES, apiMembersUsed, namespacesUsed, permissionUses, type Use } from './permissions';

export type Manifest = Record<string, unknown> & {
  manifest_version: number;
  name: string;
  version: string;
  default_locale?: string;
  description?: string;
  permissions?: string[];
  optional_permissions?: string[];
  optional_host_permissions?: string[];
  icons?: Record<string, string>;
};

export interface Check {
  name: string;
  problems: string[];
  /** What was found, for the report. */
  facts: string[];
}

export function packageFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** PNG width and height from its IHDR chunk. */
export function pngSize(file: string): { width: number; height: number } | undefined {
  const b = readFileSync(file);
  if (b.length < 24 || b.toString('latin1', 1, 4) !== 'PNG' || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** __MSG_x__ resolved in every locale (each must define it). */
function localized(dir: string, manifest: Manifest, value: string, problems: string[]): string[] {
  const m = /^__MSG_(\w+)__$/.exec(value);
  if (!m) return [value];
  const locales = readdirSync(path.join(dir, '_locales'));
  return locales.map((loc) => {
    const messages = JSON.parse(readFileSync(path.join(dir, '_locales', loc, 'messages.json'), 'utf8')) as Record<string, { message: string }>;
    const msg = messages[m[1]!]?.message;
    if (msg === undefined) problems.push(`_locales/${loc} lacks ${m[1]} (used by the manifest; default_locale ${String(manifest.default_locale)})`);
    return msg ?? '';
  });
}

/** Manifest fields and icons as the Chrome Web Store checks them at upload. */
export function checkManifest(dir: string, browser: Browser): Check {
  const manifest = readManifest(dir);
  const problems: string[] = [];
  const facts: string[] = [];
  const expectMv = browser === 'chrome' ? 3 : 2;
  if (manifest.manifest_version !== expectMv) problems.push(`manifest_version is ${manifest.manifest_version}, expected ${expectMv}`);
  if (!/^(0|[1-9]\d{0,4})(\.(0|[1-9]\d{0,4})){0,3}$/.test(manifest.version) || manifest.version.split('.').some((n) => Number(n) > 65535)) problems.push(`version "${manifest.version}" is not 1-4 dot-separated integers 0-65535`);
  if (manifest.default_locale && !packageFiles(dir).includes(`_locales/${manifest.default_locale}/messages.json`)) problems.push(`default_locale ${manifest.default_locale} has no messages.json`);
  for (const name of localized(dir, manifest, manifest.name, problems)) if (!name || name.length > 75) problems.push(`name "${name}" must be 1-75 characters`);
  for (const d of localized(dir, manifest, manifest.description ?? '', problems)) {
    if (!d || d.length > 132) problems.push(`description must be 1-132 characters (has ${d.length}): "${d}"`);
    else facts.push(`description (${d.length} chars): ${d}`);
  }
  if ('key' in manifest) problems.push('the package manifest has a "key": the stores assign the id; a pinned key belongs in test builds only');
  const icons = manifest.icons ?? {};
  for (const size of ['16', '32', '48', '128']) if (!icons[size]) problems.push(`icons lacks ${size}×${size} (the Web Store requires 128; Chrome shows 16, 32 and 48)`);
  const action = (manifest.action ?? manifest.browser_action) as { default_icon?: Record<string, string> } | undefined;
  for (const [label, set] of [
    ['icons', icons],
    ['action.default_icon', action?.default_icon ?? {}],
  ] as const) {
    for (const [size, file] of Object.entries(set)) {
      const dims = pngSize(path.join(dir, file));
      if (!dims) problems.push(`${label} ${size}: ${file} is not a PNG in the package`);
      else if (dims.width !== Number(size) || dims.height !== Number(size)) problems.push(`${label} ${size}: ${file} is ${dims.width}×${dims.height}`);
      else facts.push(`${label} ${size}: ${file} ${dims.width}×${dims.height} PNG`);
    }
  }
  // Chrome refuses an extension whose root holds a name starting with "_" (reserved for the
  // browser; _locales is its own); names in subfolders (a bundler's chunks/_virtual_…) are fine.
  const reserved = [...new Set(packageFiles(dir).map((f) => f.split('/')[0]!))].filter((top) => top.startsWith('_') && top !== '_locales');
  if (reserved.length) problems.push(`names starting with "_" at the package root are reserved: ${reserved.join(', ')}`);
  const csp = manifest.content_security_policy;
  const policy = typeof csp === 'string' ? csp : ((csp as { extension_pages?: string } | undefined)?.extension_pages ?? '');
  const scriptSrc = /script-src([^;]*)/.exec(policy)?.[1]?.trim().split(/\s+/) ?? [];
  const allowed = ["'self'", "'wasm-unsafe-eval'"];
  if (scriptSrc.some((s) => !allowed.includes(s))) problems.push(`script-src allows more than the package itself: ${scriptSrc.join(' ')}`);
  facts.push(`content_security_policy script-src: ${scriptSrc.join(' ') || '(default)'}`);
  return { name: `${browser} manifest`, problems, facts };
}

function walk(n: AnyNode, visit: (n: AnyNode, parent: AnyNode | undefined) => void, parent?: AnyNode): void {
  if (!n || typeof n.type !== 'string') return;
  visit(n, parent);
  for (const [k, v] of Object.entries(n)) {
    if (k === 'type' || k === 'start' || k === 'end') continue;
    if (Array.isArray(v)) for (const c of v) walk(c as AnyNode, visit, n);
    else if (v && typeof v === 'object') walk(v as AnyNode, visit, n);
  }
}

const REMOTE = /^(https?:)?\/\//i;

/** No remotely hosted code: every script and module the package can load is one of its files,
 * and nothing evaluates a string as code. */
export function checkNoRemoteCode(dir: string): Check {
  const problems: string[] = [];
  const files = packageFiles(dir);
  for (const file of files.filter((f) => f.endsWith('.html'))) {
    const html = readFileSync(path.join(dir, file), 'utf8');
    for (const m of html.matchAll(/<(script|link|iframe)\b[^>]*\b(src|href)=["']([^"']+)["']/gi)) if (REMOTE.test(m[3]!)) problems.push(`${file}: <${m[1]}> loads ${m[3]}`);
  }
  let scripts = 0;
  for (const file of files.filter((f) => /\.m?js$/.test(f))) {
    scripts++;
    const code = readFileSync(path.join(dir, file), 'utf8');
    const ast = parseScript(code);
    const at = (n: AnyNode) => `${file}:${code.slice(0, n.start).split('\n').length}`;
    const str = (n: AnyNode | undefined): string | undefined => (n?.type === 'Literal' && typeof n.value === 'string' ? n.value : n?.type === 'TemplateLiteral' ? (n.quasis as { value: { cooked: string } }[])[0]?.value.cooked : undefined);
    walk(ast, (n, parent) => {
      if ((n.type === 'ImportExpression' || n.type === 'ImportDeclaration' || n.type === 'ExportAllDeclaration' || n.type === 'ExportNamedDeclaration') && REMOTE.test(str(n.source as AnyNode) ?? '')) problems.push(`${at(n)}: imports ${str(n.source as AnyNode)}`);
      if (n.type === 'CallExpression' || n.type === 'NewExpression') {
        const callee = n.callee as AnyNode;
        const name = callee.type === 'Identifier' ? (callee.name as string) : callee.type === 'MemberExpression' && !callee.computed ? ((callee.property as AnyNode).name as string) : '';
        if (name === 'eval' || (callee.type === 'Identifier' && name === 'Function')) problems.push(`${at(n)}: ${name}() evaluates a string as code`);
        if (name === 'importScripts') problems.push(`${at(n)}: importScripts()`);
        if ((name === 'setTimeout' || name === 'setInterval') && str((n.arguments as AnyNode[])[0]) !== undefined) problems.push(`${at(n)}: ${name} with a string`);
      }
      // `Function` taken as a value (const F = Function; new F(…)) is eval by another name.
      if (n.type === 'Identifier' && n.name === 'Function' && parent && !(parent.type === 'MemberExpression' && parent.object === n) && parent.type !== 'BinaryExpression' && !(parent.type === 'Property' && parent.key === n) && !(parent.type === 'MemberExpression' && parent.property === n)) {
        const inList = parent.type === 'ArrayExpression' || (parent.type === 'CallExpression' && parent.callee !== n);
        if (!inList) problems.push(`${at(n)}: the Function constructor taken as a value`);
      }
    });
  }
  return { name: 'no remotely hosted or evaluated code', problems, facts: [`${scripts} scripts parsed, ${files.filter((f) => f.endsWith('.html')).length} pages read`] };
}

/** Every permission the manifest asks for is used (the lines are the facts), and every API
 * namespace the sources call has its permission. */
export function checkPermissions(dir: string, root: string, browser: Browser): Check & { uses: Map<string, Use[]> } {
  const manifest = readManifest(dir);
  const problems: string[] = [];
  const facts: string[] = [];
  const asked = [...(manifest.permissions ?? []), ...(manifest.optional_permissions ?? []), ...(manifest.optional_host_permissions ?? [])];
  const uses = permissionUses(root, asked);
  for (const p of asked) {
    const u = uses.get(p) ?? [];
    if (!u.length) problems.push(`permission "${p}" is asked for but no source line uses it (or tools/store/permissions.ts has no evidence for it)`);
    facts.push(`${p}: ${u.length} use(s)${u[0] ? `, e.g. ${u[0].file}:${u[0].line}` : ''}`);
  }
  for (const p of [...(manifest.optional_permissions ?? []), ...(manifest.optional_host_permissions ?? [])]) {
    const tests = OPTIONAL_DEGRADES[p] ?? [];
    const missing = tests.filter((t) => !existsSync(path.join(root, t)));
    if (!tests.length || missing.length) problems.push(`optional "${p}": no end-to-end test of Ratify without it${missing.length ? ` (${missing.join(', ')} missing)` : ''} (tools/store/permissions.ts OPTIONAL_DEGRADES)`);
    else facts.push(`optional ${p}: without it, tested by ${tests.join(', ')}`);
  }
  for (const [ns, where] of namespacesUsed(root)) {
    if (!(ns in NAMESPACE_PERMISSION)) {
      problems.push(`browser.${ns} (${where[0]!.file}:${where[0]!.line}) is not classified in tools/store/permissions.ts NAMESPACE_PERMISSION`);
      continue;
    }
    const needs = NAMESPACE_PERMISSION[ns];
    // Chrome-only namespaces (sidePanel, offscreen) are guarded in the Firefox build, which lacks them.
    const chromeOnly = ns === 'sidePanel' || ns === 'offscreen';
    if (needs && !asked.includes(needs) && !(browser === 'firefox' && chromeOnly)) problems.push(`browser.${ns} needs the "${needs}" permission (${where[0]!.file}:${where[0]!.line})`);
  }
  return { name: `${browser} permissions`, problems, facts, uses };
}

/** Extension APIs and manifest keys, with the version that shipped them, for what the package uses. */
export function extensionRequirements(dir: string, root: string, browser: Browser): Requirement[] {
  const manifest = readManifest(dir);
  const reqs: Requirement[] = [];
  const add = (feature: string, source: string, chrome?: number, firefox?: number, files: string[] = []) => reqs.push({ feature, source, chrome, firefox, files, guardedIn: [] });
  if (browser === 'chrome') add('Manifest V3', 'https://developer.chrome.com/docs/extensions/develop/migrate/what-is-mv3', 88);
  for (const key of Object.keys(manifest)) {
    const bcdKey = `webextensions.manifest.${key}`;
    const [c, f] = [shippedIn(bcdKey, 'chrome'), shippedIn(bcdKey, 'firefox')];
    if (c !== undefined || f !== undefined) add(`manifest ${key}`, bcdKey, browser === 'chrome' ? c : undefined, browser === 'firefox' ? f : undefined, ['manifest.json']);
  }
  for (const p of manifest.permissions ?? []) {
    if (p === 'offscreen') add('permission offscreen', 'https://developer.chrome.com/docs/extensions/reference/api/offscreen (Chrome 109+ MV3+)', 109);
    else if (p === 'favicon') add('permission favicon (/_favicon/)', 'https://developer.chrome.com/docs/extensions/how-to/ui/favicons (MV3; in Chrome by 106, Aug 2022)', 106);
  }
  for (const [member, where] of apiMembersUsed(root)) {
    const bcdKey = `webextensions.api.${member}`;
    const v = shippedIn(bcdKey, browser);
    if (v === undefined) continue;
    add(`browser.${member}`, bcdKey, browser === 'chrome' ? v : undefined, browser === 'firefox' ? v : undefined, [...new Set(where.map((w) => w.file))]);
  }
  return reqs;
}

export interface VersionCheck extends Check {
  required: Requirement[];
  needs: { version: number; by: string[] };
}

/** The package's declared minimum (Chrome's minimum_chrome_version, Firefox's gecko
 * strict_min_version) against what its code and manifest need. Chrome's must equal the need (no
 * lower: it would install where it breaks; no higher: it would turn users away for nothing);
 * Firefox's may be higher for a stated reason (`floor`). */
export function checkMinimumVersion(dir: string, root: string, browser: Browser, floor?: { version: number; why: string }): VersionCheck {
  const manifest = readManifest(dir);
  const files = packageFiles(dir);
  const required = [...scanPackage(dir, files).values()].filter(isRequired).concat(extensionRequirements(dir, root, browser));
  const needs = highest(required, browser);
  const problems: string[] = [];
  const gecko = (manifest.browser_specific_settings as { gecko?: { strict_min_version?: string } } | undefined)?.gecko;
  const declared = Number.parseFloat((browser === 'chrome' ? (manifest.minimum_chrome_version as string | undefined) : gecko?.strict_min_version) ?? 'NaN');
  const field = browser === 'chrome' ? 'minimum_chrome_version' : 'browser_specific_settings.gecko.strict_min_version';
  const expected = Math.max(needs.version, floor?.version ?? 0);
  if (Number.isNaN(declared)) problems.push(`${field} is not set; the code needs ${browser} ${needs.version} (${needs.by.join(', ')})`);
  else if (declared < needs.version) problems.push(`${field} ${declared} is lower than what the code needs: ${needs.version} (${needs.by.join(', ')})`);
  else if (declared !== expected) problems.push(`${field} ${declared} is higher than needed: ${expected} (${floor && floor.version >= needs.version ? floor.why : needs.by.join(', ')})`);
  const top = [...required].filter((r) => r[browser] !== undefined).sort((a, b) => (b[browser] ?? 0) - (a[browser] ?? 0)).slice(0, 8);
  // Newer than the minimum but tested for before use: those browsers take the fallback.
  const optional = [...scanPackage(dir, files).values()].filter((r) => !isRequired(r) && (r[browser] ?? 0) > (Number.isNaN(declared) ? 0 : declared));
  const facts = [`${field}: ${declared}; the code needs ${needs.version} (${needs.by.join(', ')})${floor ? `; floor ${floor.version}: ${floor.why}` : ''}`, ...top.map((r) => `  ${browser} ${r[browser]}: ${r.feature} (${r.files.slice(0, 3).join(', ')}${r.files.length > 3 ? ', …' : ''})`),
    ...(optional.length ? [`  optional (tested for before use, so older versions take a fallback): ${optional.map((r) => `${r.feature} (${browser} ${r[browser]}, ${r.guardedIn.join(', ')})`).join('; ')}`] : [])];
  return { name: `${browser} minimum version`, problems, facts, required, needs };
}
