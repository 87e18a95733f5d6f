/** How late this client's own timers run. A client short of CPU (a busy machine, many runs in
 * one worker) hears every reply late and in bursts, one after another, which looks like a server
 * that queues parallel requests; while it is that late, a slow start says nothing about the
 * server (speculate.ts). */
const TICK_MS = 100;

export interface LagProbe {
  /** The most a timer ran late between `from` and now, ms. */
  maxSince(from: number): number;
  stop(): void;
}

export function startLagProbe(): LagProbe {
  const samples: { at: number; lag: number }[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    samples.push({ at: now, lag: Math.max(0, now - last - TICK_MS) });
    // A revision's wait is seconds; a minute of samples is plenty.
    if (samples.length > 600) samples.shift();
    last = now;
  }, TICK_MS);
  return {
    maxSince: (from) => {
      // The tick that ends after `from` covers the time since the one before it.
      const late = samples.filter((s) => s.at >= from).map((s) => s.lag);
      return Math.max(0, performance.now() - last - TICK_MS, ...late);
    },
    stop: () => clearInterval(timer),
  };
}
