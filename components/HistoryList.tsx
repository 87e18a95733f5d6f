import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { request } from '@/lib/browser/messaging';
import { runStore } from '@/lib/store/runs';
import { useLang, useT } from './i18n';

const store = runStore();

export function HistoryList({ onOpen }: { onOpen(id: string): void }) {
  const t = useT();
  const lang = useLang();
  const [query, setQuery] = useState('');
  const runs = useLiveQuery(() => store.list({ query, limit: 500 }), [query]);
  const fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="history" aria-label={t('tabHistory')}>
      <div className="row">
        <input type="search" aria-label={t('historySearch')} placeholder={t('historySearch')} value={query} onChange={(e) => setQuery(e.target.value)} />
        <button
          type="button"
          disabled={!runs?.length}
          onClick={() => {
            // The worker owns deletion: it cancels live runs and clears the page cache too.
            if (confirm(t('confirmClearAll'))) void request('data/delete-all', {});
          }}
        >
          {t('clearAll')}
        </button>
      </div>
      {runs && !runs.length && <p className="muted">{t('historyEmpty')}</p>}
      <ul className="history-list">
        {runs?.map((r) => (
          <li key={r.id} data-run-id={r.id}>
            <button type="button" className="history-item" onClick={() => onOpen(r.id)}>
              <span className="history-text">{r.text}</span>
              <span className="muted small">
                {fmt.format(r.createdAt)} · {r.mode === 'verify' ? t('modeVerify') : t('modeAsk')} · {r.status}
              </span>
            </button>
            <button type="button" className="icon" aria-label={`${t('delete')}: ${r.text.slice(0, 60)}`} onClick={() => void request('runs/delete', { id: r.id })}>
              ✕
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
