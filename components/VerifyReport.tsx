/** The fact-check report of a selection or a page, verdict first: the summary ("12 claims: 8
 * supported · 2 corrected · …"), then the claims in page order, each with its verdict, correction,
 * why, and its validated sources; then the corrected text (built in code from the verdicts).
 * Clicking a claim brings its mark in the page into view; a mark's "Show in Ratify" brings the
 * claim here (`focus`). */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { changesText } from '@/lib/core/verdicts';
import type { Run, Source } from '@/lib/core/run';
import { useT } from './i18n';
import { SafeMarkdown } from './Markdown';
import { reportItems, summaryText, type ReportItem } from './report-items';
import { VerdictBadge } from './Trace';

export interface ReportActions {
  onOpenSource: (s: Source) => void;
  /** Scrolls the page to the claim's mark; false when the page shows no such mark now. */
  onRevealClaim?: (tabId: number, sentence: string) => Promise<boolean>;
}

/** A claim the panel was asked to bring up (a mark's "Show in Ratify"). */
export interface ClaimFocus {
  sentence: string;
  at: number;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

export function VerifyReport({ run, actions, focus }: { run: Run; actions: ReportActions; focus?: ClaimFocus }) {
  const t = useT();
  const live = run.status === 'running';
  const items = reportItems(run);
  const list = useRef<HTMLOListElement>(null);
  const focused = useClaimFocus(items, focus, list);
  const reveal = useReveal(run, actions);
  if (!items.length && run.mode !== 'page') return null;
  return (
    <section className="report" aria-label={t('claims')} data-testid="report">
      {items.length > 0 && (
        <p className="report-summary" data-testid="verdict-summary">
          {summaryText(t, items)}
        </p>
      )}
      {run.mode === 'page' && !live && run.status === 'done' && !items.length && <p data-testid="no-claims">{t('pageNoClaims')}</p>}
      {run.mode === 'page' && (
        <p className="small muted" data-testid="page-web-note">
          {t('pageWebNote')}
        </p>
      )}
      {items.length > 0 && (
        <ol className="claims" ref={list}>
          {items.map((item) => (
            <ClaimItem key={item.key} item={item} run={run} focused={focused === item.key} reveal={reveal} onOpenSource={actions.onOpenSource} />
          ))}
        </ol>
      )}
      <ReportNotes run={run} shown={items.length} />
    </section>
  );
}

/** A mark's "Show in Ratify": its claim scrolled into view, focused and highlighted a moment. */
function useClaimFocus(items: ReportItem[], focus: ClaimFocus | undefined, list: RefObject<HTMLOListElement | null>): string | undefined {
  const [focused, setFocused] = useState<string>();
  useEffect(() => {
    if (!focus) return;
    const want = squash(focus.sentence);
    const item = items.find((i) => squash(i.sentence) === want);
    if (!item) return;
    setFocused(item.key);
    const el = list.current?.querySelector<HTMLElement>(`[data-key="${item.key}"]`);
    el?.scrollIntoView({ block: 'center' });
    el?.querySelector<HTMLElement>('button, [tabindex]')?.focus({ preventScroll: true });
    const off = setTimeout(() => setFocused(undefined), 4000);
    return () => clearTimeout(off);
    // Only a new request moves the panel, not each event of a live run.
  }, [focus?.at]);
  return focused;
}

interface Reveal {
  /** Brings the claim's mark into view; undefined where the page cannot show marks. */
  show?: (item: ReportItem) => void;
  /** The claim whose mark the page no longer shows. */
  gone?: string;
}

/** A checked claim clicked: its mark in the page (none in a PDF viewer). */
function useReveal(run: Run, actions: ReportActions): Reveal {
  const [gone, setGone] = useState<string>();
  const tabId = run.input.page?.pdf ? undefined : run.input.page?.tabId;
  const onReveal = actions.onRevealClaim;
  if (tabId === undefined || !onReveal) return { gone };
  const show = (item: ReportItem) => void onReveal(tabId, item.sentence).then((ok) => setGone(ok ? undefined : item.key));
  return { show, gone };
}

function ClaimItem({ item, run, focused, reveal, onOpenSource }: { item: ReportItem; run: Run; focused: boolean; reveal: Reveal; onOpenSource: (s: Source) => void }) {
  const t = useT();
  const show = item.state === 'done' ? reveal.show : undefined;
  return (
    <li data-key={item.key} data-claim-verdict={item.verdict ?? item.state} data-focused={focused || undefined}>
      <div className="claim-line">
        {item.verdict ? <VerdictBadge verdict={item.verdict} /> : <span className="verdict verdict-pending">{t(item.state === 'checking' ? 'claimChecking' : 'claimWaiting')}</span>}{' '}
        {show ? (
          <button type="button" className="claim-text" title={t('showInPage')} onClick={() => show(item)}>
            {item.claim}
          </button>
        ) : (
          <span className="claim-text">{item.claim}</span>
        )}{' '}
        <ClaimSources numbers={item.sources} sources={run.sources} onOpen={onOpenSource} />
      </div>
      {item.corrected && <p className="correction">→ {item.corrected}</p>}
      {item.explanation && <p className="small muted explanation">{item.explanation}</p>}
      {reveal.gone === item.key && (
        <p className="small muted" role="status">
          {t('markGone')}
        </p>
      )}
    </li>
  );
}

function ClaimSources({ numbers, sources, onOpen }: { numbers: number[]; sources: Source[]; onOpen: (s: Source) => void }) {
  const t = useT();
  return numbers.map((n) => {
    const s = sources.find((x) => x.n === n);
    return s ? (
      <button key={n} type="button" className="cite" aria-label={t('sourceN', { n, title: s.title })} onClick={() => onOpen(s)}>
        {n}
      </button>
    ) : null;
  });
}

/** What the report leaves out: claims past the budget, text past what was read, marks a PDF
 * viewer cannot show. */
function ReportNotes({ run, shown }: { run: Run; shown: number }) {
  const t = useT();
  const page = run.mode === 'page';
  const budget = page && run.status !== 'running' && run.gate?.found !== undefined && run.gate.found > shown;
  const readChars = page ? run.gate?.readChars : undefined;
  return (
    <>
      {budget && <p className="small muted">{t('pageBudgetNote', { n: shown })}</p>}
      {readChars !== undefined && <p className="small muted">{t('pageReadCut', { n: readChars.toLocaleString() })}</p>}
      {run.input.page?.pdf && shown > 0 && (
        <p className="muted small" data-testid="marks-pdf">
          {t(page ? 'marksPdfPage' : 'marksPdf')}
        </p>
      )}
    </>
  );
}

/** The corrected text: open for a selection; folded for a page (the whole article). */
export function CorrectedText({ run, onOpenSource, unfinished }: { run: Run; onOpenSource: (s: Source) => void; unfinished?: ReactNode }) {
  const t = useT();
  const text = run.answer || run.corrected;
  if (!text) return null;
  const body = <SafeMarkdown text={text} sources={run.sources} onCite={onOpenSource} />;
  if (run.mode === 'page') {
    const changes = new Set((run.claims ?? []).filter((c) => changesText(c.verdict)).map((c) => c.sentence)).size;
    return (
      <details className="corrected-page" data-testid="corrected">
        <summary>{changes === 1 ? t('correctedTextPageOne') : t('correctedTextPage', { n: changes })}</summary>
        {unfinished}
        {body}
      </details>
    );
  }
  return (
    <section aria-label={t('correctedText')} data-testid="corrected">
      <h3>{t('correctedText')}</h3>
      {unfinished}
      {body}
    </section>
  );
}
