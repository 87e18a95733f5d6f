/** Which tabs a question will read, decided before it is asked, by the same rules the library
 * applies when it runs (lib/retrieval/tabs.ts skipReason), so the panel's preview and the run's
 * trace agree. */
import type { MessageKey } from '@/lib/i18n/messages';
import type { SourceScope, TabScope } from '@/lib/core/run';
import { NO_SITE_ACCESS, skipReason, type TabInfo, type TabRules } from '@/lib/retrieval/tabs';
import { documentUrl } from '@/lib/core/url';

export interface ScopeChoice {
  tabs: TabScope;
  web: boolean;
}

export interface ScopeTab extends TabInfo {
  active?: boolean;
  lastAccessed?: number;
}

export interface ScopePlan {
  read: ScopeTab[];
  skipped: { tab: ScopeTab; reason: string }[];
}

/** The tabs a choice covers, before the privacy rules. */
export function tabsInScope(choice: ScopeChoice, all: ScopeTab[], page: ScopeTab | undefined, windowId: number | undefined, chosen: number[]): ScopeTab[] {
  switch (choice.tabs) {
    case 'page':
      return page ? [page] : [];
    case 'chosen':
      return chosen.map((id) => all.find((t) => t.id === id)).filter((t): t is ScopeTab => t !== undefined);
    case 'window':
      return all.filter((t) => windowId === undefined || t.windowId === windowId);
    case 'all':
      return all;
  }
}

export function planScope(tabs: ScopeTab[], rules: TabRules): ScopePlan {
  const plan: ScopePlan = { read: [], skipped: [] };
  const seen = new Set<string>();
  for (const tab of tabs) {
    const why = skipReason(tab, rules);
    if (why) {
      plan.skipped.push({ tab, reason: why });
      continue;
    }
    const key = documentUrl(tab.url);
    if (seen.has(key)) {
      plan.skipped.push({ tab, reason: 'same page' });
      continue;
    }
    seen.add(key);
    plan.read.push(tab);
  }
  return plan;
}

/** What the run is told: the choice, with the tabs it stands for. */
export function sourceScope(choice: ScopeChoice, page: ScopeTab | undefined, windowId: number | undefined, chosen: number[]): SourceScope {
  if (choice.tabs === 'page') return { tabs: 'page', tabIds: page ? [page.id] : [], web: choice.web };
  if (choice.tabs === 'chosen') return { tabs: 'chosen', tabIds: chosen, web: choice.web };
  if (choice.tabs === 'window') return { tabs: 'window', ...(windowId !== undefined ? { windowId } : {}), web: choice.web };
  return { tabs: 'all', web: choice.web };
}

const REASONS: [RegExp, MessageKey][] = [
  [/^browser page$/, 'reason_browser'],
  [/^extension page$/, 'reason_extension'],
  [/^excluded domain$/, 'reason_excluded'],
  [/^incognito$/, 'reason_incognito'],
  [/^private network$/, 'reason_private'],
  [/^local file$/, 'reason_file'],
  [/^discarded tab$/, 'reason_discarded'],
  [/^no readable URL$/, 'reason_no_url'],
  [/^selection source$/, 'reason_selection'],
  [/^too many tabs$/, 'reason_too_many'],
  [/^cancelled$/, 'reason_cancelled'],
  [/^no readable text$/, 'reason_no_text'],
  [/^same page( as tab \d+)?$/, 'reason_same_page'],
  [/^the page you are on$/, 'reason_this_page'],
  [/^time-out after/, 'reason_timeout'],
  [new RegExp(`^${NO_SITE_ACCESS}; used the search snippet$`), 'reason_no_access_snippet'],
  [new RegExp(`^${NO_SITE_ACCESS}$`), 'reason_no_access'],
];

/** The translated reason a source was skipped, when it is one of the library's own; other reasons
 * (a server's error message) are shown as they came. */
export function reasonKey(reason: string): MessageKey | undefined {
  return REASONS.find(([re]) => re.test(reason))?.[1];
}
