import { readFileSync } from 'node:fs';
import { createLibrary } from '../lib/retrieval/library';
import { createMemoryTabs } from '../lib/retrieval/memory-tabs';
import { createNodePageReader } from '../lib/retrieval/node-reader';
import { DEFAULT_SETTINGS } from '../lib/settings/schema';
const reader = createNodePageReader();
const pages = await Promise.all(['louvre', 'eiffel-tower', 'mount-fuji'].map((n) => reader.read(readFileSync(`test/fixtures/site/articles/${n}.html`, 'utf8'), `http://127.0.0.1:8765/articles/${n}.html`)));
const lib = createLibrary({ search: DEFAULT_SETTINGS.search, privacy: { ...DEFAULT_SETTINGS.privacy, excludedDomains: [] }, pipeline: DEFAULT_SETTINGS.pipeline, tabs: createMemoryTabs(pages.map((page, i) => ({ id: i + 1, url: page.url, title: page.title, page }))), providers: [] });
for (const q of ['glass pyramid entrance inaugurated', 'glass pyramid entrance inaugurated || pyramide de verre inaugurée']) {
  const r = await lib.retrieve({ query: q, k: 4 });
  console.log(q, r.passages.map((p) => `${p.url.slice(-20)}: ${p.text.slice(0, 80)}`));
}
