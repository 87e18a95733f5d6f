/** The library as the extension builds it: real tabs, the offscreen/DOM page reader, the IndexedDB
 * page cache, providers from the settings. One call per run in the worker. */
import type { SourceScope } from '../core/run';
import type { Settings } from '../settings/schema';
import { endpointEmbeddings } from '../retrieval/endpoint-embeddings';
import { createLibrary, type RatifyLibrary } from '../retrieval/library';
import { db } from '../store/db';
import { createDexieEmbeddingStore } from '../store/embedding-cache';
import { createDexiePageCache, pageCacheMaxAgeMs } from '../store/page-cache';
import { createBrowserPageReader } from './offscreen-reader';
import { withPdfTabs } from '../retrieval/pdf-tabs';
import { createBrowserTabsAdapter } from './tabs-adapter';
import type { TabsAdapter } from '../retrieval/tabs';

export interface BrowserLibraryOptions {
  /** Verify mode: the tab and URL the selection came from (never evidence for itself). */
  checked?: { tabId?: number; url?: string };
  /** The sources chosen in the panel for this question (default: the settings). */
  scope?: SourceScope;
  /** Whether the user granted access to sites (lib/browser/host-access.ts), checked per run. */
  hostAccess: boolean;
  /** The worker's tabs read ahead (lib/browser/warm-library.ts); default: read at question time. */
  tabs?: TabsAdapter;
}

export function createBrowserLibrary(settings: Settings, opts: BrowserLibraryOptions): RatifyLibrary {
  const reader = createBrowserPageReader();
  return createLibrary({
    // What may be read is decided by lib/retrieval/read-policy.ts from the scope and settings.
    scope: opts.scope,
    search: settings.search,
    privacy: settings.privacy,
    pipeline: settings.pipeline,
    // PDF tabs are fetched and read with pdf.js (the viewer cannot be scripted).
    tabs: opts.tabs ?? withPdfTabs(createBrowserTabsAdapter(), { fetch: (input, init) => fetch(input, init), reader }),
    reader,
    cache: createDexiePageCache(db(), { maxAgeMs: pageCacheMaxAgeMs(settings.privacy.retentionDays) }),
    // Dense ranking wherever the endpoint offers embeddings (the settings name the model, or it
    // is found in the endpoint's model list); vectors persist in IndexedDB.
    ...endpointEmbeddings(settings.llm),
    embeddingStore: createDexieEmbeddingStore(db()),
    checked: opts.checked,
    hostAccess: opts.hostAccess,
  });
}
