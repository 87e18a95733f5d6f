import type { ErrorCode, RunError } from '@/lib/core/run';
import type { MessageKey } from '@/lib/i18n/messages';
import { useT } from './i18n';
import { OllamaCommand } from './setup/OllamaCommand';

const KEYS: Record<ErrorCode, [MessageKey, MessageKey]> = {
  'not-configured': ['errNotConfiguredTitle', 'errNotConfiguredHint'],
  auth: ['errAuthTitle', 'errAuthHint'],
  forbidden: ['errForbiddenTitle', 'errForbiddenHint'],
  'ollama-origin': ['errOllamaTitle', 'errOllamaHint'],
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

const SETTINGS_FIXES = new Set<ErrorCode>(['not-configured', 'auth', 'forbidden', 'unreachable', 'redirected', 'model-not-found', 'ollama-origin', 'not-an-api', 'unsupported-language']);

/** A failure in plain words: what happened, what to do, the server's own detail. */
/** `where`: the point a run stopped at (a run's error), said with what Retry and Run again do. */
export function ErrorNotice({ error, where, onRetry, onOpenSettings }: { error: RunError; where?: string; onRetry?: () => void; onOpenSettings?: () => void }) {
  const t = useT();
  const [title, hint] = KEYS[error.code] ?? KEYS.unknown;
  return (
    <div className="notice notice-error" role="alert" data-error-code={error.code}>
      <strong className="notice-title">{t(title)}</strong>
      {t(hint) && <p className="notice-hint">{t(hint)}</p>}
      {where && <p className="notice-hint" data-testid="stopped-at">{t('stoppedAtLine', { where })}</p>}
      {error.code === 'ollama-origin' && <OllamaCommand />}
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
