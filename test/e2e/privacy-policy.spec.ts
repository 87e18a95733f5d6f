import { expect, test } from './fixtures.ts';

test('Settings → Privacy links to the privacy policy shipped with this version', async ({ context, extensionId, picture }) => {
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  const [policy] = await Promise.all([context.waitForEvent('page'), options.getByTestId('privacy-policy').click()]);
  await policy.waitForLoadState();
  expect(policy.url()).toBe(`chrome-extension://${extensionId}/privacy.html`);
  await expect(policy.getByRole('heading', { level: 1 })).toHaveText('Ratify privacy policy');
  // The three recipients of "What Ratify sends where", as the README lists them.
  const recipients = policy.locator('table').first().locator('tbody tr td:first-child strong');
  await expect(recipients).toHaveText(['Your model endpoint', 'The search providers you enabled', 'Web pages found by search']);
  await expect(policy.getByText(/nothing in your open tabs or the page you are on decides a word of them/)).toBeVisible();
  await policy.setViewportSize({ width: 900, height: 1400 });
  await picture(policy, 'privacy-policy.png');
});
