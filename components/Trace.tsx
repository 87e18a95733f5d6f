import { useEffect, useState } from 'react';
import type { Passage, SourceStatus } from '@/lib/core/passage';
import type { Run, StepState, Verdict } from '@/lib/core/run';
import { VERDICT_INFO } from '@/lib/core/verdicts';
import { networkSafe } from '@/lib/core/flow';
import { useT, type T } from './i18n';
import { reasonKey } from './scope';
import { SiteIcon, siteOf } from './SiteIcon';
import { StepDiff } from './StepDiff';


export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  const t = useT();
  return (
    <span className={`verdict verdict-${verdict}`} data-verdict={verdict}>
      <span aria-hidden="true">{VERDICT_INFO[verdict].icon}</span> {t(`verdict_${verdict}`)}
    </span>
  );
}

/** The inner monologue: what was read, the draft, each step's queries, what was found, and how
 * the step changed. Open while the run is live, folded once it is done (the answer is above). */
export function Trace({ run }: { run: Run }) {
  const t = useT();
  const live = run.status === 'running';
  const [open, setOpen] = useState(live);
  useEffect(() => setOpen(live), [live]);
  const parts = run.gate?.subQuestions;
  const draft = run.draftText && !run.steps.length ? run.draftText : undefined;
  const thought = Object.values(run.thinking ?? {}).reduce((a, b) => a + b, 0);
  if (!run.steps.length && !draft && !run.library.length && !thought) return null;
  return (
    // Only its own toggle counts: React passes a nested <details>'s toggle (a step's queries
    // folding as it ends) up to this handler too, which could reopen the trace as the run ends.
    <details className="trace" data-testid="trace" open={open} onToggle={(e) => e.target === e.currentTarget && setOpen(e.currentTarget.open)}>
      <summary>
        <h3>{t('trace')}</h3>
      </summary>
      {run.speculationOff && run.speculationOff !== 'setting' && (
        <p className="small muted" data-testid="speculation-off">
          {t(`speculationOff_${run.speculationOff.replace(/-/g, '_') as 'one_at_a_time' | 'queueing' | 'rate_limit'}`)}
        </p>
      )}
      {thought > 0 && <Thinking run={run} live={live} />}
      {/* The one stage whose unreadable reply is not an error: what was skipped is said here too. */}
      {run.gate?.unreadable && (
        <p className="small muted" data-testid="trace-gate-unreadable">
          {t('gateUnreadable')}
        </p>
      )}
      {run.webPlan && <WebPlanLine run={run} />}
      {run.library.length > 0 && <LibrarySummary run={run} />}
      {draft && (
        <section aria-label={t('draft')}>
          <h4>{t('draft')}</h4>
          <pre className="draft">{draft}</pre>
        </section>
      )}
      <ol className="steps">
        {run.steps.map((s) => (
          <li key={s.index} data-step={s.index} className={`step step-${s.status}`}>
            {parts && s.part !== undefined && (s.index === 0 || run.steps[s.index - 1]?.part !== s.part) && <p className="small muted part">{parts[s.part]}</p>}
            <Step step={s} total={run.steps.length} />
          </li>
        ))}
      </ol>
    </details>
  );
}

/** What went to web search and why nothing else did (lib/core/flow.ts): the run's searches were
 * written from what the user typed or selected; the steps' own queries, written after reading the
 * page or the tabs, searched only this computer's library. */
function WebPlanLine({ run }: { run: Run }) {
  const t = useT();
  const queries = run.webPlan?.queries ?? [];
  const local = !!run.origins && !networkSafe(run.origins);
  return (
    <section className="small web-plan" data-testid="web-plan" aria-label={t('webPlanTitle')}>
      <p>
        {queries.length ? t('webPlanSearched', { queries: queries.map((q) => `“${q}”`).join(' · ') }) : t('webPlanNone')} <span className="muted">{t('webPlanWhy')}</span>
      </p>
      {local && <p className="muted" data-testid="web-plan-local">{t('webPlanLocal')}</p>}
    </section>
  );
}

/** A thinking model's thought, folded: only its length per stage (the thought is not the answer
 * and is not shown as one). */
function Thinking({ run, live }: { run: Run; live: boolean }) {
  const t = useT();
  const byStage = Object.entries(run.thinking ?? {});
  const total = byStage.reduce((a, [, n]) => a + n, 0);
  return (
    <details className="thinking small muted" data-testid="thinking">
      <summary>{t(live ? 'thinkingLive' : 'thinkingDone', { n: total.toLocaleString() })}</summary>
      <ul>
        {byStage.map(([stage, n]) => (
          <li key={stage}>
            {stage}: {t('thinkingChars', { n: n.toLocaleString() })}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A source's status reason in the UI language (the library's own reasons), else as it came. */
export function reasonText(t: T, s: Pick<SourceStatus, 'reason'>): string | undefined {
  if (!s.reason) return undefined;
  const key = reasonKey(s.reason);
  return key ? t(key) : s.reason;
}

function LibrarySummary({ run }: { run: Run }) {
  const t = useT();
  const read = run.library.filter((s) => s.status === 'read' || s.status === 'cached');
  const skipped = run.library.filter((s) => s.status === 'skipped' || s.status === 'failed');
  return (
    <details className="library small" data-testid="library">
      <summary>{t('librarySummary', { read: read.length, skipped: skipped.length })}</summary>
      <ul>
        {run.library.map((s, i) => (
          <li key={`${s.url}-${i}`} data-library-status={s.status}>
            <span className={`lib-status lib-${s.status}`}>{t(`lib_${s.status}`)}</span> {s.title || s.url}
            <span className="muted"> · {s.origin === 'tab' ? t('originTab') : t('originWeb')}</span>
            {s.reason && <span className="muted"> — {reasonText(t, s)}</span>}
          </li>
        ))}
        {run.providerErrors.map((e, i) => (
          <li key={`err-${i}`} className="lib-failed">
            {e.provider}: {e.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Step({ step, total }: { step: StepState; total: number }) {
  const t = useT();
  const after = step.revised ?? step.revising;
  return (
    <div>
      <div className="row small muted">
        <span>{t('stepOf', { i: step.index + 1, n: total })}</span>
        <span>· {t(`step_${step.status}`)}</span>
        {step.speculative && <span data-testid="speculative">· {t('speculationAccepted')}</span>}
        {step.verdict && <VerdictBadge verdict={step.verdict} />}
      </div>
      {step.discarded?.map((reason, i) => (
        <p key={i} className="small muted" data-testid="speculation-discarded">
          {t('speculationDiscarded', { reason: t(`discard_${reason.replace(/-/g, '_') as 'earlier_changed' | 'context_changed' | 'server_queues' | 'server_limits'}`) })}
        </p>
      ))}
      {after !== undefined && step.status !== 'running' ? <StepDiff before={step.draft} after={after} /> : <p className="step-text">{after ?? step.draft}</p>}
      {step.note && <p className="small muted">{step.note}</p>}
      {step.queries.map((q) => (
        <details key={q.round} className="query" open={step.status === 'running'}>
          <summary className="small">
            <SearchIcon /> {q.query}
            <span className="muted">
              {' '}
              · {q.passages.length === 1 ? t('passageFound') : t('passagesFound', { n: q.passages.length })}
              {q.sufficient === false ? ` · ${t('notEnough')}` : ''}
            </span>
          </summary>
          <ul className="passages">
            {q.passages.map((p) => (
              <PassageItem key={p.id} passage={p} cited={step.citations.includes(p.id)} />
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

function PassageItem({ passage, cited }: { passage: Passage; cited: boolean }) {
  const t = useT();
  return (
    <li className={cited ? 'passage cited' : 'passage'} data-passage={passage.id} data-origin={passage.origin}>
      <div className="row small">
        <SiteIcon url={passage.url} />
        <strong>{passage.title || siteOf(passage.url)}</strong>
        <span className={`origin origin-${passage.origin}`}>{passage.origin === 'tab' ? t('originTab') : t('originWeb')}</span>
        {cited && <span className="muted">· {t('cited')}</span>}
      </div>
      <p className="snippet small">{passage.text.length > 280 ? passage.text.slice(0, 280) + '…' : passage.text}</p>
    </li>
  );
}

function SearchIcon() {
  return (
    <svg className="icon-search" width="12" height="12" viewBox="0 0 16 16" aria-hidden="true">
      <circle cx="6.5" cy="6.5" r="4.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <line x1="10" y1="10" x2="14.5" y2="14.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
