/** The Ask view: the current thread, the welcome card while no model is set up (the question typed
 * meanwhile waits and runs as soon as one is), and the question box with its sources. The runs it
 * shows come from the panel's one store (components/panel-runs.ts); the thread's earlier,
 * finished answers from IndexedDB. */
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { request } from '@/lib/browser/messaging';
import { panelNoticeItem, pendingQuestionItem, type PanelNotice, type PendingQuestion } from '@/lib/browser/panel-state';
import { activeRun, type PanelRuns } from '@/lib/runs/panel-runs';
import { threadOf, threadStore } from '@/lib/store/threads';
import type { Run, RunError } from '@/lib/core/run';
import type { LlmSettings } from '@/lib/settings/schema';
import { Composer } from '@/components/Composer';
import { modelName } from '@/components/run-lines';
import { ErrorNotice } from '@/components/ErrorNotice';
import { useT } from '@/components/i18n';
import { Welcome } from '@/components/setup/Welcome';
import { ThreadView } from '@/components/ThreadView';
import { usePanelRuns } from '@/components/panel-runs';
import { otherLiveChecks, threadRuns } from '@/components/thread-runs';
import { StartActions } from '@/components/StartActions';
import { EarlierCheck } from '@/components/EarlierCheck';
import { LiveChecks } from '@/components/LiveChecks';
import type { ClaimFocus } from '@/components/VerifyReport';
import { useEarlierCheck } from './use-earlier-check';
import type { Sources } from './use-sources';
import { useAct } from './use-act';
import { checkThisPage, useAsk } from './use-ask';
import { runActions } from './run-actions';
import { useNotice } from './use-stored';

const threads = threadStore();

export interface AskViewProps {
  configured: boolean | undefined;
  sources: Sources;
  openSettings: () => void;
  saveLlm: (llm: LlmSettings) => Promise<void>;
  /** Show another run (a page check still running, an earlier check). */
  onOpenRun: (id: string) => void;
  /** A claim a page mark's "Show in Ratify" asked for. */
  focus?: ClaimFocus & { runId: string };
}

/** The runs of the thread the panel shows: its stored runs, read from IndexedDB, composed with the
 * store's copies (components/thread-runs.ts). */
function useShownThread(panel: PanelRuns): Run[] {
  const active = activeRun(panel);
  const threadId = active ? threadOf(active) : undefined;
  const stored = useLiveQuery(() => (threadId ? threads.runs(threadId) : Promise.resolve([] as Run[])), [threadId]) ?? [];
  return threadRuns(stored, panel);
}

export function AskView({ configured, sources, openSettings, saveLlm, onOpenRun, focus }: AskViewProps) {
  const t = useT();
  const panel = usePanelRuns();
  const shown = useShownThread(panel);
  const [text, setText] = useState('');
  const [connected, setConnected] = useState<{ model: string; ms: number }>();
  const { error, act } = useAct();
  const asking = useAsk({ configured, sources, act, panel });
  const pageTab = sources.page?.tab;
  const [earlier, lookAgain] = useEarlierCheck(pageTab?.id, pageTab?.url, `${panel.activeRunId}:${activeRun(panel)?.status}`);
  const checkPage = () => checkThisPage(sources, act);
  const ask = async (question: string) => {
    const started = await asking.ask(question);
    if (started !== 'waits') setConnected(undefined);
    if (started) setText('');
  };

  return (
    <>
      <Notices requestError={error} notice={useNotice()} openSettings={openSettings} />
      <LiveChecks checks={otherLiveChecks(panel)} onOpen={onOpenRun} />
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
      {panel.activeRunId && <ThreadView runs={shown} actionsFor={(run) => runActions(run, { act, ask: asking.start, openSettings })} focus={focus} />}
      {!panel.activeRunId && configured && !asking.pending && <StartActions page={sources.page} onCheckPage={checkPage} onSummarize={() => void ask(t('summarizeQuestion'))} />}
      {asking.pending && <PendingCard pending={asking.pending} configured={configured} waiting={asking.waiting} />}
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

/** A request that failed, and a check the page's menu or the shortcut could not start. */
function Notices({ requestError, notice, openSettings }: { requestError?: RunError; notice: PanelNotice | null; openSettings: () => void }) {
  const t = useT();
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
    </>
  );
}

/** The question that waits: for a model to be set up, or for the answer before it. */
function PendingCard({ pending, configured, waiting }: { pending: PendingQuestion; configured: boolean | undefined; waiting: boolean }) {
  const t = useT();
  return (
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
  );
}
