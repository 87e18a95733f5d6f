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
import { clearMarks, countMarks, revealMark, showMarks } from '@/lib/browser/marks';
import { threadStore } from '@/lib/store/threads';
import { marksFromRun, marksFromSteps } from '@/lib/page-marks/from-run';
import { isMarkShowMessage, type PageMark } from '@/lib/page-marks/types';
import { focusClaimItem, panelNoticeItem } from '@/lib/browser/panel-state';
import type { Run } from '@/lib/core/run';
import type { Settings } from '@/lib/settings/schema';
import { pickLanguage } from '@/lib/i18n/messages';
import { withBuiltinDefault } from '@/lib/llm/builtin';
import { keepAliveWhile } from '@/lib/browser/keep-alive';
import { serveRunPorts } from '@/lib/browser/run-ports';
import { routeBuiltinModelOffscreen } from '@/lib/browser/offscreen-language-model';
import { keepLearntCapabilities } from '@/lib/browser/capability-storage';
import { fromExtensionPage } from '@/lib/browser/messaging';
import { hasHostAccess } from '@/lib/browser/host-access';
import { keepMenus } from '@/lib/browser/verify-menu';
import { startReadingAhead } from '@/lib/browser/warm-library';

const VERIFY_MENU_ID = 'ratify-verify';
const CHECK_PAGE_MENU_ID = 'ratify-check-page';

export default defineBackground(() => {
  routeBuiltinModelOffscreen();
  keepLearntCapabilities().catch((e: unknown) => console.warn('Ratify: model capabilities not loaded; they will be learnt again', e));
  const store = runStore();
  // Marks are drawn one drawing at a time per tab (a page check redraws as each verdict lands).
  const drawing = new Map<number, Promise<unknown>>();
  const drawMarks = (run: Run, marks: PageMark[], settings: Settings): Promise<number> => {
    const tabId = run.input.page?.tabId;
    // A PDF viewer cannot be marked (the panel says so instead).
    if (tabId === undefined || run.input.page?.pdf) return Promise.resolve(0);
    const language = pickLanguage(settings.ui.language, browser.i18n.getUILanguage());
    // Pages that cannot be scripted (browser pages, PDFs, the Web Store) just get no marks.
    const next = (drawing.get(tabId) ?? Promise.resolve()).then(() => showMarks(tabId, marks, { language, runId: run.id }).then((r) => r.shown)).catch(() => 0);
    drawing.set(tabId, next);
    return next;
  };
  // Open tabs read ahead of questions, as they load (Settings → Privacy turns it off).
  const warm = startReadingAhead({ settings: loadSettings, hostAccess: hasHostAccess });
  // The browser's on-device model stands in while nothing else is configured.
  const effectiveSettings = async () => withBuiltinDefault(await loadSettings());
  const manager = new RunManager({
    store,
    loadSettings: effectiveSettings,
    execute: createExecutor(async (run, settings) =>
      createBrowserLibrary(settings, {
        // The page a selection came from, or the page being checked, is never evidence for itself.
        checked: run.mode === 'verify' || run.mode === 'page' ? { tabId: run.input.page?.tabId, url: run.input.page?.url } : undefined,
        scope: run.mode === 'ask' ? run.input.scope : undefined,
        // Asked per run: the user may grant or take back access to sites at any time.
        hostAccess: await hasHostAccess(),
        tabs: warm.adapter,
      }),
    ),
    onFinished: (run, settings) => {
      if ((run.mode === 'verify' || run.mode === 'page') && run.status === 'done') void drawMarks(run, marksFromRun(run), settings);
    },
    // A page check marks each sentence as soon as its verdict lands.
    onEvent: (run, event, settings) => {
      if (run.mode === 'page' && (event.type === 'step-verdict' || event.type === 'step-done')) void drawMarks(run, marksFromSteps(run), settings);
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
    // A tab that closed has no address.
    tabUrl: (tabId) => browser.tabs.get(tabId).then((t) => t.url, () => undefined),
    latestPageCheck: (url) => store.latestPageCheck(url),
    showMarks: async (tabId, run, keep) => drawMarks({ ...run, input: { ...run.input, page: { ...(run.input.page ?? { url: '', title: '' }), tabId } } }, marksFromRun(run, keep), await loadSettings()),
    // A tab that closed or cannot be scripted has no mark to show.
    revealMark: (tabId, sentence) => revealMark(tabId, sentence).catch(() => false),
    // A tab that closed or cannot be scripted shows no marks.
    countMarks: (tabId) => countMarks(tabId).catch(() => 0),
    getRun: (id) => store.get(id),
    setActiveRun: (id) => activeRunItem.setValue(id),
    openSource,
    // A tab that closed or navigated has no marks left to clear.
    clearMarks: (tabId) => clearMarks(tabId).catch(() => undefined),
    deleteRun: (id) => store.delete(id),
    putRun: (run) => store.put(run),
    deleteAllData: async () => {
      warm.clear();
      await store.clear();
      await db().pages.clear();
    },
  });

  openPanelOnActionClick();
  keepMenus({ verify: VERIFY_MENU_ID, checkPage: CHECK_PAGE_MENU_ID });

  browser.runtime.onMessage.addListener((msg: unknown, sender, sendResponse: (r: unknown) => void) => {
    // A page mark's "Show in Ratify" (Ratify's own marks script, in the tab's isolated world):
    // only a run and the mark's sentence, and only a run of that very tab is opened.
    if (isMarkShowMessage(msg) && sender.id === browser.runtime.id && sender.tab?.id !== undefined && !fromExtensionPage(sender)) {
      const tab = sender.tab;
      // sidePanel.open must run before any await: it needs the user's click.
      void openPanel(tab.id, tab.windowId);
      void store.get(msg.runId).then(async (run) => {
        if (!run || run.input.page?.tabId !== tab.id) return;
        await activeRunItem.setValue(run.id);
        await focusClaimItem.setValue({ runId: run.id, sentence: msg.sentence, at: Date.now() });
      });
      return false;
    }
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

  /** Check this page from its menu, the toolbar button's menu or the shortcut: started the way the
   * panel starts it; what stops it from starting is shown in the panel. */
  const checkPageOfTab = (tab: Browser.tabs.Tab | undefined) => {
    void openPanel(tab?.id, tab?.windowId);
    void (async () => {
      const reply = await handle({ type: 'run/start', mode: 'page', input: { text: '' }, ...(tab?.id !== undefined ? { pageTabId: tab.id } : {}) });
      if (!reply.ok) return panelNoticeItem.setValue({ code: reply.error.code, message: reply.error.message, at: Date.now() });
      const run = reply.value as Run;
      keepAliveWhile(() => manager.isActive(run.id));
    })();
  };

  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === VERIFY_MENU_ID) verifyFromTab(tab, info.selectionText ?? '');
    if (info.menuItemId === CHECK_PAGE_MENU_ID) checkPageOfTab(tab);
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === 'verify-selection') verifyFromTab(tab, '');
    if (command === 'check-page') checkPageOfTab(tab);
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
