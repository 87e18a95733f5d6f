/** What may be read for a question, decided in one place: the sources the user chose (which tabs,
 * the page they are on, the web), the privacy settings (excluded sites, incognito, this computer
 * and private networks, local files), the access the user granted, and the page being checked,
 * which is never evidence for itself. The library, the page-context capture, the panel's preview
 * of what a question will read and the worker's Retry / Run again all ask this module, so they
 * cannot disagree. One URL normaliser (`sameDocument`) serves all of them. */
import type { SourceScope } from '../core/run';
import { documentKey } from '../core/url';
import { isPrivateHost } from './private-host';

export interface TabInfo {
  id: number;
  windowId?: number;
  url: string;
  title: string;
  incognito?: boolean;
  /** Unloaded to save memory: reading it would reload it, so it is left alone. */
  discarded?: boolean;
  /** When the user last looked at it (ms since the epoch), where the browser says. */
  lastAccessed?: number;
}

export interface TabRules {
  excludedDomains: string[];
  allowIncognito: boolean;
  /** Read tabs on this machine and private networks (localhost, 192.168.x, intranet names). */
  privateNetwork?: boolean;
  /** file:// pages are local documents; read only when the user allows it. */
  allowFiles?: boolean;
  extensionOrigin?: string;
  /** Verify mode: the page the selection came from is not evidence for itself. */
  originTabId?: number;
  originUrl?: string;
  /** Whether the user granted access to sites (the optional host permission). Without it no tab
   * can be read (the browser refuses), so each says why instead of failing. Default: granted
   * (Node: tests, bench, eval). */
  hostAccess?: boolean;
}

/** The reason a tab or result page was not read because the user has not (yet) granted Ratify
 * access to sites; the panel recognises it and asks for the permission. */
export const NO_SITE_ACCESS = 'no site access';

/** Hosts where extensions may not run scripts, so reading would only fail. */
const LOCKED_HOSTS = ['chromewebstore.google.com', 'chrome.google.com/webstore', 'addons.mozilla.org', 'microsoftedge.microsoft.com/addons'];

/** The same document, whatever the fragment, a trailing slash or "www." (the one normaliser). */
export function sameDocument(a: string, b: string): boolean {
  return documentKey(a) === documentKey(b);
}

/** "example.com", "*.example.com", "https://example.com/path" → "example.com". */
export function normalizeDomain(d: string): string {
  let s = d.trim().toLowerCase();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\*\./, '').replace(/^\.+/, '');
  s = (s.split(/[/?#]/)[0] ?? '').replace(/:\d+$/, '');
  return s;
}

export function isExcludedHost(host: string, excluded: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return excluded.some((raw) => {
    const d = normalizeDomain(raw);
    return !!d && (h === d || h.endsWith(`.${d}`));
  });
}

/** Why a tab may not be read, or undefined when it may. */
export function skipReason(tab: TabInfo, rules: TabRules): string | undefined {
  let u: URL;
  try {
    u = new URL(tab.url);
  } catch {
    return 'no readable URL';
  }
  const origin = rules.extensionOrigin?.replace(/\/$/, '');
  if (origin && tab.url.startsWith(origin)) return 'extension page';
  if (u.protocol === 'chrome-extension:' || u.protocol === 'moz-extension:' || u.protocol === 'extension:') return 'extension page';
  if (u.protocol === 'file:') {
    if (!rules.allowFiles) return 'local file';
  } else if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'browser page';
  if (LOCKED_HOSTS.some((h) => `${u.host}${u.pathname}`.startsWith(h))) return 'browser page';
  if (rules.originTabId !== undefined && tab.id === rules.originTabId) return 'selection source';
  if (rules.originUrl && sameDocument(tab.url, rules.originUrl)) return 'selection source';
  if (tab.incognito && !rules.allowIncognito) return 'incognito';
  if (u.hostname && isExcludedHost(u.hostname, rules.excludedDomains)) return 'excluded domain';
  // By name, without DNS. Unlike fetched pages (lib/net/host-policy.ts), reserved names such as
  // .test and .example are not private here: a tab on them is whatever the browser resolved.
  if (u.hostname && !rules.privateNetwork && isPrivateHost(u.hostname)) return 'private network';
  if (tab.discarded) return 'discarded tab';
  if (rules.hostAccess === false) return NO_SITE_ACCESS;
  return undefined;
}

export interface ReadPolicyOptions {
  privacy: { excludedDomains: string[]; allowIncognito: boolean; privateNetwork?: boolean; tabScope: 'window' | 'all' };
  allowFiles?: boolean;
  extensionOrigin?: string;
  /** Default: granted (Node). */
  hostAccess?: boolean;
  /** The sources chosen for this question; default: the privacy setting's tab scope, the page
   * the user is on and the web. */
  scope?: SourceScope;
  /** The page being checked (verify, check this page): never evidence for itself. */
  checked?: { tabId?: number; url?: string };
}

export interface ReadPolicy {
  readonly rules: TabRules;
  /** Which tabs the browser is asked to list before the choice and the rules filter them. */
  readonly listScope: 'window' | 'all';
  /** Whether web search is among the chosen sources. */
  readonly web: boolean;
  /** The tab is among the chosen sources (before the privacy rules). */
  chosen(tab: TabInfo): boolean;
  /** The page the user is on goes to the model only when the chosen sources include it. */
  pageChosen(pageTabId: number | undefined): boolean;
  skipReason(tab: TabInfo): string | undefined;
  /** A passage or result of the page being checked. */
  isChecked(source: { url: string; tabId?: number }): boolean;
}

export function readPolicy(o: ReadPolicyOptions): ReadPolicy {
  const scope = o.scope;
  const rules: TabRules = {
    excludedDomains: o.privacy.excludedDomains,
    allowIncognito: o.privacy.allowIncognito,
    privateNetwork: o.privacy.privateNetwork,
    allowFiles: o.allowFiles,
    extensionOrigin: o.extensionOrigin,
    originTabId: o.checked?.tabId,
    originUrl: o.checked?.url,
    hostAccess: o.hostAccess,
  };
  const pageOff = (id: number | undefined) => scope?.page === false && id !== undefined && id === scope.pageTabId;
  const chosen = (tab: TabInfo): boolean => {
    if (pageOff(tab.id)) return false;
    if (!scope) return true;
    switch (scope.tabs) {
      case 'page':
      case 'chosen':
        return (scope.tabIds ?? []).includes(tab.id);
      case 'window':
        return scope.windowId === undefined || tab.windowId === scope.windowId;
      case 'all':
        return true;
    }
  };
  return {
    rules,
    listScope: scope ? 'all' : o.privacy.tabScope,
    web: scope?.web ?? true,
    chosen,
    pageChosen(pageTabId) {
      if (pageTabId === undefined || pageOff(pageTabId)) return false;
      if (!scope || scope.tabs === 'window' || scope.tabs === 'all') return true;
      return (scope.tabIds ?? []).includes(pageTabId);
    },
    skipReason: (tab) => skipReason(tab, rules),
    isChecked: (s) => (o.checked?.tabId !== undefined && s.tabId === o.checked.tabId) || (!!o.checked?.url && sameDocument(s.url, o.checked.url)),
  };
}
