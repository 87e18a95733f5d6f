/** A conversation: its questions in order, each answered in place; the live one streams (the panel
 * follows its answer unless the user scrolls away). The runs come composed (components/thread-runs.ts). */
import { useCallback, useRef } from 'react';
import type { Run } from '@/lib/core/run';
import { ExportButtons } from './ExportButtons';
import { useT } from './i18n';
import { RunView, type RunActions } from './RunView';
import type { ClaimFocus } from './VerifyReport';
import { useFollow } from './use-follow';

export function ThreadView({ runs: shown, actionsFor, focus }: { runs: Run[]; actionsFor: (run: Run) => RunActions; focus?: ClaimFocus & { runId: string } }) {
  const t = useT();
  const last = shown[shown.length - 1];
  const answerRef = useRef<HTMLElement>(null);
  const inset = useCallback(() => document.querySelector('.composer')?.getBoundingClientRect().height ?? 0, []);
  useFollow(answerRef, last?.status === 'running', `${last?.id}:${last?.answer?.length ?? 0}:${last?.steps.length ?? 0}`, inset);
  if (!shown.length) return null;
  const finished = shown.filter((r) => r.answerFinal);
  return (
    <div className="thread" data-testid="thread">
      {finished.length > 1 && (
        <div className="thread-head row spread">
          <span className="muted small">{t('questionsInThread', { n: shown.length })}</span>
          <ExportButtons thread={shown} compact />
        </div>
      )}
      {shown.map((r) => (
        <RunView key={r.id} run={r} actions={actionsFor(r)} answerRef={r === last ? answerRef : undefined} focus={focus?.runId === r.id ? focus : undefined} />
      ))}
    </div>
  );
}
