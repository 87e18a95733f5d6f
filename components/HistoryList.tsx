import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { threadStore } from '@/lib/store/threads';
import { useLang, useT } from './i18n';
import { statusText } from './RunView';

const threads = threadStore();

/** Past threads, newest activity first: reopen one (it is read from IndexedDB, not run again),
 * search them, delete one or all. Deleting goes through the worker, which cancels live runs. */
export function HistoryList({ onOpen, onDelete, onClearAll }: { onOpen(lastRunId: string): void; onDelete(threadId: string): void; onClearAll(): void }) {
  const t = useT();
  const lang = useLang();
  const [query, setQuery] = useState('');
  const list = useLiveQuery(() => threads.list({ query, limit: 500 }), [query]);
  const fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="history" aria-label={t('tabHistory')}>
      <div className="row history-tools">
        <input type="search" aria-label={t('historySearch')} placeholder={t('historySearch')} value={query} onChange={(e) => setQuery(e.target.value)} />
        <button
          type="button"
          disabled={!list?.length}
          onClick={() => {
            if (confirm(t('confirmClearAll'))) onClearAll();
          }}
        >
          {t('clearAll')}
        </button>
      </div>
      {list && !list.length && <p className="muted">{t('historyEmpty')}</p>}
      <ul className="history-list">
        {list?.map((th) => (
          <li key={th.id} data-run-id={th.lastRunId} data-thread-id={th.id}>
            <button type="button" className="history-item" onClick={() => onOpen(th.lastRunId)}>
              <span className="history-text">{th.title}</span>
              <span className="muted small">
                {fmt.format(th.updatedAt)} · {th.mode === 'verify' ? t('modeVerify') : th.mode === 'page' ? t('modePage') : t('modeAsk')} · {statusText(t, th)}
                {th.runCount > 1 && ` · ${t('questionsInThread', { n: th.runCount })}`}
              </span>
            </button>
            <button type="button" className="icon" aria-label={`${t('delete')}: ${th.title.slice(0, 60)}`} onClick={() => onDelete(th.id)}>
              <span aria-hidden="true">✕</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
