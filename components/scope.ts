/** Which tabs a question will read, decided before it is asked by the module the library asks
 * when it runs (lib/retrieval/read-policy.ts), so the panel's preview and the run's trace agree. */
import type { MessageKey } from '@/lib/i18n/messages';
import type { SourceScope, TabScope } from '@/lib/core/run';
import { NO_SITE_ACCESS, type ReadPolicy, type TabInfo } from '@/lib/retrieval/read-policy';
import { documentKey } from '@/lib/core/url';

export interface ScopeChoice {
  tabs: TabScope;
  web: boolean;
  /** The page the user is on is among the sources (its "this page" chip). Default: yes, except
   * for tabs picked with @, which are exactly what the user chose (pageChosen). */
  page?: boolean;
}

/** Whether the choice includes the page the user is on. */
export function pageChosen(choice: ScopeChoice): boolean {
  return choice.page ?? choice.tabs !== 'chosen';
}

export interface ScopeTab extends TabInfo {
  active?: boolean;
  lastAccessed?: number;
}

export interface ScopePlan {
  read: ScopeTab[];
  skipped: { tab: ScopeTab; reason: string }[];
}

/** What a question with this choice will read: the chosen tabs, each read or skipped with why. */
export function planScope(tabs: ScopeTab[], policy: ReadPolicy): ScopePlan {
  const plan: ScopePlan = { read: [], skipped: [] };
  const seen = new Set<string>();
  for (const tab of tabs) {
    if (!policy.chosen(tab)) continue;
    const why = policy.skipReason(tab);
    if (why) {
      plan.skipped.push({ tab, reason: why });
      continue;
    }
    const key = documentKey(tab.url);
    if (seen.has(key)) {
      plan.skipped.push({ tab, reason: 'same page' });
      continue;
    }
    seen.add(key);
    plan.read.push(tab);
  }
  return plan;
}

/** What the run is told: the choice, with the tabs it stands for. With the page's chip on, a
 * chosen-tabs question reads the page too. */
export function sourceScope(choice: ScopeChoice, page: ScopeTab | undefined, windowId: number | undefined, chosen: number[]): SourceScope {
  const withPage = pageChosen(choice);
  const pageIds = page && withPage ? [page.id] : [];
  const pagePart = page ? { pageTabId: page.id, page: withPage } : {};
  if (choice.tabs === 'page') return { tabs: 'page', tabIds: pageIds, web: choice.web, ...pagePart };
  if (choice.tabs === 'chosen') return { tabs: 'chosen', tabIds: [...new Set([...pageIds, ...chosen])], web: choice.web, ...pagePart };
  if (choice.tabs === 'window') return { tabs: 'window', ...(windowId !== undefined ? { windowId } : {}), web: choice.web, ...pagePart };
  return { tabs: 'all', web: choice.web, ...pagePart };
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
