/** The buttons under a run that has ended: Retry (continue from the checkpoint), Run again, Clear
 * marks while the page still shows them, and Check anyway for an answer given without sources. */
import { useEffect, useRef, useState } from 'react';
import { canResume } from '@/lib/pipeline/run-state';
import type { Run } from '@/lib/core/run';
import { useT } from './i18n';
import type { RunActions } from './RunView';

/** Errors of a run that never started: there is nothing to continue or to say where it stopped. */
const NOT_STARTED = new Set(['empty-input', 'too-long', 'not-configured']);

const neverStarted = (run: Run) => !!run.error && NOT_STARTED.has(run.error.code);
const stoppedPartWay = (run: Run) => run.status === 'error' || run.status === 'interrupted' || run.status === 'cancelled';

/** A run that stopped part-way: Retry continues it from its last checkpoint. */
export function resumable(run: Run): boolean {
  return !neverStarted(run) && stoppedPartWay(run) && canResume(run);
}

/** The tab whose marks a check left, once it has verdicts. */
function markedTab(run: Run): number | undefined {
  const checked = (run.mode === 'verify' || run.mode === 'page') && (run.claims?.length || run.steps.some((st) => st.verdict));
  return checked ? run.input.page?.tabId : undefined;
}

export function RunButtons({ run, actions }: { run: Run; actions: RunActions }) {
  const t = useT();
  // An error's notice has its own Retry.
  const retry = resumable(run) && !(run.error && run.error.code !== 'cancelled');
  const stopped = stoppedPartWay(run) && !neverStarted(run);
  const checkAnyway = run.status === 'done' && run.mode === 'ask' && run.gate && !run.gate.retrieve;
  return (
    <div className="row run-buttons">
      {retry && (
        <button type="button" onClick={() => actions.onRetry()}>
          {t('retry')}
        </button>
      )}
      {stopped && <AgainButton onAgain={actions.onAgain} />}
      <ClearMarksButton run={run} actions={actions} />
      {run.status === 'done' && <AgainButton onAgain={actions.onAgain} />}
      {checkAnyway && (
        <button type="button" onClick={() => actions.onAgain(true)}>
          {t('checkAnyway')}
        </button>
      )}
    </div>
  );
}

function AgainButton({ onAgain }: { onAgain: RunActions['onAgain'] }) {
  const t = useT();
  return (
    <button type="button" onClick={() => onAgain()}>
      {t('rerun')}
    </button>
  );
}

/** Shown while the page still shows the check's marks. */
function ClearMarksButton({ run, actions }: { run: Run; actions: RunActions }) {
  const t = useT();
  const tabId = markedTab(run);
  const marks = useMarksCount(tabId, run.status, actions.countMarks);
  if (tabId === undefined || marks.count === 0 || !actions.onClearMarks) return null;
  const clear = actions.onClearMarks;
  return (
    <button
      type="button"
      onClick={() => {
        clear(tabId);
        marks.cleared();
      }}
    >
      {t('clearMarks')}
    </button>
  );
}

/** The marks a verification left in its tab, counted again whenever the panel comes back into
 * view (the page may have been reloaded, navigated or cleared from inside). */
function useMarksCount(tabId: number | undefined, status: Run['status'], count: RunActions['countMarks']): { count: number; cleared: () => void } {
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
