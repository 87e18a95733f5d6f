/** One fake model server for many concurrent benchmark runs: each run's client sends its key in
 * the `x-bench-run` header and is answered by its own responder. Latencies are part 1's model,
 * sped up by `speed`. */
import { startFakeLlm, type FakeLlm, type Responder } from '../test/harness/fake-llm.ts';
import type { BenchOptions } from './config';

export async function startKeyedLlm(o: Pick<BenchOptions, 'latency' | 'speed'>): Promise<{ server: FakeLlm; responders: Map<string, Responder> }> {
  const l = o.latency;
  const x = o.speed;
  const responders = new Map<string, Responder>();
  const server = await startFakeLlm({
    latency: { firstTokenMs: l.firstTokenMs / x, tokensPerSec: l.outputTokensPerSec * x, inputTokensPerSec: l.inputTokensPerSec * x },
    responder: (req) => {
      const key = req.headers['x-bench-run'];
      const r = typeof key === 'string' ? responders.get(key) : undefined;
      return r ? r(req) : { fault: { kind: 'status', status: 404, message: `no responder for run ${String(key)}` } };
    },
  });
  return { server, responders };
}
