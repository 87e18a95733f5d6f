/** Building blocks for scripting the fake LLM. Each returns a Responder; they compose:
 *
 *   llm.setResponder(byStage({
 *     gate: { json: { label: 'clear', confidence: 0.2 } },
 *     draft: sequence({ fault: { kind: 'status', status: 429, retryAfter: 1 } }, { json: { steps: ['…'] } }),
 *   }, (req) => ({ content: `Final answer to: ${req.lastUser}` })));
 */
import { defaultResponder, type Fault, type LlmRequest, type Reply, type Responder } from './fake-llm.ts';

export type Script = Reply | Responder;

function run(s: Script, req: LlmRequest): Reply | Promise<Reply> {
  return typeof s === 'function' ? s(req) : s;
}

/** Picks a script by stage (response_format.json_schema.name). Requests without a matching stage
 * (plain chat, json_object) go to `fallback`. */
export function byStage(stages: Record<string, Script>, fallback: Script = defaultResponder): Responder {
  return (req) => run(req.stage !== undefined && req.stage in stages ? (stages[req.stage] ?? fallback) : fallback, req);
}

/** Successive calls get successive scripts; the last one repeats. */
export function sequence(...scripts: Script[]): Responder {
  if (scripts.length === 0) throw new Error('sequence() needs at least one script');
  let i = 0;
  return (req) => run(scripts[Math.min(i++, scripts.length - 1)]!, req);
}

/** The first `times` calls fail with `fault`, later calls use `then`. */
export function faultOnce(fault: Fault, then: Script = defaultResponder, times = 1): Responder {
  let calls = 0;
  return (req) => (calls++ < times ? { fault } : run(then, req));
}
