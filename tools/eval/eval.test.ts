import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type LlmRequest } from '../../test/harness/fake-llm.ts';
import { pipelineResponder } from '../../test/harness/pipeline-responder.ts';
import { main } from './cli';
import { detokenizeFever, loadExamples, type Example } from './datasets';
import { contains, exactMatch, f1 } from './metrics';

// Samples of the public datasets, kept in the repository (test/fixtures/README.md).
const DATA = new URL('../../test/fixtures/data/', import.meta.url).pathname;
const SAMPLE = new URL('./fixtures/generic-sample.jsonl', import.meta.url).pathname;

/** A scripted model that "knows" each example: it cites the gold answer (questions) or the
 * first evidence document and gives the gold verdict (claims). Tests the plumbing, not a model. */
function oracle(examples: Example[]) {
  return (req: LlmRequest) => {
    const all = req.messages.map((m) => m.content).join('\n');
    const ex = examples.find((e) => all.includes(e.text));
    if (!ex) return pipelineResponder({})(req);
    if (ex.kind === 'question') {
      const gold = ex.answers?.[0] ?? '';
      const phrase = ex.documents.map((d) => d.text).find((t) => t.toLowerCase().includes(gold.toLowerCase())) ? gold : ex.documents[0]?.text.split(' ').slice(0, 3).join(' ') ?? '';
      return pipelineResponder({ gate: { confidence: 0.1 }, steps: [`Find: ${ex.text}`], facts: [{ phrase }], finalAnswer: gold })(req);
    }
    const verdict = ex.label === 'SUPPORTS' ? 'supported' : ex.label === 'REFUTES' ? 'refuted' : 'unverifiable';
    const phrase = ex.documents[0]?.text.split(' ').slice(0, 4).join(' ');
    return pipelineResponder({ claims: [{ claim: ex.text, phrase, verdict }] })(req);
  };
}

let server: FakeLlm;
beforeAll(async () => {
  server = await startFakeLlm();
});
afterAll(async () => {
  await server.close();
});

async function runCli(file: string, limit: number, examples: Example[]) {
  server.setResponder(oracle(examples));
  const out = `/tmp/ratify-eval-${process.pid}-${limit}.json`;
  const logs: string[] = [];
  const orig = console.log;
  console.log = (...a: unknown[]) => void logs.push(a.join(' '));
  try {
    const code = await main(['--data', file, '--limit', String(limit), '--base-url', server.baseURL, '--model', 'fake-llm', '--api-key', 'k', '--out', out, '--quiet']);
    expect(code).toBe(0);
  } finally {
    console.log = orig;
  }
  return { log: logs.join('\n'), report: JSON.parse(readFileSync(out, 'utf8')) as { summary: Record<string, number>; results: { calls: number; status: string }[] } };
}

describe('metrics', () => {
  it('scores like the HotpotQA/SQuAD scripts', () => {
    expect(exactMatch('The Warsaw!', 'warsaw')).toBe(1);
    expect(f1('born in Warsaw Poland', 'Warsaw, Poland')).toBeCloseTo(2 / 3);
    expect(f1('no', 'yes')).toBe(0);
    expect(contains('She was born in Warsaw [1].', 'Warsaw')).toBe(1);
    expect(contains('Warsawa', 'Warsaw')).toBe(0);
    expect(detokenizeFever('Bradley `` Brad `` Fuller -LRB- born 1965 -RRB- is a producer .')).toBe('Bradley "Brad" Fuller (born 1965) is a producer.');
  });
});

describe('npm run eval', () => {
  it('runs the generic format end to end against an OpenAI-compatible server', async () => {
    const examples = loadExamples(readFileSync(SAMPLE, 'utf8'));
    const { log, report } = await runCli(SAMPLE, 3, examples);
    expect(report.summary).toMatchObject({ examples: 3, questions: 2, claims: 1, em: 1, labelAccuracy: 1, retrievalRatio: 1, errors: 0 });
    expect(report.summary.callsPerExample).toBeGreaterThan(2);
    expect(log).toMatch(/EM\s+100\.0%/);
    expect(log).toMatch(/LLM calls \/ example/);
  });

  it('runs a few HotpotQA and FEVER examples', async () => {
    for (const [file, limit] of [['hotpotqa-dev-distractor-sample.jsonl', 3], ['fever-dev-sample.jsonl', 3]] as const) {
      const examples = loadExamples(readFileSync(DATA + file, 'utf8'), { limit });
      expect(examples.every((e) => e.documents.length > 0)).toBe(true);
      const { report } = await runCli(DATA + file, limit, examples);
      expect(report.results.every((r) => r.status === 'done')).toBe(true);
      expect(report.summary.examples).toBe(limit);
    }
  });

  it('loads every shipped dataset format', () => {
    const hot = loadExamples(readFileSync(DATA + 'hotpotqa-dev-site-sample.jsonl', 'utf8'), { limit: 2 });
    expect(hot[0]).toMatchObject({ kind: 'question' });
    expect(hot[0]?.documents.length).toBe(10);
    const climate = loadExamples(readFileSync(DATA + 'climate-fever-sample.jsonl', 'utf8'), { limit: 2 });
    expect(climate[0]).toMatchObject({ kind: 'claim', label: 'SUPPORTS' });
    const fever = loadExamples(readFileSync(DATA + 'fever-dev-sample.jsonl', 'utf8'));
    expect(fever.find((e) => e.label === 'REFUTES')?.documents[0]?.text).not.toMatch(/-LRB-|``/);
  });
});
