/**
 * The built packages as the stores check them (tools/store/store-checks.ts): addons.mozilla.org's
 * linter on the Firefox package must find nothing at all, and both packages must pass the Chrome
 * Web Store's rules that can be checked offline. Runs after `npm run test:e2e` has built both;
 * the report (each check's facts, and every line that uses each permission) is in the output.
 */
import { expect, test } from '@playwright/test';
import { formatCheck, formatPermissionUses, packageChecks, webExtLint } from '../../tools/store/store-checks.ts';

test('web-ext lint (addons-linter) on the Firefox package: 0 errors, 0 warnings, 0 notices', () => {
  const lint = webExtLint();
  console.log(lint.text);
  expect(lint.messages.map((m) => `${m.code} ${m.file}: ${m.message}`)).toEqual([]);
  expect(lint.summary).toEqual({ errors: 0, warnings: 0, notices: 0 });
});

test("both packages meet the stores' offline rules: manifest and icons, no remote code, permissions used, true minimum versions", () => {
  const checks = packageChecks();
  console.log(checks.map(formatCheck).join('\n\n'));
  console.log(`\nWhere each permission is used:\n${formatPermissionUses()}`);
  expect(checks.flatMap((c) => c.problems.map((p) => `${c.name}: ${p}`))).toEqual([]);
});
