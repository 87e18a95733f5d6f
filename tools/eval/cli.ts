/** npm run eval -- --data FILE.jsonl [--limit 20] [--base-url URL --model NAME --api-key KEY]
 *
 * Runs Ratify's pipeline over a JSONL dataset against any OpenAI-compatible endpoint and prints
 * EM/F1 (questions), label accuracy (claims), the gate's retrieval ratio, LLM calls and tokens
 * per example and wall time. Formats: see ./datasets.ts. The key may come from RATIFY_API_KEY or
 * OPENAI_API_KEY; the endpoint and model from RATIFY_BASE_URL / RATIFY_MODEL. */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createLlmClient } from '../../lib/llm/client';
import { DEFAULT_SETTINGS, type PipelineSettings } from '../../lib/settings/schema';
import { loadExamples } from './datasets';
import { evaluate, formatSummary } from './eval';
import { EVAL_LIBRARY } from './library';

const HELP = `Usage: npm run eval -- --data <file.jsonl> [options]

  --data FILE         JSONL: HotpotQA, FEVER, CLIMATE-FEVER or the generic format
  --limit N           examples to run (default 20)      --offset N   skip the first N
  --base-url URL      OpenAI-compatible endpoint (env RATIFY_BASE_URL; default https://api.openai.com/v1)
  --model NAME        model (env RATIFY_MODEL)
  --api-key KEY       key (env RATIFY_API_KEY or OPENAI_API_KEY; none for local servers)
  --beta X            β′, retrieve when confidence < β′ (default ${DEFAULT_SETTINGS.pipeline.betaThreshold})
  --max-steps N       draft steps (default ${DEFAULT_SETTINGS.pipeline.maxSteps})    --max-rounds N  rounds per step (default ${DEFAULT_SETTINGS.pipeline.maxRounds})
  --passages N        passages per step (default ${DEFAULT_SETTINGS.pipeline.passagesPerStep})
  --concurrency N     examples at once (default 2)
  --timeout MS        per LLM call (default 60000)
  --json-mode M       json_schema (default) or prompt, for endpoints without structured output
  --out FILE          write per-example results and the summary as JSON
  --quiet             no per-example lines`;

export async function main(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string' },
      limit: { type: 'string', default: '20' },
      offset: { type: 'string', default: '0' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      beta: { type: 'string' },
      'max-steps': { type: 'string' },
      'max-rounds': { type: 'string' },
      passages: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      timeout: { type: 'string', default: '60000' },
      'json-mode': { type: 'string', default: 'json_schema' },
      out: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (v.help || !v.data) {
    console.log(HELP);
    return v.help ? 0 : 2;
  }
  const baseURL = v['base-url'] ?? process.env.RATIFY_BASE_URL ?? 'https://api.openai.com/v1';
  const model = v.model ?? process.env.RATIFY_MODEL ?? '';
  if (!model) {
    console.error('No model: pass --model or set RATIFY_MODEL.');
    return 2;
  }
  const num = (s: string | undefined, d: number) => (s === undefined ? d : Number(s));
  const p = DEFAULT_SETTINGS.pipeline;
  const settings: PipelineSettings = {
    ...p,
    betaThreshold: num(v.beta, p.betaThreshold),
    maxSteps: num(v['max-steps'], p.maxSteps),
    maxRounds: num(v['max-rounds'], p.maxRounds),
    passagesPerStep: num(v.passages, p.passagesPerStep),
  };
  const llm = createLlmClient(
    { preset: 'custom', baseURL, apiKey: v['api-key'] ?? process.env.RATIFY_API_KEY ?? process.env.OPENAI_API_KEY ?? '', model, embeddingModel: '', timeoutMs: num(v.timeout, 60_000) },
    { jsonMode: v['json-mode'] === 'prompt' ? 'prompt' : 'json_schema' },
  );
  const examples = loadExamples(readFileSync(v.data, 'utf8'), { offset: num(v.offset, 0), limit: num(v.limit, 20) });
  console.log(`${examples.length} examples from ${v.data} · ${model} at ${baseURL} · β′=${settings.betaThreshold}, ≤${settings.maxSteps} steps, ≤${settings.maxRounds} rounds`);
  console.log(`library: ${EVAL_LIBRARY}`);
  const ctrl = new AbortController();
  process.once('SIGINT', () => ctrl.abort());
  const { results, summary } = await evaluate({
    llm,
    settings,
    examples,
    concurrency: num(v.concurrency, 2),
    signal: ctrl.signal,
    onResult: (r, n) => {
      if (v.quiet) return;
      const score = r.kind === 'question' ? `F1 ${(r.f1 ?? 0).toFixed(2)}` : r.correct ? 'correct' : 'wrong';
      console.log(`[${n}/${examples.length}] ${r.id} ${score} · ${r.calls} calls · ${(r.ms / 1000).toFixed(1)} s${r.error ? ` · ${r.error}` : ''}\n    gold: ${r.gold}\n    pred: ${r.prediction.slice(0, 200)}`);
    },
  });
  console.log(`\n${formatSummary(summary)}`);
  if (v.out) writeFileSync(v.out, JSON.stringify({ summary, settings, model, baseURL, results }, null, 2));
  return 0;
}

// Run as a script (tsx tools/eval/cli.ts …), not when imported by a test.
if (process.argv[1] && /eval[\\/]cli\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
