import { loadPages, loadQuestions, locateGold } from '../bench/retrieval/devset/dataset';
import { createLibrary, clearAnalysisCache } from '../lib/retrieval/library';
import { createMemoryTabs } from '../lib/retrieval/memory-tabs';
import { DEFAULT_SETTINGS } from '../lib/settings/schema';

const part = process.argv[2] ?? 'tune';
const chars = Number(process.argv[3] ?? 600);
const pages = await loadPages();
const byName = new Map(pages.map((p) => [p.name, p]));
const qs = loadQuestions().filter((q) => part === 'all' || q.part === part);
const tabs = createMemoryTabs(pages.map((p, i) => ({ id: i + 1, url: p.url, title: p.page.title, page: p.page })));
clearAnalysisCache();
const lib = createLibrary({ search: DEFAULT_SETTINGS.search, privacy: { ...DEFAULT_SETTINGS.privacy, excludedDomains: [] }, pipeline: { passageChars: chars, passagesPerStep: 5 }, tabs, providers: [] });
await lib.prepare();
let top5 = 0, top1 = 0, len = 0, n = 0;
const byCat = new Map<string, number[]>();
for (const q of qs) {
  const gold = locateGold(q, byName);
  const r = await lib.retrieve({ query: q.question, k: 5 });
  const hit = (p: { url: string; start: number; end: number }) => gold.some((g) => byName.get(g.page)!.url === p.url && p.start < g.end && p.end > g.start);
  // multi-page: every gold page must be hit
  const goldPages = [...new Set(gold.map((g) => g.page))];
  const hitAll = (ps: typeof r.passages) => goldPages.every((gp) => ps.some((p) => hit(p) && p.url === byName.get(gp)!.url));
  const a5 = hitAll(r.passages) ? 1 : 0;
  const a1 = r.passages[0] && hit(r.passages[0]) ? 1 : 0;
  top5 += a5; top1 += a1; n++;
  for (const p of r.passages) len += p.text.length;
  const c = byCat.get(q.category) ?? [0, 0, 0]; c[0] += a5; c[1] += a1; c[2]++; byCat.set(q.category, c);
  if (process.env.V && !a5) console.log('MISS', q.id, q.category, q.question, '→', r.passages.map((p) => p.url.split('.')[0].slice(8)).join(','), 'gold', goldPages.join(','));
}
console.log(`${part} chars=${chars} n=${n} top5 ${(top5 / n).toFixed(3)} top1 ${(top1 / n).toFixed(3)} meanlen ${(len / n / 5).toFixed(0)}`);
for (const [c, v] of byCat) console.log(`  ${c} top5 ${(v[0] / v[2]).toFixed(2)} top1 ${(v[1] / v[2]).toFixed(2)} n=${v[2]}`);
