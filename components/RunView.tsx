import { useEffect, useRef, useState, type Ref } from 'react';
import { canResume } from '@/lib/pipeline/run-state';
import type { Run, Source } from '@/lib/core/run';
import { ErrorNotice } from './ErrorNotice';
import { useT, type T } from './i18n';
import { ConfidenceLine, InputText, modelName, progressText, stoppedAt, UnderstoodAs } from './run-lines';
import { SafeMarkdown } from './Markdown';
import { CorrectedText, VerifyReport, type ClaimFocus } from './VerifyReport';
import { SourceList } from './SourceList';
import { ExportButtons } from './ExportButtons';
import { SiteAccessPrompt } from './SiteAccessPrompt';
import { Trace } from './Trace';

export interface RunActions {
  onCancel(): void;
  /** Continue a failed or interrupted run from its checkpoint. */
  onRetry(): void;
  /** Start again from scratch (optionally always checking sources). */
  onAgain(forceRetrieval?: boolean): void;
  onOpenSource(s: Source): void;
  onOpenSettings(): void;
  onClearMarks?(tabId: number): void;
  /** How many marks the tab still shows (the button goes when they are gone). */
  countMarks?(tabId: number): Promise<number>;
  /** Ask the question as the user says it should be understood (replaces this run). */
  onAskUnderstood?(text: string): void;
  /** A checked claim clicked: its mark in the page is brought into view (false: none now). */
  onRevealClaim?(tabId: number, sentence: string): Promise<boolean>;
}

function statusText(t: T, run: Pick<Run, 'status'>): string {
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

export { statusText };

/** One question and its answer, answer first: the question, how it was understood, the answer as
 * it streams (with the model's name, the gate's decision in plain words and a copy button), the
 * sources one page per row, and last the trace, open while the run is live. */
export function RunView({ run, actions, answerRef, focus }: { run: Run; actions: RunActions; answerRef?: Ref<HTMLElement>; focus?: ClaimFocus }) {
  const t = useT();
  const live = run.status === 'running';
  const model = modelName(t, run.model);
  const rewritten = run.mode === 'ask' ? run.gate?.rewritten : undefined;
  const checks = run.mode === 'verify' || run.mode === 'page';
  return (
    <article className="run" aria-busy={live} data-run-id={run.id} data-status={run.status} data-mode={run.mode}>
      <header className="run-head">
        <div className="muted small">
          {run.mode === 'verify' ? t('modeVerify') : run.mode === 'page' ? t('modePage') : t('modeAsk')} · <span data-testid="run-status">{statusText(t, run)}</span>
          {run.input.page?.title && run.mode === 'verify' && (
            <>
              {' '}
              · {t('verifyingSelection')} <cite>{run.input.page.title}</cite>
            </>
          )}
        </div>
        {/* A checked selection is shown folded below its report; until it has claims, here. */}
        {(run.mode === 'ask' || (run.mode === 'verify' && !run.steps.length)) && <InputText text={run.input.text} />}
        {run.mode === 'page' && (
          <p className="run-input page-title" data-testid="run-input">
            {run.input.page?.title || run.input.page?.url}
            {run.input.page?.url && <span className="small muted page-url">{run.input.page.url}</span>}
          </p>
        )}
      </header>

      {run.error && run.error.code !== 'cancelled' && (
        <ErrorNotice error={run.error} mode={run.mode} where={resumable(run) ? stoppedAt(t, run) : undefined} onRetry={() => actions.onRetry()} onOpenSettings={actions.onOpenSettings} />
      )}

      <SiteAccessPrompt run={run} onAgain={() => actions.onAgain()} />

      {(rewritten || run.input.asked) && <UnderstoodAs rewritten={rewritten ?? run.input.text} asked={run.input.asked} onAsk={rewritten ? actions.onAskUnderstood : undefined} />}

      {live && (
        <div className="progress row" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>{progressText(t, run)}</span>
          <button type="button" onClick={actions.onCancel}>
            {t('cancel')}
          </button>
        </div>
      )}

      {checks && <VerifyReport run={run} actions={actions} focus={focus} />}

      {/* `answer` keeps the citation markers; `corrected` is the same text without them. */}
      {checks && <CorrectedText run={run} onOpenSource={actions.onOpenSource} unfinished={!live && !run.answerFinal ? <Unfinished run={run} /> : undefined} />}

      {/* A run that stopped before writing any answer has no answer section (no empty heading). */}
      {run.mode === 'ask' && (run.answer || (live && run.gate)) && (
        <section aria-label={t('answer')} data-testid="answer-section" className="answer" ref={answerRef}>
          <h3 className="answer-head">
            {t('answer')} {model && <span className="model-name">{t('answeredBy', { model })}</span>}
          </h3>
          {!live && !run.answerFinal && run.answer && <Unfinished run={run} />}
          {run.answer && (
            <div data-testid="answer">
              <SafeMarkdown text={run.answer} sources={run.sources} onCite={actions.onOpenSource} />
            </div>
          )}
          {run.answerFinal && run.gate?.retrieve && run.steps.length > 0 && !run.sources.length && (
            <p className="small muted" data-testid="no-sources">
              {t('answerNoSources')}
            </p>
          )}
          {/* "Checked against sources…" is said of an answer that was finished (or is being written). */}
          {(live || run.answerFinal) && <ConfidenceLine run={run} />}
          {!live && run.answerFinal && run.answer && <ExportButtons run={run} compact />}
        </section>
      )}

      {checks && !live && run.answerFinal && (run.answer || run.corrected) && <ExportButtons run={run} />}
      {run.mode === 'verify' && run.gate && (live || run.answerFinal) && <ConfidenceLine run={run} />}
      {run.mode === 'verify' && run.steps.length > 0 && (
        <details className="selection-shown small">
          <summary>{t('selectionShown', { n: run.input.text.length.toLocaleString() })}</summary>
          <InputText text={run.input.text} />
        </details>
      )}

      <SourceList sources={run.sources} onOpen={actions.onOpenSource} />

      <Trace run={run} />

      {!live && <RunButtons run={run} actions={actions} />}
    </article>
  );
}

/** A run that stopped part-way: Retry continues it from its last checkpoint. */
function resumable(run: Run): boolean {
  if (run.error && NOT_STARTED.has(run.error.code)) return false;
  return (run.status === 'error' || run.status === 'interrupted' || run.status === 'cancelled') && canResume(run);
}

/** Errors of a run that never started: there is nothing to continue or to say where it stopped. */
const NOT_STARTED = new Set(['empty-input', 'too-long', 'not-configured']);

/** An answer cut off by an error or a cancel: said, with where the run stopped (not exported). */
function Unfinished({ run }: { run: Run }) {
  const t = useT();
  return (
    <p className="notice" data-testid="unfinished">
      {t('answerUnfinished', { where: stoppedAt(t, run) })}
    </p>
  );
}

function RunButtons({ run, actions }: { run: Run; actions: RunActions }) {
  const t = useT();
  const tabId = (run.mode === 'verify' || run.mode === 'page') && (run.claims?.length || run.steps.some((st) => st.verdict)) ? run.input.page?.tabId : undefined;
  const marks = useMarksCount(tabId, run.status, actions.countMarks);
  const stopped = (run.status === 'error' || run.status === 'interrupted' || run.status === 'cancelled') && !(run.error && NOT_STARTED.has(run.error.code));
  return (
    <div className="row run-buttons">
      {/* An error's notice has its own Retry. */}
      {resumable(run) && !(run.error && run.error.code !== 'cancelled') && (
        <button type="button" onClick={() => actions.onRetry()}>
          {t('retry')}
        </button>
      )}
      {stopped && (
        <button type="button" onClick={() => actions.onAgain()}>
          {t('rerun')}
        </button>
      )}
      {tabId !== undefined && marks.count > 0 && actions.onClearMarks && (
        <button
          type="button"
          onClick={() => {
            actions.onClearMarks?.(tabId);
            marks.cleared();
          }}
        >
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
  );
}

/** The marks a verification left in its tab, counted again whenever the panel comes back into
 * view (the page may have been reloaded, navigated or cleared from inside). */
function useMarksCount(tabId: number | undefined, status: Run['status'], count: RunActions['countMarks']): { count: number; cleared(): void } {
  const [n, setN] = useState(0);
  const counter = useRef(count);
  counter.current = count;
  useEffect(() => {
    if (tabId === undefined) return;
    let live = true;
    const check = () => void counter.current?.(tabId).then((c) => live && setN(c));
    // The worker marks the page just after the run ends: look again shortly, then now and then.
    const soon = [0, 400, 1500].map((ms) => setTimeout(check, ms));
    document.addEventListener('visibilitychange', check);
    window.addEventListener('focus', check);
    const timer = setInterval(check, 5000);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('focus', check);
      clearInterval(timer);
      soon.forEach(clearTimeout);
    };
  }, [tabId, status]);
  return { count: n, cleared: () => setN(0) };
}
