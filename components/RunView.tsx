import type { Ref } from 'react';
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
import { resumable, RunButtons } from './RunButtons';

export interface RunActions {
  onCancel: () => void;
  /** Continue a failed or interrupted run from its checkpoint. */
  onRetry: () => void;
  /** Start again from scratch (optionally always checking sources). */
  onAgain: (forceRetrieval?: boolean) => void;
  onOpenSource: (s: Source) => void;
  onOpenSettings: () => void;
  onClearMarks?: (tabId: number) => void;
  /** How many marks the tab still shows (the button goes when they are gone). */
  countMarks?: (tabId: number) => Promise<number>;
  /** Ask the question as the user says it should be understood (replaces this run). */
  onAskUnderstood?: (text: string) => void;
  /** A checked claim clicked: its mark in the page is brought into view (false: none now). */
  onRevealClaim?: (tabId: number, sentence: string) => Promise<boolean>;
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
  const live = run.status === 'running';
  return (
    <article className="run" aria-busy={live} data-run-id={run.id} data-status={run.status} data-mode={run.mode}>
      <RunHead run={run} />
      <RunNotices run={run} actions={actions} />
      {live && <RunProgress run={run} onCancel={actions.onCancel} />}
      {isCheck(run) && <CheckReport run={run} actions={actions} focus={focus} />}
      {run.mode === 'ask' && <AskAnswer run={run} onCite={actions.onOpenSource} answerRef={answerRef} />}
      <SourceList sources={run.sources} onOpen={actions.onOpenSource} />
      <Trace run={run} />
      {!live && <RunButtons run={run} actions={actions} />}
    </article>
  );
}

const isCheck = (run: Run) => run.mode === 'verify' || run.mode === 'page';

function modeText(t: T, run: Run): string {
  if (run.mode === 'verify') return t('modeVerify');
  return run.mode === 'page' ? t('modePage') : t('modeAsk');
}

/** What the run is (and its status), and what it was given: the question, the selection (until
 * it has claims; then folded below its report) or the page checked. */
function RunHead({ run }: { run: Run }) {
  const t = useT();
  const title = run.mode === 'verify' ? run.input.page?.title : undefined;
  return (
    <header className="run-head">
      <div className="muted small">
        {modeText(t, run)} · <span data-testid="run-status">{statusText(t, run)}</span>
        {title && (
          <>
            {' '}
            · {t('verifyingSelection')} <cite>{title}</cite>
          </>
        )}
      </div>
      {(run.mode === 'ask' || (run.mode === 'verify' && !run.steps.length)) && <InputText text={run.input.text} />}
      {run.mode === 'page' && <PageTitle page={run.input.page} />}
    </header>
  );
}

function PageTitle({ page }: { page: Run['input']['page'] }) {
  return (
    <p className="run-input page-title" data-testid="run-input">
      {page?.title || page?.url}
      {page?.url && <span className="small muted page-url">{page.url}</span>}
    </p>
  );
}

/** What stopped the run, a page it could not read, and how the question was understood. */
function RunNotices({ run, actions }: { run: Run; actions: RunActions }) {
  const t = useT();
  const rewritten = run.mode === 'ask' ? run.gate?.rewritten : undefined;
  return (
    <>
      {run.error && run.error.code !== 'cancelled' && (
        <ErrorNotice error={run.error} mode={run.mode} where={resumable(run) ? stoppedAt(t, run) : undefined} onRetry={() => actions.onRetry()} onOpenSettings={actions.onOpenSettings} />
      )}
      <SiteAccessPrompt run={run} onAgain={() => actions.onAgain()} />
      {(rewritten || run.input.asked) && <UnderstoodAs rewritten={rewritten ?? run.input.text} asked={run.input.asked} onAsk={rewritten ? actions.onAskUnderstood : undefined} />}
    </>
  );
}

function RunProgress({ run, onCancel }: { run: Run; onCancel: () => void }) {
  const t = useT();
  return (
    <div className="progress row" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{progressText(t, run)}</span>
      <button type="button" onClick={onCancel}>
        {t('cancel')}
      </button>
    </div>
  );
}

/** A verification or a page check: the verdicts, the corrected text, its exports and confidence,
 * and (a verification) the selection it was given, folded. */
function CheckReport({ run, actions, focus }: { run: Run; actions: RunActions; focus?: ClaimFocus }) {
  const t = useT();
  const live = run.status === 'running';
  const finished = !live && run.answerFinal;
  return (
    <>
      <VerifyReport run={run} actions={actions} focus={focus} />
      {/* `answer` keeps the citation markers; `corrected` is the same text without them. */}
      <CorrectedText run={run} onOpenSource={actions.onOpenSource} unfinished={!live && !run.answerFinal ? <Unfinished run={run} /> : undefined} />
      {finished && (run.answer || run.corrected) && <ExportButtons run={run} />}
      {run.mode === 'verify' && run.gate && (live || run.answerFinal) && <ConfidenceLine run={run} />}
      {run.mode === 'verify' && run.steps.length > 0 && (
        <details className="selection-shown small">
          <summary>{t('selectionShown', { n: run.input.text.length.toLocaleString() })}</summary>
          <InputText text={run.input.text} />
        </details>
      )}
    </>
  );
}

/** An answer and what stands behind it. A run that stopped before writing any answer has no
 * answer section (no empty heading). */
function AskAnswer({ run, onCite, answerRef }: { run: Run; onCite: (s: Source) => void; answerRef?: Ref<HTMLElement> }) {
  const t = useT();
  const live = run.status === 'running';
  const model = modelName(t, run.model);
  if (!run.answer && !(live && run.gate)) return null;
  return (
    <section aria-label={t('answer')} data-testid="answer-section" className="answer" ref={answerRef}>
      <h3 className="answer-head">
        {t('answer')} {model && <span className="model-name">{t('answeredBy', { model })}</span>}
      </h3>
      {!live && !run.answerFinal && run.answer && <Unfinished run={run} />}
      {run.answer && (
        <div data-testid="answer">
          <SafeMarkdown text={run.answer} sources={run.sources} onCite={onCite} />
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
  );
}

/** An answer cut off by an error or a cancel: said, with where the run stopped (not exported). */
function Unfinished({ run }: { run: Run }) {
  const t = useT();
  return (
    <p className="notice" data-testid="unfinished">
      {t('answerUnfinished', { where: stoppedAt(t, run) })}
    </p>
  );
}
