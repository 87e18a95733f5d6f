/** Page checks still running that the panel is not showing (a question was asked meanwhile): one
 * line each, with how far it is and a way back to it. */
import type { Run } from '@/lib/core/run';
import { useT } from './i18n';

export function LiveChecks({ checks, onOpen }: { checks: Run[]; onOpen: (id: string) => void }) {
  const t = useT();
  if (!checks.length) return null;
  return (
    <ul className="live-checks" aria-label={t('checkingPage')}>
      {checks.map((r) => (
        <li key={r.id} className="row spread small" data-testid="live-check">
          <span className="spinner" aria-hidden="true" />
          <span>{t('liveCheck', { title: r.input.page?.title || r.input.page?.url || '', done: r.steps.filter((s) => s.verdict).length, n: r.steps.length })}</span>
          <button type="button" onClick={() => onOpen(r.id)}>
            {t('show')}
          </button>
        </li>
      ))}
    </ul>
  );
}
