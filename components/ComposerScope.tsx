/** The sources of the next question, above the question box: this tab, the tabs of this window,
 * all open tabs or tabs picked with @, and web search on or off; the page the user is on (left out
 * with ✕); the tabs picked; and which tabs will be read and which are skipped, and why. */
import type { TabScope } from '@/lib/core/run';
import { useT, type T } from './i18n';
import { pageChosen, reasonKey, type ScopeChoice, type ScopePlan, type ScopeTab } from './scope';
import { SiteIcon } from './SiteIcon';

const SCOPES: TabScope[] = ['page', 'window', 'all', 'chosen'];

export function reasonLabel(t: T, reason: string): string {
  const key = reasonKey(reason);
  return key ? t(key) : reason;
}

export function ScopeRow({ scope, onScope }: { scope: ScopeChoice; onScope: (s: ScopeChoice) => void }) {
  const t = useT();
  return (
    <div className="row scope-row">
      <label htmlFor="scope" className="small">
        {t('scopeLabel')}
      </label>
      <select id="scope" className="scope-select" value={scope.tabs} onChange={(e) => onScope({ ...scope, tabs: e.target.value as TabScope })}>
        {SCOPES.map((s) => (
          <option key={s} value={s}>
            {t(`scope_${s}`)}
          </option>
        ))}
      </select>
      <label className="checkbox small" htmlFor="web-toggle">
        <input id="web-toggle" type="checkbox" checked={scope.web} onChange={(e) => onScope({ ...scope, web: e.target.checked })} />
        {t('webToggle')}
      </label>
    </div>
  );
}

/** The page the user is on: its chip (and why it cannot be read), or a way to add it back. */
export function PageChip({ page, scope, onScope }: { page: { tab: ScopeTab; skip?: string }; scope: ScopeChoice; onScope: (s: ScopeChoice) => void }) {
  const t = useT();
  return (
    <ul className="row chips" aria-label={t('pageChipLabel')}>
      {pageChosen(scope) ? (
        <li className="chip page-chip" data-testid="page-chip">
          <SiteIcon url={page.tab.url} />
          <span className="chip-title">
            {t('thisPage')} {page.tab.title || page.tab.url}
            {page.skip && <span className="muted"> ({t('pageSkipped', { reason: reasonLabel(t, page.skip) })})</span>}
          </span>
          <button type="button" className="icon" aria-label={t('leavePageOut')} onClick={() => onScope({ ...scope, page: false })}>
            <span aria-hidden="true">✕</span>
          </button>
        </li>
      ) : (
        <li>
          <button type="button" className="link small" data-testid="add-page" onClick={() => onScope({ ...scope, page: true })}>
            + {t('addThisPage')}
          </button>
        </li>
      )}
    </ul>
  );
}

/** The tabs picked (each removable), and a way to pick more. */
export function ChosenTabs({ tabs, onRemove, onChooseMore }: { tabs: ScopeTab[]; onRemove: (tabId: number) => void; onChooseMore: () => void }) {
  const t = useT();
  return (
    <ul className="row chips" aria-label={t('scope_chosen')}>
      {tabs.map((tab) => (
        <li key={tab.id} className="chip">
          <SiteIcon url={tab.url} />
          <span className="chip-title">{tab.title || tab.url}</span>
          <button type="button" className="icon" aria-label={t('removeTab', { title: tab.title || tab.url })} onClick={() => onRemove(tab.id)}>
            <span aria-hidden="true">✕</span>
          </button>
        </li>
      ))}
      <li>
        <button type="button" className="link small" onClick={onChooseMore}>
          + {t('chooseTabs')}
        </button>
      </li>
    </ul>
  );
}

function planSummary(t: T, plan: ScopePlan, web: boolean): string {
  const skipped = plan.skipped.length;
  if (plan.read.length || skipped) return t(web ? 'scopeSummaryWeb' : 'scopeSummary', { read: plan.read.length, skipped });
  return web ? `${t('scopeNothing')} · ${t('webToggle')}` : t('scopeNothing');
}

/** What will be read and what is skipped, and why (folded under a one-line summary). */
export function ScopePlanList({ plan, web }: { plan: ScopePlan; web: boolean }) {
  const t = useT();
  return (
    <details className="scope-plan small" data-testid="scope-plan">
      <summary>
        <span data-testid="scope-summary">{planSummary(t, plan, web)}</span>
      </summary>
      <ul className="plan-list">
        {plan.read.map((tab) => (
          <li key={tab.id} data-plan="read">
            <SiteIcon url={tab.url} /> <span>{tab.title || tab.url}</span> <span className="muted">· {t('willRead')}</span>
          </li>
        ))}
        {plan.skipped.map(({ tab, reason }) => (
          <li key={tab.id} data-plan="skipped">
            <SiteIcon url={tab.url} /> <span>{tab.title || tab.url}</span> <span className="muted">· {t('pageSkipped', { reason: reasonLabel(t, reason) })}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
