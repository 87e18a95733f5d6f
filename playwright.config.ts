import { defineConfig } from '@playwright/test';

// Projects:
// - chromium: every spec in test/e2e launches Debian's Chromium with the built extension
//   (.output/chrome-mv3; see test/e2e/fixtures.ts).
// - firefox: the smoke test in test/e2e-firefox drives Debian's Firefox ESR with the Firefox
//   build (.output/firefox-mv2) over WebDriver BiDi.
// - screenshots: the Chromium specs that take the README's pictures, writing them into
//   docs/screenshots/ (only `npm run screenshots` runs it; in `npm test` the same pictures go to
//   test-results/, so the test run leaves the working tree as it was).
// One worker: each test gets a fresh browser profile, and the machines have 2 cores.
export default defineConfig({
  timeout: 45_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: { trace: 'retain-on-failure' },
  outputDir: 'test-results/artifacts',
  projects: [
    { name: 'chromium', testDir: 'test/e2e' },
    { name: 'firefox', testDir: 'test/e2e-firefox', timeout: 90_000 },
    {
      name: 'screenshots',
      testDir: 'test/e2e',
      testMatch: ['history-export.spec.ts', 'marks.spec.ts', 'options.spec.ts', 'retrieval.spec.ts', 'verify.spec.ts'],
    },
  ],
});
