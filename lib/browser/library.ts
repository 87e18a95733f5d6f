/** The library as the extension builds it: real tabs, the offscreen/DOM page reader, the IndexedDB
 * page cache, providers from the settings. One call per run in the worker. */
import type { Settings } from '../settings/schema';
import { createLibrary, type EmbedFn, type RatifyLibrary } from '../retrieval/library';
import { db } from '../store/db';
import { createDexiePageCache } from '../store/page-cache';
import { createBrowserPageReader } from './offscreen-reader';
import { createBrowserTabsAdapter } from './tabs-adapter';

export interface BrowserLibraryOptions {
  /** Verify mode: the tab and URL the selection came from (never evidence for itself). */
  origin?: { tabId?: number; url?: string };
  /** Dense ranking, e.g. (texts, signal) => llm.embed(texts, signal) when an embeddings model is set. */
  embed?: EmbedFn;
}

export function createBrowserLibrary(settings: Settings, opts: BrowserLibraryOptions = {}): RatifyLibrary {
  return createLibrary({
    search: settings.search,
    privacy: settings.privacy,
    pipeline: settings.pipeline,
    tabs: createBrowserTabsAdapter(),
    reader: createBrowserPageReader(),
    cache: createDexiePageCache(db()),
    embed: opts.embed,
    origin: opts.origin,
  });
}
