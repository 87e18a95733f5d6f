/** Scale: many large open tabs. Pages are built from real Wikipedia paragraphs (HotpotQA) into
 * ~50 KB articles with section headings; the tabs adapter is in memory, so the figures are the
 * library's own work: cutting, tokenizing, indexing and querying. */
import { createLibrary, clearAnalysisCache } from '../../lib/retrieval/library';
import { createMemoryTabs, type MemoryTab } from '../../test/harness/memory-tabs';
import { hashText } from '../../lib/core/text';
import { createMemoryPageCache } from '../../lib/store/page-cache';
import { DEFAULT_SETTINGS } from '../../lib/settings/schema';
import type { BenchExample } from './format';

export interface ScaleReport {
  tabs: number;
  charsPerTab: number;
  passages: number;
  /** Cutting + tokenizing + indexing every tab, nothing cached. */
  coldBuildMs: number;
  /** A new run over the same unchanged tabs (page cache and analyses warm). */
  cachedBuildMs: number;
  queries: number;
  queryP50Ms: number;
  queryP95Ms: number;
}

export function syntheticTabs(examples: BenchExample[], tabs = 100, charsPerTab = 50_000): MemoryTab[] {
  const paras = examples.flatMap((e) => e.documents.map((d) => ({ title: d.title, text: d.text })));
  const out: MemoryTab[] = [];
  let p = 0;
  for (let t = 0; t < tabs; t++) {
    const lines: string[] = [];
    const headings: { level: number; text: string; offset: number }[] = [];
    let len = 0;
    while (len < charsPerTab) {
      const para = paras[p++ % paras.length]!;
      if (lines.length % 6 === 0) {
        headings.push({ level: 2, text: para.title, offset: len });
        lines.push(para.title);
        len += para.title.length + 1;
      }
      lines.push(para.text);
      len += para.text.length + 1;
    }
    const text = lines.join('\n');
    const url = `https://scale.invalid/page/${t}`;
    out.push({ id: t + 1, url, title: `Scale page ${t}`, page: { url, hash: hashText(text), title: `Scale page ${t}`, text, headings } });
  }
  return out;
}

const pct = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

export async function runScale(examples: BenchExample[], opts: { tabs?: number; charsPerTab?: number; queries?: number } = {}): Promise<ScaleReport> {
  const tabs = syntheticTabs(examples, opts.tabs ?? 100, opts.charsPerTab ?? 50_000);
  const adapter = createMemoryTabs(tabs);
  const cache = createMemoryPageCache(1000);
  const settings = {
    search: DEFAULT_SETTINGS.search,
    privacy: { ...DEFAULT_SETTINGS.privacy, excludedDomains: [] },
    pipeline: { passageChars: DEFAULT_SETTINGS.pipeline.passageChars, passagesPerStep: 4 },
    tabs: adapter,
    providers: [],
    cache,
  };
  clearAnalysisCache();
  let t0 = performance.now();
  const cold = createLibrary(settings);
  await cold.prepare();
  const passages = cold.size;
  const coldBuildMs = performance.now() - t0;

  t0 = performance.now();
  const warm = createLibrary(settings);
  await warm.prepare();
  void warm.size; // forces the index to be complete
  const cachedBuildMs = performance.now() - t0;

  const qs = examples.slice(0, opts.queries ?? 200).map((e) => e.query);
  const times: number[] = [];
  for (const q of qs) {
    const t = performance.now();
    await warm.retrieve({ query: q, k: 8 });
    times.push(performance.now() - t);
  }
  return {
    tabs: tabs.length,
    charsPerTab: opts.charsPerTab ?? 50_000,
    passages,
    coldBuildMs: Math.round(coldBuildMs),
    cachedBuildMs: Math.round(cachedBuildMs),
    queries: qs.length,
    queryP50Ms: r1(pct(times, 0.5)),
    queryP95Ms: r1(pct(times, 0.95)),
  };
}
