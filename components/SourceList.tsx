import type { Source } from '@/lib/pipeline/types';
import { useT } from './i18n';

export function SourceList({ sources, onOpen }: { sources: Source[]; onOpen: (s: Source) => void }) {
  const t = useT();
  if (!sources.length) return null;
  return (
    <section aria-label={t('sources')}>
      <h3>{t('sources')}</h3>
      <ol className="sources">
        {sources.map((s) => (
          <li key={s.n} value={s.n} data-source={s.n}>
            <button type="button" className="link" onClick={() => onOpen(s)}>
              {s.title || s.url}
            </button>
            <span className="muted">
              {' '}
              · {s.site} · {s.origin === 'tab' ? t('originTab') : t('originWeb')}
            </span>
            <blockquote>{s.quote}</blockquote>
          </li>
        ))}
      </ol>
    </section>
  );
}
