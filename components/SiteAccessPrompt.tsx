/** Asked at first use, with the reason: a run that could not read the user's tabs or fetch result
 * pages because Ratify has no access to sites says what it missed and offers the browser's
 * permission prompt. The request is made inside the click (browsers refuse it without the
 * gesture). Once granted, a finished run offers "Run again" (it reads them from the start); a run
 * that stopped part-way says that Retry continues with them. (A model server that cannot be read
 * without access says so in its own error: ErrorNotice.) */
import { useState } from 'react';
import type { Run } from '@/lib/core/run';
import { NO_SITE_ACCESS } from '@/lib/retrieval/tabs';
import { AllowSitesButton } from './AllowSitesButton';
import { useT } from './i18n';
import { useHostAccess } from './use-host-access';

/** What this run left unread for want of access: open tabs and result pages. */
export function unreadForAccess(run: Pick<Run, 'library'>): { tabs: number; pages: number } {
  const missed = run.library.filter((s) => s.reason?.startsWith(NO_SITE_ACCESS));
  return { tabs: missed.filter((s) => s.origin === 'tab').length, pages: missed.filter((s) => s.origin === 'web').length };
}

export function SiteAccessPrompt({ run, onAgain }: { run: Run; onAgain: () => void }) {
  const t = useT();
  const granted = useHostAccess();
  const [declined, setDeclined] = useState(false);
  const { tabs, pages } = unreadForAccess(run);
  if (tabs + pages === 0 || granted === undefined) return null;
  if (granted) {
    const stopped = run.status === 'error' || run.status === 'cancelled' || run.status === 'interrupted';
    return (
      <div className="notice notice-ok site-access" data-testid="site-access" data-state="granted" role="status">
        <span>{t(stopped ? 'accessGrantedStopped' : 'accessGranted')}</span>{' '}
        {run.status === 'done' && (
          <button type="button" className="primary" onClick={onAgain}>
            {t('rerun')}
          </button>
        )}
      </div>
    );
  }
  return (
    <section className="notice site-access" data-testid="site-access" data-state={declined ? 'declined' : 'ask'} aria-labelledby={`access-${run.id}`}>
      <h3 className="notice-title" id={`access-${run.id}`}>
        {t('accessTitle')}
      </h3>
      <p className="notice-hint">{t('accessWhy')}</p>
      <p className="small muted" data-testid="site-access-missed">
        {tabs > 0 && t('accessNotReadTabs', { n: tabs })} {pages > 0 && t('accessNotReadPages', { n: pages })}
      </p>
      <AllowSitesButton onDeclined={setDeclined} />
      {declined && (
        <p className="small" role="status" data-testid="site-access-declined">
          {t('accessDeclined')}
        </p>
      )}
    </section>
  );
}
