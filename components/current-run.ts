/** Which run the Ask view is showing, and so which thread a new question joins. */
import type { Run } from '@/lib/core/run';

/** The stored or live copy of the active run, and nothing else: for a render or two after "New
 * thread" (or after opening another run) both hooks still hold the previous run, and a question
 * asked in that moment must not join the previous run's thread. The stored copy is preferred. */
export function currentRun(activeRunId: string | null, stored: Run | undefined, live: Run | undefined): Run | undefined {
  if (!activeRunId) return undefined;
  return [stored, live].find((r) => r !== undefined && r.id === activeRunId);
}
