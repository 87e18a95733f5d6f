import { defineConfig } from '@playwright/test';

// `npm run screenshots`: the README's pictures, taken in real Chromium against the local test
// servers (same fixtures as the e2e tests, test/e2e/fixtures.ts). Not part of `npm test`.
export default defineConfig({
  testDir: 'test/screenshots',
  testMatch: '**/*.shots.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results/screenshots',
});
