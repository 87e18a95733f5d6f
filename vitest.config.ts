import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    include: ['lib/**/*.test.ts', 'tools/**/*.test.ts', 'components/**/*.test.ts?(x)', 'entrypoints/**/*.test.ts?(x)', 'test/unit/**/*.test.ts?(x)', 'test/harness/**/*.test.ts', 'bench/**/*.test.ts'],
    setupFiles: ['test/unit/setup.ts'],
    testTimeout: 20_000,
    // Vitest's default (cores - 1) is one worker on a 2-core machine, and the slowest files mostly
    // wait on the fake model's latency (speculate, speculation-policy, the bench tests): two at
    // once overlap that waiting with the CPU-bound files (261 s -> 147 s here).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', ['json', { outputFile: 'test-results/unit.json' }]],
  },
});
