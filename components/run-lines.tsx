/** Small lines of a run in plain words: what the gate decided and why, how far the run is, what
 * was asked (long input folded), and how the question was understood (editable). */
import { useState } from 'react';
import type { GateDecision, Run } from '@/lib/core/run';
import { BUILTIN_MODEL_ID } from '@/lib/llm/builtin-availability';
import { useT, type T } from './i18n';

const pct = (x: number) => Math.round(x * 100);

/** The gate's decision as a sentence a reader understands without knowing β. */
export function confidenceLine(t: T, g: GateDecision, run: Pick<Run, 'mode' | 'input'>): string {
  if (g.unreadable) return t('gateUnreadable');
  if (g.aboutPage) return t('conf_page');
  if (run.mode === 'verify') return g.wholeSelection ? t('conf_verify_whole') : t('conf_verify');
  if (run.input.forceRetrieval) return t('conf_forced');
  return g.retrieve ? t('conf_retrieve', { p: pct(g.beta) }) : t('conf_direct', { p: pct(g.beta) });
}

export function ConfidenceLine({ run }: { run: Run }) {
  const t = useT();
  const g = run.gate;
  if (!g) return null;
  return (
    <div className="gate small muted" data-testid="gate-line">
      <p title={t('conf_limit', { t: pct(g.betaThreshold) })}>{confidenceLine(t, g, run)}</p>
      {!!run.input.hiddenSentences && <p data-testid="hidden-skipped">{t('hiddenSkipped', { n: run.input.hiddenSentences })}</p>}
      {g.subQuestions && (
        <>
          <p>{t('conf_split', { n: g.subQuestions.length })}</p>
          <ul>
            {g.subQuestions.map((q) => (
              <li key={q}>{q}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function modelName(t: T, model: string | undefined): string | undefined {
  if (!model) return undefined;
  return model === BUILTIN_MODEL_ID ? t('builtinModelName') : model;
}

/** What the live run is doing now, in words. */
export function progressText(t: T, run: Run): string {
  if (run.mode === 'page') {
    // "7 of 12 checked": claims whose verdict has landed, of those listed so far.
    const done = run.steps.filter((s) => s.verdict).length;
    if (!run.steps.length) return t('progressPageList');
    return t(run.gate?.found === undefined ? 'progressPageMore' : 'progressPageChecked', { done, n: run.steps.length });
  }
  if (!run.gate) return t('progressGate');
  if (run.answer !== undefined) return t('progressAnswer');
  if (!run.steps.length) return t('progressDraft');
  const running = run.steps.find((s) => s.status === 'running') ?? run.steps.find((s) => s.status === 'pending');
  if (!running) return t('progressAnswer');
  return t('progressStep', { i: run.steps.indexOf(running) + 1, n: run.steps.length });
}

/** Where a run that ended early stopped, in words: the stage its error names, else how far it had
 * got (a cancel or an interruption). */
export function stoppedAt(t: T, run: Run): string {
  return stoppedAtStage(t, run) ?? stoppedByProgress(t, run);
}

const claimsOrGate = (run: Run) => (run.mode === 'verify' ? 'stopClaims' : 'stopGate');

/** The stage the run's error names (a page check that had not listed its claims yet, whatever it says). */
function stoppedAtStage(t: T, run: Run): string | undefined {
  const stage = run.error?.stage ?? '';
  const step = /^(revise|check), step (\d+)/.exec(stage);
  if (step) return t(step[1] === 'check' ? 'stopClaim' : 'stopStep', { i: Number(step[2]), n: run.steps.length });
  if (stage === 'page-claims' || (run.mode === 'page' && run.gate?.found === undefined)) return t('stopPageClaims');
  if (stage === 'gate' || stage === 'claims') return t(claimsOrGate(run));
  if (stage === 'draft') return t('stopDraft');
  if (stage === 'compose' || stage === 'answer') return t('stopAnswer');
  return undefined;
}

/** How far the run had got: the gate, the draft, the step or claim under way, or the answer. */
function stoppedByProgress(t: T, run: Run): string {
  const n = run.steps.length;
  if (!run.gate) return t(claimsOrGate(run));
  if (!n && run.gate.retrieve) return t('stopDraft');
  const open = run.steps.find((s) => s.status === 'running') ?? run.steps.find((s) => s.status === 'pending');
  if (!open) return t(run.mode === 'verify' ? 'stopPassage' : 'stopAnswer');
  return t(run.mode === 'ask' ? 'stopStep' : 'stopClaim', { i: run.steps.indexOf(open) + 1, n });
}

const FOLD_AT = 600;

/** The question or selection, folded when it is long (a 30,000-character selection must not push
 * everything else thousands of pixels down). */
export function InputText({ text }: { text: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const long = text.length > FOLD_AT;
  return (
    <>
      <p className="run-input" data-testid="run-input">
        {long && !open ? `${text.slice(0, FOLD_AT)}…` : text}
      </p>
      {long && (
        <button type="button" className="link small" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('showLessInput') : t('showFullInput', { n: text.length.toLocaleString() })}
        </button>
      )}
    </>
  );
}

/** "Understood as: …", with Edit: the user can say what they meant, and it is asked instead. */
export function UnderstoodAs({ rewritten, asked, onAsk }: { rewritten: string; asked?: string; onAsk?: (text: string) => void }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(rewritten);
  if (editing && onAsk) {
    return (
      <form
        className="understood"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) onAsk(text.trim());
          setEditing(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            setEditing(false);
          }
        }}
      >
        <label htmlFor="understood-edit" className="small">
          {t('editUnderstoodLabel')}
        </label>
        <input id="understood-edit" value={text} autoFocus onChange={(e) => setText(e.target.value)} />
        <div className="row">
          <button type="submit" className="primary">
            {t('askEdited')}
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            {t('cancel')}
          </button>
        </div>
      </form>
    );
  }
  return (
    <p className="understood small" data-testid="understood-as">
      {asked && (
        <span className="muted">
          {t('asked')} “{asked}” ·{' '}
        </span>
      )}
      <span className="muted">{t('understoodAs')}</span> <q>{rewritten}</q>
      {onAsk && (
        <>
          {' '}
          <button type="button" className="link" onClick={() => setEditing(true)}>
            {t('editUnderstood')}
          </button>
        </>
      )}
    </p>
  );
}
