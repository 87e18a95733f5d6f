/** Following an abort signal. A signal fires 'abort' once: a listener added after that never runs,
 * so one that may be added late (a call sent after a wait, by a run or speculation cancelled
 * meanwhile) must look first. Lint keeps `addEventListener('abort', …)` to this module. */

/** Runs `onAbort` when `signal` aborts, at once if it already has. Returns the unsubscribe. */
export function followAbort(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    onAbort();
    return () => {};
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
