/** Test fixtures for the pipeline: the fake LLM server with the scripted pipeline responder, the
 * real LLM client pointed at it, an in-memory library, and a runner that collects events. */
import type { Capabilities } from '../../lib/llm/capabilities.ts';
import { createLlmClient, type LlmClientOptions } from '../../lib/llm/client.ts';
import type { LlmClient } from '../../lib/llm/types.ts';
import type { Library } from '../../lib/retrieval/types.ts';
import { DEFAULT_SETTINGS, type LlmSettings, type PipelineSettings } from '../../lib/settings/schema.ts';
import { startFakeLlm, type FakeLlm, type Latency } from './fake-llm.ts';
import { pipelineResponder, type PipelineScenario } from './pipeline-responder.ts';
import { executeRun } from '../../lib/pipeline/run.ts';
import { newRun } from '../../lib/pipeline/run-state.ts';
import type { Run, RunEvent, RunInput, RunMode } from '../../lib/core/run.ts';
import { createMemoryLibrary, type MemoryDoc, type MemoryLibrary } from './memory-library.ts';

export function llmSettings(baseURL: string, timeoutMs = 10_000): LlmSettings {
  return { preset: 'custom', baseURL, apiKey: 'test-key', model: 'fake-llm', embeddingModel: '', timeoutMs };
}

export function pipelineSettings(p: Partial<PipelineSettings> = {}): PipelineSettings {
  return { ...DEFAULT_SETTINGS.pipeline, ...p };
}

export interface TestWorld {
  server: FakeLlm;
  llm: LlmClient;
  close(): Promise<void>;
}

export async function startWorld(scenario: PipelineScenario, o: { latency?: Latency; client?: LlmClientOptions; timeoutMs?: number } = {}): Promise<TestWorld> {
  const server = await startFakeLlm({ responder: pipelineResponder(scenario), latency: o.latency });
  const llm = createLlmClient(llmSettings(server.baseURL, o.timeoutMs), { backoffMs: 20, ...o.client });
  return { server, llm, close: () => server.close() };
}

/** A client to the world's server that has learnt nothing of it yet (a first run on a new
 * install): what other runs learnt, such as that it answers side by side, is not known to it. */
export function newInstallClient(world: TestWorld): LlmClient {
  const learnt = new Map<string, Capabilities>();
  return createLlmClient(llmSettings(world.server.baseURL), { backoffMs: 20, capabilities: { get: (k) => learnt.get(k), set: (k, c) => void learnt.set(k, c) } });
}

export { notBeside } from './fake-llm-request.ts';

export interface RunResult {
  run: Run;
  events: RunEvent[];
  /** Calls the server saw, in arrival order, with their stage. */
  stages: string[];
  ms: number;
}

export async function runOnce(
  world: TestWorld,
  input: RunInput,
  library: Library,
  o: { mode?: RunMode; settings?: Partial<PipelineSettings>; signal?: AbortSignal; from?: Run; onEvent?: (ev: RunEvent) => void } = {},
): Promise<RunResult> {
  const events: RunEvent[] = [];
  const before = world.server.chatRequests().length;
  const t0 = Date.now();
  const run = await executeRun({
    run: o.from ?? newRun('r1', o.mode ?? 'ask', input, 0),
    llm: world.llm,
    library,
    settings: pipelineSettings(o.settings),
    signal: o.signal,
    emit: (ev) => {
      events.push(ev);
      o.onEvent?.(ev);
    },
  });
  const ms = Date.now() - t0;
  // A request the run sent and then stopped (an answer beside the last step that the revision
  // beat) can reach the server after the run has ended: wait for every call the run counted, so
  // each is logged with this run and none with the next.
  const deadline = Date.now() + 1000;
  while (world.server.chatRequests().length - before < (run.usage?.calls ?? 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  return { run, events, stages: world.server.chatRequests().slice(before).map((r) => r.stage ?? '?'), ms };
}

export const CURIE_DOCS: MemoryDoc[] = [
  { url: 'https://en.wikipedia.org/wiki/Marie_Curie', title: 'Marie Curie', text: 'Marie Curie was a Polish and naturalised-French physicist and chemist. She was born 7 November 1867 in Warsaw. She shared the 1903 Nobel Prize in Physics with Pierre Curie and Henri Becquerel.' },
  { url: 'https://en.wikipedia.org/wiki/Pierre_Curie', title: 'Pierre Curie', text: 'Pierre Curie was a French physicist. He married Maria Skłodowska in 1895 in Sceaux.' },
  { url: 'https://www.nobelprize.org/chemistry-1911', title: 'Nobel Prize in Chemistry 1911', text: 'The Nobel Prize in Chemistry 1911 was awarded to Marie Curie for the discovery of the elements radium and polonium.' },
  { url: 'https://example.org/warsaw', title: 'Warsaw', text: 'Warsaw is the capital of Poland. Its population is about 1.8 million.' },
];

export function curieLibrary(extra: MemoryDoc[] = [], opts: Parameters<typeof createMemoryLibrary>[1] = {}): MemoryLibrary {
  return createMemoryLibrary([...CURIE_DOCS, ...extra], opts);
}
