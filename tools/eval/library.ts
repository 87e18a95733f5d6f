/** The library of one evaluation example, built the way the extension builds it: the example's
 * documents become open tabs of lib/retrieval's library (the shipped passage cutter, ranker and
 * dedupe); a document given as HTML is read with Readability first, as the tab reader does. */
import { createLibrary, type RatifyLibrary } from '../../lib/retrieval/library';
import { createMemoryTabs } from '../../test/harness/memory-tabs';
import { createNodePageReader } from '../../lib/retrieval/node-reader';
import type { ReadablePage } from '../../lib/retrieval/page';
import { hashText } from '../../lib/core/text';
import type { MemoryDoc } from '../../test/harness/memory-library';
import { DEFAULT_SETTINGS, type PipelineSettings } from '../../lib/settings/schema';

/** How `npm run eval` builds each example's library, in one line for its output. */
export const EVAL_LIBRARY = 'lib/retrieval createLibrary: documents as open tabs (Readability where a document has HTML), shipped passages, ranking and dedupe';

const reader = createNodePageReader();

async function readDoc(d: MemoryDoc): Promise<ReadablePage> {
  if (d.html) {
    const page = await reader.read(d.html, d.url);
    return { ...page, title: page.title || d.title };
  }
  return { url: d.url, hash: hashText(d.text), title: d.title, text: d.text, headings: [], lang: d.lang };
}

export function evalLibrary(docs: MemoryDoc[], settings: Pick<PipelineSettings, 'passageChars' | 'passagesPerStep'>): RatifyLibrary {
  const tabs = createMemoryTabs(docs.map((d, i) => ({ id: i + 1, url: d.url, title: d.title })));
  const read = tabs.read.bind(tabs);
  return createLibrary({
    search: DEFAULT_SETTINGS.search,
    privacy: { ...DEFAULT_SETTINGS.privacy, excludedDomains: [] },
    pipeline: settings,
    providers: [],
    tabs: {
      ...tabs,
      // The document's text (or its HTML read with Readability) stands for the tab's page.
      read: async (tab, o) => {
        const d = docs[tab.id - 1];
        if (!d) return read(tab, o);
        return { kind: 'page', page: await readDoc(d) };
      },
    },
  });
}
