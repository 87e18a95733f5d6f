/** The built-in model when Chrome can fetch it but has not yet: a download button with the Prompt
 * API's own progress (the browser downloads only inside the click). */
import { useT } from '../i18n';
import type { BuiltinState } from './use-builtin';

export function BuiltinDownload({ state, onDownload }: { state: BuiltinState; onDownload: () => void }) {
  const t = useT();
  if (state.kind === 'downloadable') {
    return (
      <button type="button" className="primary" data-testid="builtin-download" onClick={onDownload}>
        {t('builtinDownloadChrome')}
      </button>
    );
  }
  if (state.kind === 'downloading') {
    return (
      <p className="small" role="status">
        <progress max={100} value={state.progress} aria-label={t('builtinProvider')} /> {t('builtinDownloading', { p: state.progress })}
      </p>
    );
  }
  if (state.kind === 'failed') {
    return (
      <p className="notice notice-error small" role="alert">
        {state.message}
      </p>
    );
  }
  return null;
}
