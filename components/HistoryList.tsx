import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import type { Run } from '@/lib/core/run';
import { threadStore } from '@/lib/store/threads';
import { useLang, useT } from './i18n';
import { statusText } from './RunView';

const threads = threadStore();

/** Past threads, newest activity first, each with the page it was asked on: reopen one (it is
 * read from IndexedDB, not run again), search them, delete one (with Undo) or all. Deleting goes
 * through the worker, which cancels live runs and hands back what it deleted. */
export function HistoryList({ onOpen, onDelete, onRestore, onClearAll }: { onOpen: (lastRunId: string) => void; onDelete: (threadId: string) => Promise<Run[]>; onRestore: (runs: Run[]) => Promise<unknown>; onClearAll: () => void }) {
  const t = useT();
  const lang = useLang();
  const [query, setQuery] = useState('');
  const [deleted, setDeleted] = useState<{ title: string; runs: Run[] }>();
  const list = useLiveQuery(() => threads.list({ query, limit: 500 }), [query]);
  const fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const short = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}…` : s);
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
      {deleted && (
        <p className="notice notice-ok row spread" role="status" data-testid="thread-deleted">
          <span>{t('threadDeleted', { title: short(deleted.title) })}</span>
          <button
            type="button"
            onClick={() => {
              const runs = deleted.runs;
              setDeleted(undefined);
              void onRestore(runs);
            }}
          >
            {t('undo')}
          </button>
        </p>
      )}
      {list && !list.length && <p className="muted">{t('historyEmpty')}</p>}
      <ul className="history-list">
        {list?.map((th) => (
          <li key={th.id} data-run-id={th.lastRunId} data-thread-id={th.id}>
            <button type="button" className="history-item" onClick={() => onOpen(th.lastRunId)}>
              <span className="history-text">{th.title}</span>
              {th.pageTitle && (
                <span className="muted small history-page" data-testid="history-page">
                  {t('historyOnPage', { title: th.pageTitle })}
                </span>
              )}
              <span className="muted small">
                {fmt.format(th.updatedAt)} · {th.mode === 'verify' ? t('modeVerify') : th.mode === 'page' ? t('modePage') : t('modeAsk')} · {statusText(t, th)}
                {th.runCount > 1 && ` · ${t('questionsInThread', { n: th.runCount })}`}
              </span>
            </button>
            <button
              type="button"
              className="icon"
              aria-label={`${t('delete')}: ${short(th.title)}`}
              onClick={() => void onDelete(th.id).then((runs) => runs.length && setDeleted({ title: th.title, runs }))}
            >
              <span aria-hidden="true">✕</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
