/** The Ask view: the current thread, the welcome card while no model is set up (the question typed
 * meanwhile waits and runs as soon as one is), and the question box with its sources. */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import { request, RequestFailed } from '@/lib/browser/messaging';
import { panelNoticeItem, pendingQuestionItem, type PanelNotice, type PendingQuestion } from '@/lib/browser/panel-state';
import { requestHostAccess } from '@/lib/browser/host-access';
import { NO_SITE_ACCESS } from '@/lib/retrieval/tabs';
import { runStore } from '@/lib/store/runs';
import { threadOf, threadStore } from '@/lib/store/threads';
import type { Run, RunError } from '@/lib/core/run';
import type { LlmSettings } from '@/lib/settings/schema';
import { Composer } from '@/components/Composer';
import { currentRun } from '@/components/current-run';
import { modelName } from '@/components/run-lines';
import { ErrorNotice } from '@/components/ErrorNotice';
import { useT } from '@/components/i18n';
import type { RunActions } from '@/components/RunView';
import { Welcome } from '@/components/setup/Welcome';
import { ThreadView } from '@/components/ThreadView';
import { useLiveRun } from '@/components/use-live-run';
import { StartActions } from '@/components/StartActions';
import { EarlierCheck } from '@/components/EarlierCheck';
import { LiveChecks } from '@/components/LiveChecks';
import type { ClaimFocus } from '@/components/VerifyReport';
import { useEarlierCheck } from './use-earlier-check';
import type { Sources } from './use-sources';
import { unionOrigins, UNKNOWN_ORIGINS } from '@/lib/core/flow';
import type { TextOrigin } from '@/lib/core/run';

const runs = runStore();
const threads = threadStore();

export interface AskViewProps {
  configured: boolean | undefined;
  activeRunId: string | null;
  sources: Sources;
  openSettings(): void;
  saveLlm(llm: LlmSettings): Promise<void>;
  /** Show another run (a page check still running). */
  onOpenRun(id: string): void;
  /** A claim a page mark's "Show in Ratify" asked for. */
  focus?: ClaimFocus & { runId: string };
}

export function AskView({ configured, activeRunId, sources, openSettings, saveLlm, onOpenRun, focus }: AskViewProps) {
  const t = useT();
  // Retry continues a run under its own id: following it again picks up the continued run.
  const [generation, setGeneration] = useState(0);
  const live = useLiveRun(activeRunId, generation);
  const active = useLiveQuery(() => (activeRunId ? runs.get(activeRunId) : undefined), [activeRunId]);
  const known = currentRun(activeRunId, active, live);
  const threadId = known ? threadOf(known) : undefined;
  const threadRuns = useLiveQuery(() => (threadId ? threads.runs(threadId) : Promise.resolve([] as Run[])), [threadId]) ?? [];
  const [text, setText] = useState('');
  const [requestError, setRequestError] = useState<RunError>();
  const [connected, setConnected] = useState<{ model: string; ms: number }>();
  const pending = usePending();
  const notice = useNotice();
  const pageTab = sources.page?.tab;
  const [earlier, lookAgain] = useEarlierCheck(pageTab?.id, pageTab?.url, `${activeRunId}:${known?.status}`);

  const act = async (f: () => Promise<unknown>): Promise<boolean> => {
    setRequestError(undefined);
    try {
      await f();
      return true;
    } catch (err) {
      setRequestError(err instanceof RequestFailed ? err.error : { code: 'unknown', message: String(err) });
      return false;
    }
  };

  const start = (q: { text: string; threadId?: string; pageTabId?: number; asked?: string; origins?: TextOrigin[] }) =>
    act(() =>
      request('run/start', {
        mode: 'ask',
        input: { text: q.text, ...(q.threadId ? { thread: { id: q.threadId } } : {}), scope: sources.scope, ...(q.asked !== undefined ? { asked: q.asked } : {}), ...(q.origins ? { origins: q.origins } : {}) },
        pageTabId: q.pageTabId,
      }),
    );

  /** Check this page: without access to sites the browser's prompt is shown first, inside the
   * click (it is refused after an await); the check reads the page either way it can. */
  const checkPage = () => {
    const tabId = sources.page?.tab.id;
    if (tabId === undefined) return;
    const asked = sources.page?.skip?.startsWith(NO_SITE_ACCESS) ? requestHostAccess().catch(() => false) : Promise.resolve(true);
    void panelNoticeItem.setValue(null);
    void asked.then(() => act(() => request('run/start', { mode: 'page', input: { text: '' }, pageTabId: tabId })));
  };

  // A page check is not a conversation: a question asked meanwhile starts its own thread, and the
  // check goes on (LiveChecks shows it).
  const askThread = known?.mode === 'page' ? undefined : threadId;
  // The thread's answer still being written: a question asked now waits for it and then sees it
  // (asked alongside, it would not), like a message typed while the other side is still talking.
  const busyRun = askThread === undefined ? undefined : [live, ...threadRuns].find((r) => r?.status === 'running' && threadOf(r) === askThread);

  const ask = async (question: string) => {
    const q = { text: question, threadId: askThread, pageTabId: sources.page?.tab.id };
    if (configured === false || busyRun) {
      // No model yet, or an answer to wait for: the question waits (stored, so closing the panel
      // or opening the settings loses nothing).
      await pendingQuestionItem.setValue({ ...q, at: Date.now(), ...(busyRun ? { after: busyRun.id } : {}) });
      setText('');
      return;
    }
    setConnected(undefined);
    if (await start(q)) setText('');
  };

  // Set up at last, and the answer it waited for finished: the waiting question runs, once.
  const waitsFor = pending?.after ? [live, ...threadRuns].find((r) => r?.id === pending.after) : undefined;
  const waiting = waitsFor?.status === 'running';
  const ran = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!configured || !pending || waiting || ran.current === pending.at) return;
    ran.current = pending.at;
    void pendingQuestionItem.setValue(null).then(() => start(pending));
  }, [configured, pending, waiting]); // start() is read fresh on purpose: the sources chosen now apply

  const actionsFor = (run: Run): RunActions => ({
    onCancel: () => void act(() => request('run/cancel', { id: run.id })),
    onRetry: () => void act(() => request('run/retry', { id: run.id })).then((ok) => ok && setGeneration((g) => g + 1)),
    onAgain: (forceRetrieval) => void act(() => request('run/again', { id: run.id, forceRetrieval })),
    onOpenSource: (s) => void act(() => request('source/open', { url: s.url, tabId: s.tabId, quote: s.quote, page: s.page })),
    onOpenSettings: openSettings,
    onClearMarks: (tabId) => void act(() => request('marks/clear', { tabId })),
    countMarks: (tabId) => request('marks/count', { tabId }),
    onRevealClaim: (tabId, sentence) => request('marks/reveal', { tabId, sentence }).catch(() => false),
    // The user says how the question is meant: this run is replaced by one that asks exactly that.
    onAskUnderstood: (understood) =>
      void act(async () => {
        await request('runs/delete', { id: run.id });
        // The rewrite keeps the origins of the call that wrote it: only what the user typed counts
        // as typed (lib/core/flow.ts).
        await start({ text: understood, threadId: threadOf(run), pageTabId: run.input.page?.tabId, asked: run.input.asked ?? run.input.text, origins: unionOrigins(run.input.origins, run.gate?.origins ?? UNKNOWN_ORIGINS) });
      }),
  });

  return (
    <>
      {requestError && <ErrorNotice error={requestError} onOpenSettings={openSettings} />}
      {notice && (
        <div className="notice-wrap">
          <ErrorNotice error={{ code: notice.code, message: notice.message }} onOpenSettings={openSettings} />
          <button type="button" className="link small" onClick={() => void panelNoticeItem.setValue(null)}>
            {t('discard')}
          </button>
        </div>
      )}
      <LiveChecks except={activeRunId} onOpen={onOpenRun} />
      {earlier && pageTab && (
        <EarlierCheck
          earlier={earlier}
          onShow={() =>
            void act(() => request('page/show-earlier', { runId: earlier.runId, tabId: pageTab.id })).then((ok) => {
              if (ok) onOpenRun(earlier.runId);
              lookAgain();
            })
          }
          onCheckAgain={checkPage}
        />
      )}
      {activeRunId && <ThreadView runs={threadRuns} live={live} actionsFor={actionsFor} focus={focus} />}
      {!activeRunId && configured && !pending && <StartActions page={sources.page} onCheckPage={checkPage} onSummarize={() => void ask(t('summarizeQuestion'))} />}
      {pending && (
        <section className="notice pending" data-testid="pending" aria-labelledby="pending-title">
          <h2 id="pending-title" className="notice-title">
            {configured !== false && pending.after ? t('pendingAfterTitle') : t('pendingTitle')}
          </h2>
          <p className="run-input" data-testid="run-input">
            {pending.text}
          </p>
          <p className="small">{configured === false ? t('pendingBody') : waiting ? t('pendingAfterBody') : t('running')}</p>
          <button type="button" onClick={() => void pendingQuestionItem.setValue(null)}>
            {t('discard')}
          </button>
        </section>
      )}
      {configured === false && (
        <Welcome
          onSave={async (llm, ms) => {
            await saveLlm(llm);
            setConnected({ model: modelName(t, llm.model) ?? llm.model, ms: ms ?? 0 });
          }}
          onOpenSettings={openSettings}
        />
      )}
      {connected && configured && (
        <p className="notice notice-ok small" role="status" data-testid="setup-saved">
          {t('connectedSaved', connected)}
        </p>
      )}
      <Composer
        text={text}
        onText={setText}
        onAsk={(q) => void ask(q)}
        scope={sources.choice}
        onScope={sources.setChoice}
        tabs={sources.tabs}
        page={sources.page}
        plan={sources.plan}
        chosen={sources.chosen}
        onChosen={sources.setChosen}
      />
    </>
  );
}

/** A check the page's menu or the shortcut could not start (shown until dismissed or a minute). */
function useNotice(): PanelNotice | null {
  const [n, setN] = useState<PanelNotice | null>(null);
  useEffect(() => {
    void panelNoticeItem.getValue().then(setN);
    return panelNoticeItem.watch(setN);
  }, []);
  return n && Date.now() - n.at < 60_000 ? n : null;
}

function usePending(): PendingQuestion | null {
  const [p, setP] = useState<PendingQuestion | null>(null);
  useEffect(() => {
    void pendingQuestionItem.getValue().then(setP);
    return pendingQuestionItem.watch(setP);
  }, []);
  return p;
}
