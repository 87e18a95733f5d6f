/** The side panel's view of the open tabs: the page the user is on, every tab (for @-mentions),
 * the sources chosen for the next question and what they will read — kept live as tabs change. */
import { useEffect, useMemo, useState } from 'react';
import { extensionOrigin, listTabs, pageTabOf, panelWindowId, watchTabs, type PanelTab } from '@/lib/browser/window-tabs';
import { panelScopeItem } from '@/lib/browser/panel-state';
import { readPolicy } from '@/lib/retrieval/read-policy';
import type { Settings } from '@/lib/settings/schema';
import type { SourceScope } from '@/lib/core/run';
import { useHostAccess } from '@/components/use-host-access';
import { planScope, sourceScope, type ScopeChoice, type ScopePlan } from '@/components/scope';

export interface Sources {
  windowId?: number;
  page?: { tab: PanelTab; skip?: string };
  tabs: { tab: PanelTab; skip?: string }[];
  choice: ScopeChoice;
  setChoice: (c: ScopeChoice) => void;
  chosen: number[];
  setChosen: (ids: number[]) => void;
  plan: ScopePlan;
  /** What the next question is sent with. */
  scope: SourceScope;
}

export function useSources(settings: Settings | undefined): Sources {
  const [windowId, setWindowId] = useState<number>();
  const [all, setAll] = useState<PanelTab[]>([]);
  const [choice, setChoiceState] = useState<ScopeChoice>({ tabs: 'window', web: true });
  const [chosen, setChosen] = useState<number[]>([]);

  useEffect(() => {
    void panelWindowId().then(setWindowId);
    void panelScopeItem.getValue().then((s) => s && setChoiceState({ tabs: s.tabs === 'chosen' ? 'window' : s.tabs, web: s.web }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => void listTabs().then(setAll);
    refresh();
    // Tab events come in bursts (a page load fires several): refresh once per burst.
    const stop = watchTabs(() => {
      clearTimeout(timer);
      timer = setTimeout(refresh, 80);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, []);

  // The preview gives the reasons the run will (lib/retrieval/read-policy.ts): without access to
  // sites no tab is read.
  const hostAccess = useHostAccess();
  const own = extensionOrigin();
  const pageTab = pageTabOf(all, windowId);
  // A chosen tab that has been closed is no longer chosen.
  const live = chosen.filter((id) => all.some((t) => t.id === id));
  const scope = sourceScope(choice, pageTab, windowId, live);
  const privacy = settings?.privacy;
  const policy = useMemo(
    () => readPolicy({ privacy: { excludedDomains: privacy?.excludedDomains ?? [], allowIncognito: privacy?.allowIncognito ?? false, privateNetwork: privacy?.privateNetwork ?? false, tabScope: privacy?.tabScope ?? 'window' }, extensionOrigin: own, hostAccess, scope }),
    [privacy, own, hostAccess, scope],
  );
  const tabs = useMemo(() => all.filter((t) => !t.url.startsWith(own)).map((tab) => ({ tab, skip: policy.skipReason(tab) })), [all, policy, own]);
  const page = pageTab ? { tab: pageTab, skip: policy.skipReason(pageTab) } : undefined;
  const plan = planScope(tabs.map((x) => x.tab), policy);

  const setChoice = (c: ScopeChoice) => {
    setChoiceState(c);
    // The page's chip is a choice for this page only: not remembered.
    void panelScopeItem.setValue({ tabs: c.tabs, web: c.web });
  };
  return { windowId, page, tabs, choice, setChoice, chosen: live, setChosen, plan, scope };
}
