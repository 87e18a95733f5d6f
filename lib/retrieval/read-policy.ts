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

/** What a rule about one tab looks at. */
interface TabFacts {
  tab: TabInfo;
  url: URL;
  rules: TabRules;
}

const WEB_PROTOCOLS = new Set(['http:', 'https:']);
const EXTENSION_PROTOCOLS = new Set(['chrome-extension:', 'moz-extension:', 'extension:']);

const isExtensionPage = ({ tab, url, rules }: TabFacts): boolean => {
  const origin = rules.extensionOrigin?.replace(/\/$/, '');
  return (!!origin && tab.url.startsWith(origin)) || EXTENSION_PROTOCOLS.has(url.protocol);
};
const isLocalFile = ({ url, rules }: TabFacts): boolean => url.protocol === 'file:' && !rules.allowFiles;
/** Not a web page (chrome://, about:, view-source:, …) or on a host closed to extensions. */
const isBrowserPage = ({ url }: TabFacts): boolean =>
  (url.protocol !== 'file:' && !WEB_PROTOCOLS.has(url.protocol)) || LOCKED_HOSTS.some((h) => `${url.host}${url.pathname}`.startsWith(h));
const isSelectionSource = ({ tab, rules }: TabFacts): boolean =>
  (rules.originTabId !== undefined && tab.id === rules.originTabId) || (!!rules.originUrl && sameDocument(tab.url, rules.originUrl));
const isIncognito = ({ tab, rules }: TabFacts): boolean => !!tab.incognito && !rules.allowIncognito;
const isExcluded = ({ url, rules }: TabFacts): boolean => !!url.hostname && isExcludedHost(url.hostname, rules.excludedDomains);
// By name, without DNS. Unlike fetched pages (lib/net/host-policy.ts), reserved names such as
// .test and .example are not private here: a tab on them is whatever the browser resolved.
const isPrivateNetwork = ({ url, rules }: TabFacts): boolean => !!url.hostname && !rules.privateNetwork && isPrivateHost(url.hostname);
const isDiscarded = ({ tab }: TabFacts): boolean => !!tab.discarded;
const lacksSiteAccess = ({ rules }: TabFacts): boolean => rules.hostAccess === false;

/** The rules in the order they are asked: the first that applies gives the reason. */
const SKIP_RULES: readonly (readonly [reason: string, applies: (f: TabFacts) => boolean])[] = [
  ['extension page', isExtensionPage],
  ['local file', isLocalFile],
  ['browser page', isBrowserPage],
  ['selection source', isSelectionSource],
  ['incognito', isIncognito],
  ['excluded domain', isExcluded],
  ['private network', isPrivateNetwork],
  ['discarded tab', isDiscarded],
  [NO_SITE_ACCESS, lacksSiteAccess],
];

/** Why a tab may not be read, or undefined when it may. */
export function skipReason(tab: TabInfo, rules: TabRules): string | undefined {
  let url: URL;
  try {
    url = new URL(tab.url);
  } catch {
    return 'no readable URL';
  }
  const facts = { tab, url, rules };
  return SKIP_RULES.find(([, applies]) => applies(facts))?.[0];
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
  chosen: (tab: TabInfo) => boolean;
  /** The page the user is on goes to the model only when the chosen sources include it. */
  pageChosen: (pageTabId: number | undefined) => boolean;
  skipReason: (tab: TabInfo) => string | undefined;
  /** A passage or result of the page being checked. */
  isChecked: (source: { url: string; tabId?: number }) => boolean;
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
