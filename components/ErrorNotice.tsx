import { useState } from 'react';
import type { ErrorCode, RunError, RunMode } from '@/lib/core/run';
import type { MessageKey } from '@/lib/i18n/messages';
import { AllowSitesButton } from './AllowSitesButton';
import { useT, type T } from './i18n';
import { OllamaCommand } from './setup/OllamaCommand';
import { useHostAccess } from './use-host-access';

const KEYS: Record<ErrorCode, [MessageKey, MessageKey]> = {
  'not-configured': ['errNotConfiguredTitle', 'errNotConfiguredHint'],
  auth: ['errAuthTitle', 'errAuthHint'],
  forbidden: ['errForbiddenTitle', 'errForbiddenHint'],
  'ollama-origin': ['errOllamaTitle', 'errOllamaHint'],
  'ollama-down': ['errOllamaDownTitle', 'errOllamaDownHint'],
  'no-cors': ['errNoCorsTitle', 'errNoCorsHint'],
  unreachable: ['errUnreachableTitle', 'errUnreachableHint'],
  redirected: ['errRedirectedTitle', 'errRedirectedHint'],
  'rate-limit': ['errRateLimitTitle', 'errRateLimitHint'],
  timeout: ['errTimeoutTitle', 'errTimeoutHint'],
  server: ['errServerTitle', 'errServerHint'],
  'model-not-found': ['errModelTitle', 'errModelHint'],
  'bad-output': ['errBadOutputTitle', 'errBadOutputHint'],
  'context-length': ['errContextTitle', 'errContextHint'],
  'not-an-api': ['errNotApiTitle', 'errNotApiHint'],
  'output-limit': ['errOutputLimitTitle', 'errOutputLimitHint'],
  'unsupported-language': ['errLanguageTitle', 'errLanguageHint'],
  'empty-input': ['errEmptyTitle', 'errEmptyHint'],
  'too-long': ['errTooLongTitle', 'errTooLongHint'],
  cancelled: ['errCancelledTitle', 'errCancelledHint'],
  interrupted: ['errInterruptedTitle', 'errInterruptedHint'],
  unknown: ['errUnknownTitle', 'errUnknownHint'],
};

/** In the form where the endpoint is typed (the welcome card, Settings → Model), the fix is in
 * the fields above, not "in Settings". */
const FORM_HINTS: Partial<Record<ErrorCode, MessageKey>> = {
  auth: 'errAuthHintForm',
  forbidden: 'errForbiddenHintForm',
  unreachable: 'errUnreachableHintForm',
  redirected: 'errRedirectedHintForm',
  timeout: 'errTimeoutHintForm',
  'model-not-found': 'errModelHintForm',
  'not-an-api': 'errNotApiHintForm',
  unknown: 'errUnknownHintForm',
};

const SETTINGS_FIXES = new Set<ErrorCode>(['not-configured', 'auth', 'forbidden', 'unreachable', 'redirected', 'model-not-found', 'ollama-origin', 'not-an-api', 'unsupported-language', 'timeout']);

export interface ErrorNoticeProps {
  error: RunError;
  /** The point a run stopped at (a run's error), said with what Retry and Run again do. */
  where?: string;
  /** What the run was doing: the limit of a too-long input is said for a selection or a question. */
  mode?: RunMode;
  /** Shown in the endpoint form itself (welcome card, Settings): hints point at the fields above. */
  inForm?: boolean;
  onRetry?: () => void;
  onOpenSettings?: () => void;
}

function hintFor(t: T, error: RunError, mode: RunMode | undefined, inForm: boolean | undefined): string {
  if (error.code === 'too-long' && error.length !== undefined && error.limit !== undefined) {
    return t(mode === 'ask' ? 'errTooLongQuestion' : 'errTooLongSelection', { n: error.length.toLocaleString(), max: error.limit.toLocaleString() });
  }
  const key = (inForm && FORM_HINTS[error.code]) || (KEYS[error.code] ?? KEYS.unknown)[1];
  return t(key);
}

/** A failure in plain words: what happened, what to do (with the button that does it), the
 * server's own detail. */
export function ErrorNotice({ error, where, mode, inForm, onRetry, onOpenSettings }: ErrorNoticeProps) {
  const t = useT();
  const title = (KEYS[error.code] ?? KEYS.unknown)[0];
  const hint = hintFor(t, error, mode, inForm);
  return (
    <div className="notice notice-error" role="alert" data-error-code={error.code}>
      <strong className="notice-title">{t(title)}</strong>
      {hint && <p className="notice-hint">{hint}</p>}
      {where && <p className="notice-hint" data-testid="stopped-at">{t('stoppedAtLine', { where })}</p>}
      {error.code === 'ollama-origin' && <OllamaCommand />}
      {error.code === 'no-cors' && <AllowSites inForm={inForm} />}
      {error.code === 'rate-limit' && error.retryAfter !== undefined && <p className="notice-hint">{t('errRateLimitWait', { s: error.retryAfter })}</p>}
      {error.message && (
        <details>
          <summary>{t('details')}</summary>
          <p className="notice-detail">{error.message}</p>
        </details>
      )}
      <div className="row">
        {onOpenSettings && SETTINGS_FIXES.has(error.code) && (
          <button type="button" onClick={onOpenSettings}>
            {t('openSettings')}
          </button>
        )}
        {onRetry && !['empty-input', 'too-long'].includes(error.code) && (
          <button type="button" onClick={onRetry}>
            {t('retry')}
          </button>
        )}
      </div>
    </div>
  );
}

/** A server that answers but not to extensions: once Ratify may read sites, it reads the replies.
 * The browser's prompt is asked for inside the click (it needs the user's gesture). */
function AllowSites({ inForm }: { inForm?: boolean }) {
  const t = useT();
  const granted = useHostAccess();
  const [declined, setDeclined] = useState(false);
  if (granted === undefined) return null;
  if (granted) {
    return (
      <p className="notice-hint" role="status" data-testid="no-cors-granted">
        {t(inForm ? 'errNoCorsGrantedForm' : 'errNoCorsGranted')}
      </p>
    );
  }
  return (
    <div className="row">
      <AllowSitesButton onDeclined={setDeclined} />
      {declined && (
        <span className="small" role="status">
          {t('accessDeclined')}
        </span>
      )}
    </div>
  );
}
