import { useState } from 'react';
import { toMarkdown, toPlainText } from '@/lib/export/render';
import type { Run } from '@/lib/pipeline/types';
import { useT } from './i18n';

/** Copy the run as Markdown (with numbered sources) or plain text, and say so. */
export function ExportButtons({ run }: { run: Run }) {
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
  return (
    <div className="row export">
      <button type="button" onClick={() => void copy(toMarkdown(run))}>
        {t('copyMarkdown')}
      </button>
      <button type="button" onClick={() => void copy(toPlainText(run))}>
        {t('copyText')}
      </button>
      <span role="status" aria-live="polite" className="small muted" data-testid="export-status">
        {status}
      </span>
    </div>
  );
}
