/** Retrieval benchmark CLI:
 *   npx tsx bench/retrieval/run.ts [--data file.jsonl] [--format hotpot|generic] [--limit N]
 *                                  [--pages DIR] [--no-fidelity] [--no-scale]
 * Prints the figures and writes bench/results/retrieval.json. The generic JSONL format is
 * documented in ./format.ts. */
import { RESULTS_FILE, runRetrievalBenchmark } from './benchmark';
import type { RecallMetrics } from './recall';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const format = arg('format');
const r = await runRetrievalBenchmark({
  data: arg('data'),
  format: format === 'hotpot' || format === 'generic' ? format : undefined,
  limit: Number(arg('limit') ?? 0),
  pages: arg('pages'),
  fidelity: !flag('no-fidelity'),
  scale: !flag('no-scale'),
});

const row = (name: string, m: RecallMetrics) =>
  console.log(`  ${name.padEnd(14)} recall@2 ${m.recallAt2.toFixed(3)}  recall@5 ${m.recallAt5.toFixed(3)}  both-gold@2 ${m.allGoldAt2.toFixed(3)}  MRR ${m.mrr.toFixed(3)}`);
console.log(`recall on ${r.data} (${r.examples} examples, lexical only, no LLM; ${r.recall.ms} ms)`);
console.log(`  targets        recall@2 ≥ ${r.targets.recallAt2}, recall@5 ≥ ${r.targets.recallAt5}, both-gold@2 after two rounds ≥ ${r.targets.allGoldAt2TwoRounds}`);
row('one round', r.recall.oneRound);
row('two rounds', r.recall.twoRounds);
if (Object.keys(r.recall.byType).length > 1) {
  for (const [type, m] of Object.entries(r.recall.byType)) {
    row(`${type} (1)`, m.oneRound);
    row(`${type} (2)`, m.twoRounds);
  }
}
if (r.fidelity) {
  const f = r.fidelity;
  console.log(`extraction fidelity on ${f.pages} real pages (token F1 vs expected.html): mean ${f.meanF1}, median ${f.medianF1}, F1 ≥ 0.9 on ${f.atLeast90}/${f.pages}; ${f.msPerPage} ms/page`);
  console.log(`  lowest: ${f.worst.map((w) => `${w.name} ${w.f1}`).join(', ')}`);
}
if (r.scale) {
  const s = r.scale;
  console.log(`scale: ${s.tabs} tabs × ${s.charsPerTab / 1000} KB = ${s.passages} passages`);
  console.log(`  index build cold ${s.coldBuildMs} ms (≤ ${r.targets.coldBuildMs}), from cache ${s.cachedBuildMs} ms (≤ ${r.targets.cachedBuildMs}); query p50 ${s.queryP50Ms} ms, p95 ${s.queryP95Ms} ms (≤ ${r.targets.queryP95Ms}) over ${s.queries} queries`);
}
console.log(`wrote ${RESULTS_FILE}`);
