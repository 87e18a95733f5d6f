import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    include: ['lib/**/*.test.ts', 'tools/**/*.test.ts', 'components/**/*.test.ts?(x)', 'entrypoints/**/*.test.ts?(x)', 'test/unit/**/*.test.ts?(x)', 'test/harness/**/*.test.ts', 'bench/**/*.test.ts'],
    setupFiles: ['test/unit/setup.ts'],
    testTimeout: 20_000,
    reporters: ['default', ['json', { outputFile: 'test-results/unit.json' }]],
  },
});
