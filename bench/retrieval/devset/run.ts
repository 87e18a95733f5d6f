/** The development set from the command line:
 *   npx tsx bench/retrieval/devset/run.ts                  # all three rankers, both parts, writes bench/results/devset.json
 *   npx tsx bench/retrieval/devset/run.ts --part tune [--passage-chars 900] [--overlap 0.25] [--page-spread 2] [--weights '{"titleMatch":1}'] [--hybrid [--dense-weight 0.35]] [--questions] [--pipeline]
 * With --part, only the library (lexical, or with --hybrid the fake server's embeddings fused in)
 * on that part, nothing written: the loop for tuning. --questions lists each question's gold
 * ranks; --pipeline adds the pipeline path (retrieve 2k, refine to k, against retrieve(k)).
 * Without --part: everything, both parts (--lexical-only: no hybrid rows). */
import { loadQuestions } from './dataset';
import { evaluateDevset, type PartChoice } from './evaluate';
import { DEVSET_RESULTS_FILE, formatDevset, formatPipelinePath, runDevsetBench, withFakeEmbeddings } from './report';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);
const chars = arg('passage-chars');
const weights = arg('weights');
const overlap = arg('overlap');
const denseWeight = arg('dense-weight');
const spread = arg('page-spread');
const library = { ...(spread ? { pageSpread: Number(spread) } : {}), ...(overlap ? { passageOverlap: Number(overlap) } : {}), ...(denseWeight ? { denseWeight: Number(denseWeight) } : {}) };
const ranker = { ...(chars ? { passageChars: Number(chars) } : {}), ...(weights ? { weights: JSON.parse(weights) as Record<string, number> } : {}), library };
const part = arg('part') as PartChoice | undefined;

if (part) {
  const opts = { ...ranker, pipeline: flag('pipeline') };
  const e = flag('hybrid') ? await withFakeEmbeddings((embed) => evaluateDevset(part, { ...opts, embed })) : await evaluateDevset(part, opts);
  const m = e.report.all;
  console.log(`${e.ranker} on ${part}: n ${m.n}  top-5 ${m.top5}  top-1 ${m.top1}  MRR ${m.mrr}  all gold pages in top 5 ${m.allPagesAt5}  pages in top 5 ${m.pagesAt5}  chars ${m.charsAt5}  (${e.ms} ms)`);
  for (const [c, x] of Object.entries(e.report.byCategory)) console.log(`  ${c.padEnd(15)} n ${x.n}  top-5 ${x.top5}  top-1 ${x.top1}  MRR ${x.mrr}  all pages@5 ${x.allPagesAt5}`);
  if (flag('questions')) {
    const q = new Map(loadQuestions().map((x) => [x.id, x]));
    for (const r of e.rows) console.log(`  ${r.id} ${r.category.padEnd(14)} shares ${r.sharedWords}  first gold ${String(r.firstGoldRank || '-').padStart(3)}  pages ${JSON.stringify(r.goldPageRanks)}  ${q.get(r.id)?.question}`);
  }
  if (e.path) console.log(formatPipelinePath(e.path));
} else {
  const r = await runDevsetBench({ hybrid: !flag('lexical-only'), ranker });
  console.log(formatDevset(r));
  console.log(`wrote ${DEVSET_RESULTS_FILE}`);
}
