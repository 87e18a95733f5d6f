import { browser, type Browser } from 'wxt/browser';
import { isRequest } from '@/lib/runs/messages';
import { capturePage, captureSelection } from '@/lib/browser/page-context';
import { readPolicy } from '@/lib/retrieval/read-policy';
import type { PageContext } from '@/lib/core/run';
import { openSource } from '@/lib/browser/open-source';
import { activeRunItem, loadSettings } from '@/lib/browser/settings-store';
import { openPanel, openPanelOnActionClick } from '@/lib/browser/side-panel';
import { createHandlers } from '@/lib/runs/handlers';
import { createExecutor } from '@/lib/runs/execute';
import { createBrowserLibrary } from '@/lib/browser/library';
import { RunManager } from '@/lib/runs/run-manager';
import { runStore } from '@/lib/store/runs';
import { db } from '@/lib/store/db';
import { createDexiePageCache, pageCacheMaxAgeMs } from '@/lib/store/page-cache';
import { clearMarks, countMarks, showMarks } from '@/lib/browser/marks';
import { threadStore } from '@/lib/store/threads';
import { marksFromRun } from '@/lib/page-marks/from-run';
import { pickLanguage } from '@/lib/i18n/messages';
import { withBuiltinDefault } from '@/lib/llm/builtin';
import { keepAliveWhile } from '@/lib/browser/keep-alive';
import { serveRunPorts } from '@/lib/browser/run-ports';
import { routeBuiltinModelOffscreen } from '@/lib/browser/offscreen-language-model';
import { keepLearntCapabilities } from '@/lib/browser/capability-storage';
import { fromExtensionPage } from '@/lib/browser/messaging';
import { hasHostAccess } from '@/lib/browser/host-access';
import { startReadingAhead } from '@/lib/browser/warm-library';

const VERIFY_MENU_ID = 'ratify-verify';

export default defineBackground(() => {
  routeBuiltinModelOffscreen();
  keepLearntCapabilities().catch((e: unknown) => console.warn('Ratify: model capabilities not loaded; they will be learnt again', e));
  const store = runStore();
  // Open tabs read ahead of questions, as they load (Settings → Privacy turns it off).
  const warm = startReadingAhead({ settings: loadSettings, hostAccess: hasHostAccess });
  // The browser's on-device model stands in while nothing else is configured.
  const effectiveSettings = async () => withBuiltinDefault(await loadSettings());
  const manager = new RunManager({
    store,
    loadSettings: effectiveSettings,
    execute: createExecutor(async (run, settings) =>
      createBrowserLibrary(settings, {
        // In verify mode the page the selection came from is never evidence for itself.
        checked: run.mode === 'verify' ? { tabId: run.input.page?.tabId, url: run.input.page?.url } : undefined,
        scope: run.mode === 'ask' ? run.input.scope : undefined,
        // Asked per run: the user may grant or take back access to sites at any time.
        hostAccess: await hasHostAccess(),
        tabs: warm.adapter,
      }),
    ),
    onFinished: (run, settings) => {
      const tabId = run.input.page?.tabId;
      // A PDF viewer cannot be marked (the panel says so instead).
      if (run.mode !== 'verify' || run.status !== 'done' || tabId === undefined || run.input.page?.pdf) return;
      const language = pickLanguage(settings.ui.language, browser.i18n.getUILanguage());
      // Pages that cannot be scripted (browser pages, PDFs, the Web Store) just get no marks.
      void showMarks(tabId, marksFromRun(run), { language }).catch(() => undefined);
    },
  });
  const threads = threadStore();
  const handle = createHandlers({
    manager,
    capturePage: async (tabId, scope) => {
      const { privacy } = await loadSettings();
      return capturePage(tabId, readPolicy({ privacy, scope, extensionOrigin: browser.runtime.getURL('/').replace(/\/$/, '') }));
    },
    threadTurns: (id) => threads.turns(id),
    threadRunIds: (id) => threads.runIds(id),
    // A tab that closed or cannot be scripted shows no marks.
    countMarks: (tabId) => countMarks(tabId).catch(() => 0),
    getRun: (id) => store.get(id),
    setActiveRun: (id) => activeRunItem.setValue(id),
    openSource,
    // A tab that closed or navigated has no marks left to clear.
    clearMarks: (tabId) => clearMarks(tabId).catch(() => undefined),
    deleteRun: (id) => store.delete(id),
    deleteAllData: async () => {
      warm.clear();
      await store.clear();
      await db().pages.clear();
    },
  });

  openPanelOnActionClick();
  void browser.contextMenus.removeAll().then(() =>
    browser.contextMenus.create({ id: VERIFY_MENU_ID, title: browser.i18n.getMessage('verifyMenu') || 'Verify with RAT', contexts: ['selection'] }),
  );

  browser.runtime.onMessage.addListener((msg: unknown, sender, sendResponse: (r: unknown) => void) => {
    // Only the extension's own pages may drive runs; a content script in a tab gets no answer.
    if (!fromExtensionPage(sender) || !isRequest(msg)) return false;
    void handle(msg).then(sendResponse);
    return true; // answer asynchronously
  });

  const verifyFromTab = (tab: Browser.tabs.Tab | undefined, selectionText: string) => {
    // sidePanel.open must run before any await: it needs the user gesture.
    void openPanel(tab?.id, tab?.windowId);
    void (async () => {
      const captured: { text: string; page?: PageContext; hiddenSentences?: number } = tab ? await captureSelection(tab, selectionText) : { text: selectionText };
      const run = await manager.start('verify', { text: captured.text, page: captured.page, ...(captured.hiddenSentences ? { hiddenSentences: captured.hiddenSentences } : {}) });
      await activeRunItem.setValue(run.id);
      keepAliveWhile(() => manager.isActive(run.id));
    })();
  };

  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === VERIFY_MENU_ID) verifyFromTab(tab, info.selectionText ?? '');
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === 'verify-selection') verifyFromTab(tab, '');
  });

  // Runs the previous worker left unfinished are resumed or marked interrupted; old runs expire.
  const recovered = manager.recover().then(
    (runs) => runs.forEach((r) => manager.isActive(r.id) && keepAliveWhile(() => manager.isActive(r.id))),
    // Unreadable stored runs stay as they are; new runs and panels must not wait on them.
    (err: unknown) => console.error('recovering runs failed', err),
  );
  // A panel follows a run over a port: a snapshot first, then each event.
  serveRunPorts({ manager, getRun: (id) => store.get(id), ready: recovered });
  void loadSettings().then(async (s) => {
    if (s.privacy.retentionDays > 0) await store.deleteOlderThan(Date.now() - s.privacy.retentionDays * 86_400_000);
    await createDexiePageCache(db(), { maxAgeMs: pageCacheMaxAgeMs(s.privacy.retentionDays) }).expire();
  });
});
