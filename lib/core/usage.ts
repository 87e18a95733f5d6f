/** Tokens a run's model calls used, in total and by pipeline stage (what the trace and the cost
 * shown to the user add up). */

export interface StageUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

export interface Usage extends StageUsage {
  byStage: Record<string, StageUsage>;
}

export function emptyUsage(): Usage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, byStage: {} };
}

/** Add one call's tokens to running totals (per client, per run). */
export function addUsage(usage: Usage, u: { stage: string; inputTokens: number; outputTokens: number }): void {
  usage.calls += 1;
  usage.inputTokens += u.inputTokens;
  usage.outputTokens += u.outputTokens;
  const s = (usage.byStage[u.stage] ??= { calls: 0, inputTokens: 0, outputTokens: 0 });
  s.calls += 1;
  s.inputTokens += u.inputTokens;
  s.outputTokens += u.outputTokens;
}
