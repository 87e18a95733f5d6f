/** The panel's empty start once a model is set up: what can be done with the page the user is on
 * (check it, summarize it), and how to verify a selection. */
import { NO_SITE_ACCESS } from '@/lib/retrieval/tabs';
import { useT } from './i18n';
import { reasonKey, type ScopeTab } from './scope';
import { SiteIcon } from './SiteIcon';

export function StartActions({ page, onCheckPage, onSummarize }: { page?: { tab: ScopeTab; skip?: string }; onCheckPage: () => void; onSummarize: () => void }) {
  const t = useT();
  // Without access to sites the check asks for it in the click; other reasons keep the page out.
  const blocked = page?.skip && !page.skip.startsWith(NO_SITE_ACCESS) ? page.skip : undefined;
  return (
    <section className="start" data-testid="start" aria-labelledby="start-title">
      <h2 id="start-title" className="notice-title">
        {t('startTitle')}
      </h2>
      {page ? (
        <p className="start-page small">
          <SiteIcon url={page.tab.url} /> <span className="page-title">{page.tab.title || page.tab.url}</span>
          {blocked && <span className="muted"> ({t('pageSkipped', { reason: reasonKey(blocked) ? t(reasonKey(blocked)!) : blocked })})</span>}
        </p>
      ) : (
        <p className="small muted">{t('startPageNone')}</p>
      )}
      <div className="row start-buttons">
        <button type="button" className="primary" disabled={!page || !!blocked} onClick={onCheckPage} aria-keyshortcuts="Alt+Shift+C">
          {t('checkPage')}
        </button>
        <button type="button" disabled={!page || !!blocked} onClick={onSummarize}>
          {t('summarizePage')}
        </button>
      </div>
      <p className="small muted">{t('startHint')}</p>
    </section>
  );
}
