import { useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import { request } from '@/lib/browser/messaging';
import { activeRunItem } from '@/lib/browser/settings-store';
import { pickLanguage } from '@/lib/i18n/messages';
import { isLlmConfigured } from '@/lib/settings/schema';
import { builtinAvailable } from '@/lib/llm/builtin-availability';
import type { RunError } from '@/lib/pipeline/types';
import { AskBox } from '@/components/AskBox';
import { ErrorNotice } from '@/components/ErrorNotice';
import { HistoryList } from '@/components/HistoryList';
import { I18nProvider, useT } from '@/components/i18n';
import { Onboarding } from '@/components/Onboarding';
import { RunView } from '@/components/RunView';
import { useLiveRun } from '@/components/use-live-run';
import { useSettings } from '@/components/use-settings';
import { RequestFailed } from '@/lib/browser/messaging';

export function App() {
  const settings = useSettings();
  const [builtinReady, setBuiltinReady] = useState(false);
  useEffect(() => {
    void builtinAvailable().then(setBuiltinReady);
  }, []);
  const lang = pickLanguage(settings?.ui.language ?? 'auto', browser.i18n?.getUILanguage?.() ?? navigator.language);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return (
    <I18nProvider lang={lang}>
      <Panel configured={settings ? isLlmConfigured(settings) || builtinReady : undefined} />
    </I18nProvider>
  );
}

function useActiveRunId(): [string | null, (id: string | null) => void] {
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    void activeRunItem.getValue().then(setId);
    return activeRunItem.watch((v) => setId(v));
  }, []);
  return [id, (v) => void activeRunItem.setValue(v)];
}

function Panel({ configured }: { configured: boolean | undefined }) {
  const t = useT();
  const [tab, setTab] = useState<'ask' | 'history'>('ask');
  const [runId, setRunId] = useActiveRunId();
  const run = useLiveRun(runId);
  const [requestError, setRequestError] = useState<RunError>();
  const openSettings = () => void browser.runtime.openOptionsPage();

  const act = async (f: () => Promise<unknown>) => {
    setRequestError(undefined);
    try {
      await f();
    } catch (err) {
      setRequestError(err instanceof RequestFailed ? err.error : { code: 'unknown', message: String(err) });
    }
  };

  return (
    <div className="panel">
      <nav className="tabs row spread" aria-label="Ratify">
        <div className="row" role="tablist">
          <button type="button" role="tab" aria-selected={tab === 'ask'} onClick={() => setTab('ask')}>
            {t('tabAsk')}
          </button>
          <button type="button" role="tab" aria-selected={tab === 'history'} onClick={() => setTab('history')}>
            {t('tabHistory')}
          </button>
        </div>
        <button type="button" className="icon" aria-label={t('settings')} title={t('settings')} onClick={openSettings}>
          ⚙
        </button>
      </nav>
      {tab === 'history' ? (
        <HistoryList
          onOpen={(id) => {
            setRunId(id);
            setTab('ask');
          }}
        />
      ) : (
        <main>
          {configured === false && !run && <Onboarding onOpenSettings={openSettings} />}
          {requestError && <ErrorNotice error={requestError} onOpenSettings={openSettings} />}
          {run && (
            <RunView
              run={run}
              actions={{
                onCancel: () => void act(() => request('run/cancel', { id: run.id })),
                onRetry: () => void act(() => request('run/retry', { id: run.id })),
                onAgain: (forceRetrieval) => void act(() => request('run/again', { id: run.id, forceRetrieval })),
                onOpenSource: (s) => void act(() => request('source/open', { url: s.url, tabId: s.tabId, quote: s.quote })),
                onOpenSettings: openSettings,
                onClearMarks: (tabId) => void act(() => request('marks/clear', { tabId })),
              }}
            />
          )}
          <AskBox onAsk={(text) => void act(() => request('run/start', { mode: 'ask', input: { text } }))} />
        </main>
      )}
    </div>
  );
}
