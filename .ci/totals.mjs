// Prints "N passed, M failed" over the unit (vitest) and e2e (Playwright) JSON reports.
// An optional argument adds failures found outside them (.ci/run: a dirty working tree).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = Number(process.argv[2] ?? 0) || 0;
const missing = [];

if (existsSync('test-results/unit.json')) {
  const r = JSON.parse(readFileSync('test-results/unit.json', 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numTodoTests ?? 0) + (r.numPendingTests ?? 0);
  // A test file that failed to load has no tests but counts as a failure.
  for (const f of r.testResults ?? []) if (f.status === 'failed' && !(f.assertionResults ?? []).length) failed += 1;
} else missing.push('unit');

if (existsSync('test-results/e2e.json')) {
  const r = JSON.parse(readFileSync('test-results/e2e.json', 'utf8'));
  const s = r.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += (s.unexpected ?? 0) + (s.skipped ?? 0);
  // A spec that failed to load is reported in `errors`, not in the stats.
  failed += (r.errors ?? []).length;
} else missing.push('e2e');

if (missing.length) {
  console.log(`(no report from: ${missing.join(', ')} — that suite did not run)`);
  failed += missing.length;
}
console.log(`${passed} passed, ${failed} failed`);
