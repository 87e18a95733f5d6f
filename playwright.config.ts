import { defineConfig } from '@playwright/test';

// Every spec launches Debian's Chromium with the built extension (see test/e2e/fixtures.ts).
// One worker: each test gets a fresh browser profile, and the machines have 2 cores.
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: { trace: 'retain-on-failure' },
  outputDir: 'test-results/artifacts',
});
