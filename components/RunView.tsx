import { changesText } from '@/lib/verdicts';
import type { GateDecision, Run, Source } from '@/lib/pipeline/types';
import { ErrorNotice } from './ErrorNotice';
import { useT, type T } from './i18n';
import { SafeMarkdown } from './Markdown';
import { SourceList } from './SourceList';
import { ExportButtons } from './ExportButtons';
import { Trace, VerdictBadge } from './Trace';

export interface RunActions {
  onCancel(): void;
  /** Continue a failed or interrupted run from its checkpoint. */
  onRetry(): void;
  /** Start again from scratch (optionally always checking sources). */
  onAgain(forceRetrieval?: boolean): void;
  onOpenSource(s: Source): void;
  onOpenSettings(): void;
  onClearMarks?(tabId: number): void;
}

export function gateLine(t: T, g: GateDecision, run: Pick<Run, 'mode' | 'input'>): string {
  if (g.unreadable) return t('gateUnreadable');
  const label = t(`clarity_${g.label}`);
  const cmp = g.beta < g.betaThreshold ? '<' : '≥';
  let action: string;
  if (!g.retrieve) action = t('gateDirect');
  else if (run.mode === 'verify') action = t('gateVerifyAlways');
  else if (run.input.forceRetrieval) action = t('gateForced');
  else action = t('gateRetrieve');
  let line = `${label} · ${t('confidence')} ${g.beta.toFixed(2)} ${cmp} ${g.betaThreshold.toFixed(2)} → ${action}`;
  if (g.rewritten) line += ` · ${t('rewrittenAs')} “${g.rewritten}”`;
  return line;
}

function statusText(t: T, run: Run): string {
  switch (run.status) {
    case 'running':
      return t('statusRunning');
    case 'done':
      return t('statusDone');
    case 'error':
      return t('statusError');
    case 'cancelled':
      return t('statusCancelled');
    case 'interrupted':
      return t('statusInterrupted');
  }
}

export function RunView({ run, actions }: { run: Run; actions: RunActions }) {
  const t = useT();
  const live = run.status === 'running';
  const doneSteps = run.steps.filter((s) => s.status !== 'pending' && s.status !== 'running').length;
  return (
    <article className="run" aria-busy={live} data-run-id={run.id} data-status={run.status}>
      <header className="run-head">
        <div className="muted small">
          {run.mode === 'verify' ? t('modeVerify') : t('modeAsk')} · <span data-testid="run-status">{statusText(t, run)}</span>
          {run.input.page?.title && run.mode === 'verify' && (
            <>
              {' '}
              · {t('verifyingSelection')} <cite>{run.input.page.title}</cite>
            </>
          )}
        </div>
        <p className="run-input" data-testid="run-input">
          {run.input.text}
        </p>
      </header>

      {run.gate && (
        <p className="gate small" data-testid="gate-line">
          {gateLine(t, run.gate, run)}
          {run.gate.subQuestions && (
            <ul>
              {run.gate.subQuestions.map((q) => (
                <li key={q}>{q}</li>
              ))}
            </ul>
          )}
        </p>
      )}

      {live && (
        <div className="progress row" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>{run.steps.length ? t('stepOf', { i: Math.min(doneSteps + 1, run.steps.length), n: run.steps.length }) : t('running')}</span>
          <button type="button" onClick={actions.onCancel} aria-label={t('cancel')}>
            {t('cancel')}
          </button>
        </div>
      )}

      {run.draftText && !run.steps.length && (
        <section aria-label={t('draft')}>
          <h3>{t('draft')}</h3>
          <pre className="draft">{run.draftText}</pre>
        </section>
      )}

      {run.claims && run.claims.length > 0 && <Claims run={run} onOpenSource={actions.onOpenSource} />}

      {run.steps.length > 0 && <Trace run={run} />}

      {run.mode === 'verify' && (run.answer || run.corrected) && (
        <section aria-label={t('correctedText')} data-testid="corrected">
          <h3>{t('correctedText')}</h3>
          {/* `answer` keeps the citation markers; `corrected` is the same text without them. */}
          <SafeMarkdown text={run.answer || run.corrected || ''} sources={run.sources} onCite={actions.onOpenSource} />
        </section>
      )}

      {run.mode === 'ask' && run.answer && (
        <section aria-label={t('answer')} data-testid="answer">
          <h3>{t('answer')}</h3>
          {!live && !run.answerFinal && <p className="notice" data-testid="unfinished">{t('answerUnfinished')}</p>}
          <SafeMarkdown text={run.answer} sources={run.sources} onCite={actions.onOpenSource} />
        </section>
      )}

      <SourceList sources={run.sources} onOpen={actions.onOpenSource} />

      {run.error && run.error.code !== 'cancelled' && <ErrorNotice error={run.error} onRetry={() => actions.onRetry()} onOpenSettings={actions.onOpenSettings} />}

      {!live && run.answerFinal && (run.answer || run.corrected) && <ExportButtons run={run} />}

      {!live && (
        <div className="row">
          {run.status === 'interrupted' && (
            <button type="button" onClick={() => actions.onRetry()}>
              {t('retry')}
            </button>
          )}
          {run.status === 'cancelled' && (
            <button type="button" onClick={() => actions.onAgain()}>
              {t('retry')}
            </button>
          )}
          {run.mode === 'verify' && run.claims?.length && run.input.page?.tabId !== undefined && actions.onClearMarks && (
            <button type="button" onClick={() => actions.onClearMarks!(run.input.page!.tabId!)}>
              {t('clearMarks')}
            </button>
          )}
          {run.status === 'done' && (
            <button type="button" onClick={() => actions.onAgain()}>
              {t('rerun')}
            </button>
          )}
          {run.status === 'done' && run.gate && !run.gate.retrieve && run.mode === 'ask' && (
            <button type="button" onClick={() => actions.onAgain(true)}>
              {t('checkAnyway')}
            </button>
          )}
        </div>
      )}
    </article>
  );
}

function Claims({ run, onOpenSource }: { run: Run; onOpenSource: (s: Source) => void }) {
  const t = useT();
  return (
    <section aria-label={t('claims')}>
      <h3>{t('claims')}</h3>
      <ul className="claims">
        {run.claims!.map((c, i) => (
          <li key={i} data-claim-verdict={c.verdict}>
            <div className="claim-line">
              <VerdictBadge verdict={c.verdict} /> <span>{c.claim}</span>{' '}
              {c.sources.map((n) => {
                const s = run.sources.find((x) => x.n === n);
                return s ? (
                  <button key={n} type="button" className="cite" aria-label={`Source ${n}: ${s.title}`} onClick={() => onOpenSource(s)}>
                    {n}
                  </button>
                ) : null;
              })}
            </div>
            {c.corrected && changesText(c.verdict) && <p className="correction">→ {c.corrected}</p>}
            {c.explanation && <p className="small muted explanation">{c.explanation}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
