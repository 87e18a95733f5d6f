import { browser } from 'wxt/browser';
import { capturePage, captureSelection } from '@/lib/browser/page-context';
import { readPolicy } from '@/lib/retrieval/read-policy';
import { openSource } from '@/lib/browser/open-source';
import { loadSettings } from '@/lib/browser/settings-store';
import { openPanelOnActionClick } from '@/lib/browser/side-panel';
import { createHandlers, type HandlerDeps } from '@/lib/runs/handlers';
import { createExecutor } from '@/lib/runs/execute';
import { createBrowserLibrary } from '@/lib/browser/library';
import { RunManager } from '@/lib/runs/run-manager';
import { createRunFeed, type RunFeed } from '@/lib/runs/run-feed';
import { runStore, type RunStore } from '@/lib/store/runs';
import { db } from '@/lib/store/db';
import { createDexiePageCache, pageCacheMaxAgeMs } from '@/lib/store/page-cache';
import { clearMarks, countMarks, revealMark } from '@/lib/browser/marks';
import { threadStore } from '@/lib/store/threads';
import { marksFromRun, marksFromSteps } from '@/lib/page-marks/from-run';
import { withBuiltinDefault } from '@/lib/llm/builtin';
import { keepAliveWhile } from '@/lib/browser/keep-alive';
import { activeRunStorage, serveRunPorts } from '@/lib/browser/run-ports';
import { routeBuiltinModelOffscreen } from '@/lib/browser/offscreen-language-model';
import { keepLearntCapabilities } from '@/lib/browser/capability-storage';
import { hasHostAccess } from '@/lib/browser/host-access';
import { keepMenus } from '@/lib/browser/verify-menu';
import { startReadingAhead } from '@/lib/browser/warm-library';
import { createMarkDrawer, type DrawMarks } from './mark-drawer';
import { answerMessages } from './requests';
import { CHECK_PAGE_MENU_ID, startRunsFromMenusAndShortcuts, VERIFY_MENU_ID } from './start-from-tab';

type Warm = ReturnType<typeof startReadingAhead>;

/** The worker's runs: the pipeline over the user's endpoint, with the open tabs and web search as
 * its library; a finished check marks its page, a page check each sentence as its verdict lands. */
function createRunManager(store: RunStore, warm: Warm, drawMarks: DrawMarks): RunManager {
  const manager: RunManager = new RunManager({
    store,
    // The browser's on-device model stands in while nothing else is configured.
    loadSettings: async () => withBuiltinDefault(await loadSettings()),
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
    onEvent: (run, event, settings) => {
      if (run.mode === 'page' && (event.type === 'step-verdict' || event.type === 'step-done')) void drawMarks(run, marksFromSteps(run), settings);
    },
    // Whoever started it (panel, menu, shortcut, a resumed run), the worker stays up while it runs.
    onLaunch: (run) => keepAliveWhile(() => manager.isActive(run.id)),
  });
  return manager;
}

/** What the request handlers reach of the browser. */
function handlerDeps(o: { manager: RunManager; store: RunStore; feed: RunFeed; warm: Warm; drawMarks: DrawMarks }): HandlerDeps {
  const { manager, store, feed, warm, drawMarks } = o;
  const threads = threadStore();
  const readPage: HandlerDeps['capturePage'] = async (tabId, scope) => {
    const { privacy } = await loadSettings();
    return capturePage(tabId, readPolicy({ privacy, scope, extensionOrigin: browser.runtime.getURL('/').replace(/\/$/, '') }));
  };
  return {
    manager,
    capturePage: readPage,
    // A tab that closed has only the menu's text.
    captureSelection: (tabId, fallbackText) => browser.tabs.get(tabId).then((tab) => captureSelection(tab, fallbackText), () => ({ text: fallbackText })),
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
    setActiveRun: (id) => feed.show(id),
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
  };
}

/** Runs and cached pages older than the retention the user chose go. */
async function expireOldData(store: RunStore): Promise<void> {
  const s = await loadSettings();
  if (s.privacy.retentionDays > 0) await store.deleteOlderThan(Date.now() - s.privacy.retentionDays * 86_400_000);
  await createDexiePageCache(db(), { maxAgeMs: pageCacheMaxAgeMs(s.privacy.retentionDays) }).expire();
}

export default defineBackground(() => {
  routeBuiltinModelOffscreen();
  keepLearntCapabilities().catch((e: unknown) => console.warn('Ratify: model capabilities not loaded; they will be learnt again', e));
  const store = runStore();
  const drawMarks = createMarkDrawer();
  // Open tabs read ahead of questions, as they load (Settings → Privacy turns it off).
  const warm = startReadingAhead({ settings: loadSettings, hostAccess: hasHostAccess });
  const manager = createRunManager(store, warm, drawMarks);
  // Runs the previous worker left unfinished are resumed or marked interrupted.
  const recovered = manager.recover().catch((err: unknown) => {
    // Unreadable stored runs stay as they are; new runs and panels must not wait on them.
    console.error('recovering runs failed', err);
  });
  // The panel follows its runs over one port: a snapshot first, then each change.
  const feed = createRunFeed({ manager, getRun: (id) => store.get(id), activeRun: activeRunStorage, ready: recovered });
  const handle = createHandlers(handlerDeps({ manager, store, feed, warm, drawMarks }));

  openPanelOnActionClick();
  keepMenus({ verify: VERIFY_MENU_ID, checkPage: CHECK_PAGE_MENU_ID });
  answerMessages(handle, (id) => store.get(id));
  startRunsFromMenusAndShortcuts(handle);
  serveRunPorts(feed);
  void expireOldData(store);
});
