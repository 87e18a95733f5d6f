/** One run's calls and retrievals on a timeline, for work on the critical path:
 *
 *   npx tsx bench/timeline.ts [questions=2] [steps changed=0] [gate confidence=0.2] [warm]
 *
 * ("Steps changed" is a count, the steps part 5 would pick, or the steps themselves as
 * "@1,4", 0-based.)
 *
 * (A confidence of 0.5 or more is a question the gate answers unaided, as in part 2. "warm":
 * each question is asked once unshown first, so the run shown knows what that run learnt of the
 * endpoint (that it answers side by side), as a user's questions after the first do.)
 * Part 1's questions, latency model (speed 1) and scripted model, "Faster answers" on; for each
 * run, every LLM call as "stage sent → first reply → end (tokens in/out)", every retrieval as
 * "sent → end", and when the run's main events came, in ms since the question. */
import type { Capabilities } from '../lib/llm/capabilities';
import { createLlmClient } from '../lib/llm/client';
import type { JsonRequest, LlmClient } from '../lib/llm/types';
import { executeRun } from '../lib/pipeline/run';
import { newRun } from '../lib/pipeline/run-state';
import { resetSpeculationPolicy } from '../lib/pipeline/speculation-policy';
import type { Library, RetrieveRequest } from '../lib/retrieval/types';
import { DEFAULT_SETTINGS } from '../lib/settings/schema';
import { DEFAULT_OPTIONS } from './config';
import { startKeyedLlm } from './keyed-llm';
import { changedSteps } from './pipeline';
import { loadQuestions } from './questions';
import { questionLibrary, ratifyResponder, withSearchLatency } from './ratify-run';
import { freshConnectionFetch } from './transport';

const SHOWN = new Set(['gate', 'web-plan', 'draft', 'step-done', 'answer', 'speculation']);

/** " step 3" for a revision (its position line), else nothing. */
const stepOf = (req: JsonRequest<unknown>): string => {
  const user = req.messages.at(-1)?.content;
  const m = typeof user === 'string' ? /^Current step: (\d+)/m.exec(user) : null;
  return m ? ` step ${m[1]}` : '';
};

const o = { ...DEFAULT_OPTIONS, speed: 1 };
const questions = Number(process.argv[2] ?? 2);
const changedArg = process.argv[3] ?? '0';
const stepsChanged = (id: string): Set<number> => (changedArg.startsWith('@') ? new Set(changedArg.slice(1).split(',').map(Number)) : changedSteps(id, Number(changedArg), o.steps));
const beta = Number(process.argv[4] ?? 0.2);
const warm = process.argv[5] === 'warm';
const { server, responders } = await startKeyedLlm(o);
try {
  let capabilities = new Map<string, Capabilities>();
  for (const [q, shown] of loadQuestions(questions, o.steps, o.data).flatMap((q) => (warm ? [[q, false] as const, [q, true] as const] : [[q, true] as const]))) {
    // A new worker for each question (what a warm one knows of the endpoint, from its first run).
    resetSpeculationPolicy();
    if (!warm || !shown) capabilities = new Map();
    responders.set('timeline', ratifyResponder(q, beta, stepsChanged(q.id)));
    const client = createLlmClient({ preset: 'custom', baseURL: server.baseURL, apiKey: 'bench', model: 'fake-llm', embeddingModel: '', timeoutMs: 300_000 }, { fetch: freshConnectionFetch({ 'x-bench-run': 'timeline' }), maxRetries: 0, capabilities: { get: (k) => capabilities.get(k), set: (k, c) => void capabilities.set(k, c) } });
    const t0 = performance.now();
    const ms = () => Math.round(performance.now() - t0);
    const lines: string[] = [];
    const events: string[] = [];
    const llm: LlmClient = {
      ...client,
      json: <T>(req: JsonRequest<T>) => {
        const sent = ms();
        let first: number | undefined;
        return client.json({
          ...req,
          onPartial: (p) => {
            first ??= ms();
            req.onPartial?.(p);
          },
          onUsage: (u) => {
            lines.push(`${req.stage ?? '?'}${stepOf(req)} ${sent} → ${first ?? '-'} → ${ms()} (${u.inputTokens} in, ${u.outputTokens} out)`);
            req.onUsage?.(u);
          },
        });
      },
    };
    const settings = { ...DEFAULT_SETTINGS.pipeline, maxSteps: o.steps, speculate: true };
    const inner = withSearchLatency(questionLibrary(q, settings).library, o.latency.searchMs + o.latency.pageFetchMs, { retrieves: 0 });
    const library: Library = {
      retrieve: async (req: RetrieveRequest) => {
        const sent = ms();
        const r = await inner.retrieve(req);
        lines.push(`retrieve ${sent} → ${ms()} ${JSON.stringify(req.query)}`);
        return r;
      },
    };
    const run = await executeRun({
      run: newRun(`timeline-${q.id}`, 'ask', { text: q.question }, Date.now()),
      llm,
      library,
      settings,
      emit: (ev) => {
        if (SHOWN.has(ev.type)) events.push(`${ev.type}${'index' in ev ? ` #${ev.index}` : ''}${ev.type === 'speculation' ? ` ${ev.outcome}` : ''} ${ms()}`);
      },
    });
    if (!shown) continue;
    console.log(`${q.id}: ${run.status} in ${ms()} ms`);
    for (const l of lines) console.log(`  ${l}`);
    console.log(`  events: ${events.join(' · ')}`);
  }
} finally {
  await server.close();
}
