/** What the panel shows when its stored data is not as this version expects: a store it cannot
 * open (blocking: nothing would work), one a newer Ratify wrote after a downgrade (a banner: what
 * this version can read is shown), and any view that fails to render (the boundary below): a clear
 * message, never a blank panel. The data itself is never touched here. */
import { Component, type ReactNode } from 'react';
import type { StoreHealth } from '@/lib/store/health';
import { useT } from './i18n';

export function StoreUnavailable({ error }: { error: string }) {
  const t = useT();
  return (
    <div className="store-notice">
      <div className="notice notice-error" role="alert" data-testid="store-problem">
        <strong className="notice-title">{t('storeUnavailableTitle')}</strong>
        <p className="notice-hint">{t('storeUnavailableHint')}</p>
        <p className="notice-detail">{error}</p>
      </div>
    </div>
  );
}

export function NewerStoreNotice({ newer }: { newer: NonNullable<Extract<StoreHealth, { ok: true }>['newer']> }) {
  const t = useT();
  return (
    <div className="store-notice">
      <div className="notice" role="status" data-testid="store-newer">
        <strong className="notice-title">{t('storeNewerTitle')}</strong>
        <p className="notice-hint">{t('storeNewerHint', { stored: newer.stored, known: newer.known })}</p>
      </div>
    </div>
  );
}

function ViewFailed({ error, onReset }: { error: string; onReset: () => Promise<void> }) {
  const t = useT();
  return (
    <div className="store-notice">
      <div className="notice notice-error" role="alert" data-testid="view-failed">
        <strong className="notice-title">{t('viewFailedTitle')}</strong>
        <p className="notice-hint">{t('viewFailedHint')}</p>
        <p className="notice-detail">{error}</p>
        <button type="button" onClick={() => void onReset().finally(() => location.reload())}>
          {t('reloadPanel')}
        </button>
      </div>
    </div>
  );
}

/** Catches a render error anywhere below it (a stored run this version cannot show, a bug) and
 * shows what happened instead of an empty page. Its button reloads the panel after `onReset`
 * (the panel leaves the run it was showing, so a run that cannot be shown does not come back). */
export class ViewBoundary extends Component<{ children: ReactNode; onReset: () => Promise<void> }, { error?: string }> {
  override state: { error?: string } = {};
  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
  override render() {
    return this.state.error ? <ViewFailed error={this.state.error} onReset={this.props.onReset} /> : this.props.children;
  }
}
