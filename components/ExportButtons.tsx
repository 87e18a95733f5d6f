import { useState } from 'react';
import { threadToMarkdown, threadToPlainText, toMarkdown, toPlainText } from '@/lib/export/render';
import type { Run } from '@/lib/core/run';
import { useT } from './i18n';

/** Copy one answer (or, with `thread`, the whole conversation) as Markdown with numbered sources or
 * as plain text, and say so. */
export function ExportButtons({ run, thread, compact }: { run?: Run; thread?: Run[]; compact?: boolean }) {
  const t = useT();
  const [status, setStatus] = useState<string>('');
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(t('copied'));
    } catch (err) {
      setStatus(`${t('copyFailed')} ${err instanceof Error ? err.message : ''}`.trim());
    }
  };
  const md = () => (thread ? threadToMarkdown(thread) : run ? toMarkdown(run) : '');
  const plain = () => (thread ? threadToPlainText(thread) : run ? toPlainText(run) : '');
  return (
    <div className={compact ? 'row export compact' : 'row export'}>
      <button type="button" onClick={() => void copy(md())}>
        {thread ? t('copyThread') : t('copyMarkdown')}
      </button>
      {!thread && (
        <button type="button" onClick={() => void copy(plain())}>
          {t('copyText')}
        </button>
      )}
      <span role="status" aria-live="polite" className="small muted" data-testid="export-status">
        {status}
      </span>
    </div>
  );
}
