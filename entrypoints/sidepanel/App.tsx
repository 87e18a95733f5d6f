import { useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import { request } from '@/lib/browser/messaging';
import { loadSettings, saveSettings } from '@/lib/browser/settings-store';
import { focusClaimItem, type FocusClaim } from '@/lib/browser/panel-state';
import { pickLanguage } from '@/lib/i18n/messages';
import { isLlmConfigured, type LlmSettings } from '@/lib/settings/schema';
import { builtinAvailable } from '@/lib/llm/builtin-availability';
import { HistoryList } from '@/components/HistoryList';
import { I18nProvider, useT } from '@/components/i18n';
import { TabList } from '@/components/Tabs';
import { useSettings } from '@/components/use-settings';
import { panelRuns, usePanelRuns } from '@/components/panel-runs';
import { AskView } from './AskView';
import { useSources } from './use-sources';

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
  const sources = useSources(settings);
  return (
    <I18nProvider lang={lang}>
      <Panel configured={settings ? isLlmConfigured(settings) || builtinReady : undefined} sources={sources} />
    </I18nProvider>
  );
}

/** A page mark's "Show in Ratify": the worker makes its run the active one and names the claim. */
function useFocusClaim(onFocus: () => void): FocusClaim | undefined {
  const [f, setF] = useState<FocusClaim>();
  useEffect(() => {
    const take = (v: FocusClaim | null) => {
      // Only a recent request: an old one must not move the panel when it opens next time.
      if (!v || Date.now() - v.at > 30_000) return;
      setF(v);
      onFocus();
    };
    void focusClaimItem.getValue().then(take);
    return focusClaimItem.watch(take);
  }, []);
  return f;
}

/** Saving an endpoint from the welcome card: the other settings stay as they are. */
async function saveLlm(llm: LlmSettings): Promise<void> {
  const s = await loadSettings();
  await saveSettings({ ...s, llm });
}

type View = 'ask' | 'history';

function Panel({ configured, sources }: { configured: boolean | undefined; sources: ReturnType<typeof useSources> }) {
  const t = useT();
  const [view, setView] = useState<View>('ask');
  // The worker decides which run the panel shows; the panel asks it (panelRuns.show).
  const runId = usePanelRuns().activeRunId;
  const focus = useFocusClaim(() => setView('ask'));
  const openSettings = () => void browser.runtime.openOptionsPage();
  const openRun = (id: string | null) => void panelRuns.show(id);
  const newThread = () => {
    openRun(null);
    setView('ask');
    requestAnimationFrame(() => document.getElementById('ask-input')?.focus());
  };
  useEffect(() => {
    // Alt+N: a new thread from anywhere in the panel (e.code: Option+N types a character on macOS).
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyN') {
        e.preventDefault();
        newThread();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <div className="panel">
      <header className="panel-head row spread">
        <h1 className="brand">{t('appName')}</h1>
        <TabList<View>
          label={t('tabsLabel')}
          tabs={[
            { id: 'ask', label: t('tabAsk') },
            { id: 'history', label: t('tabHistory') },
          ]}
          selected={view}
          onSelect={setView}
        />
        <div className="row head-actions">
          <button type="button" onClick={newThread} aria-keyshortcuts="Alt+N" title={`${t('newThread')} (Alt+N)`}>
            {t('newThread')}
          </button>
          <button type="button" className="icon" aria-label={t('settings')} title={t('settings')} onClick={openSettings}>
            <span aria-hidden="true">⚙</span>
          </button>
        </div>
      </header>
      <main>
        <div role="tabpanel" id="ask-panel" aria-labelledby="ask-tab" hidden={view !== 'ask'}>
          <AskView
            configured={configured}
            sources={sources}
            openSettings={openSettings}
            saveLlm={saveLlm}
            onOpenRun={openRun}
            focus={focus && focus.runId === runId ? focus : undefined}
          />
        </div>
        {view === 'history' && (
          <div role="tabpanel" id="history-panel" aria-labelledby="history-tab">
            <HistoryList
              onOpen={(id) => {
                openRun(id);
                setView('ask');
              }}
              onDelete={(id) =>
                request('threads/delete', { id }).catch((e: unknown) => {
                  console.warn('Ratify: deleting the thread failed', e);
                  return [];
                })
              }
              onRestore={(runs) => request('runs/restore', { runs })}
              onClearAll={() => void request('data/delete-all', {})}
            />
          </div>
        )}
      </main>
    </div>
  );
}
