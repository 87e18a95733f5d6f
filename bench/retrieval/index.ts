/** The retrieval benchmark as functions (bench/external.ts calls runRetrievalBenchmark). */
export { runRetrievalBenchmark, type RetrievalBenchOptions, type RetrievalBenchResult } from './benchmark';
export { loadBench, loadHotpot, fromHotpot, readJsonl, type BenchExample, type BenchDocument } from './format';
export { runRecall, rankExample, type RecallMetrics, type RecallReport, type RecallOptions } from './recall';
export { runFidelity, tokenF1, type FidelityReport } from './fidelity';
export { runScale, syntheticTabs, type ScaleReport } from './scale';
export { evaluateDevset, evaluateBaseline, type DevsetRankerOptions, type DevsetEvaluation } from './devset/evaluate';
export { runDevsetBench, formatDevset, type DevsetBenchResult } from './devset/report';
