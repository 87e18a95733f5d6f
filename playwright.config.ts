import { defineConfig } from '@playwright/test';

// Projects:
// - chromium: every spec in test/e2e launches Debian's Chromium with the built extension
//   (.output/chrome-mv3; see test/e2e/fixtures.ts).
// - firefox: the smoke test in test/e2e-firefox drives Debian's Firefox ESR with the Firefox
//   build (.output/firefox-mv2) over WebDriver BiDi.
// - packages: the built packages as the stores check them (test/packages: web-ext lint, the
//   Chrome Web Store's offline rules, the reproducible build from the sources zip).
// - screenshots: the README's pictures (test/screenshots/*.shots.ts, the situations of
//   test/e2e/scenes.ts at 320 and 600 px, light and dark) written into docs/screenshots/; only
//   `npm run screenshots` runs it. The e2e specs' own pictures go to test-results/, so `npm test`
//   leaves the working tree as it was.
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
    { name: 'packages', testDir: 'test/packages', timeout: 300_000 },
    { name: 'screenshots', testDir: 'test/screenshots', testMatch: '**/*.shots.ts', timeout: 90_000, expect: { timeout: 15_000 } },
  ],
});
