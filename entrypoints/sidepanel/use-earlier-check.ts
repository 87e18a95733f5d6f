/** Whether the page the user is on was checked before (and its marks are not showing now): asked of
 * the worker when the page changes or loads again, when a run ends and when the panel comes back
 * into view. */
import { useEffect, useState } from 'react';
import { browser, type Browser } from 'wxt/browser';
import { request } from '@/lib/browser/messaging';
import type { EarlierCheck } from '@/lib/runs/messages';

export function useEarlierCheck(tabId: number | undefined, url: string | undefined, runKey: string): [EarlierCheck | null, () => void] {
  const [earlier, setEarlier] = useState<EarlierCheck | null>(null);
  const [again, setAgain] = useState(0);
  useEffect(() => {
    setEarlier(null);
    if (tabId === undefined || !url) return;
    let live = true;
    const look = () =>
      void Promise.all([request('page/earlier', { tabId }), request('marks/count', { tabId })]).then(
        ([e, marks]) => live && setEarlier(marks > 0 ? null : e),
        // A page that cannot be read has no earlier check to offer.
        () => live && setEarlier(null),
      );
    // A reload takes the marks away: look again once it has loaded.
    const onUpdated = (id: number, change: Browser.tabs.OnUpdatedInfo) => id === tabId && change.status === 'complete' && look();
    look();
    browser.tabs.onUpdated.addListener(onUpdated);
    document.addEventListener('visibilitychange', look);
    return () => {
      live = false;
      browser.tabs.onUpdated.removeListener(onUpdated);
      document.removeEventListener('visibilitychange', look);
    };
  }, [tabId, url, runKey, again]);
  // Look again (its marks were just drawn).
  return [earlier, () => setAgain((n) => n + 1)];
}
