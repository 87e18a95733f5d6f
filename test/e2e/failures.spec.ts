import { createServer } from 'node:net';
import { expect, test } from './fixtures.ts';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const port = (srv.address() as { port: number }).port;
  await new Promise((ok) => srv.close(ok));
  return port;
}

test('with nothing configured the panel offers three ways in and keeps the question asked meanwhile', async ({ context, sidePanel }) => {
  const panel = await sidePanel();
  const onboarding = panel.page.getByTestId('onboarding');
  await expect(onboarding).toContainText('Welcome to Ratify');
  for (const way of ['The browser’s built-in model', 'Ollama on this computer', 'An API key']) await expect(onboarding.getByText(way, { exact: true })).toBeVisible();
  const optionsOpened = context.waitForEvent('page');
  await onboarding.getByRole('button', { name: 'All settings' }).click();
  const options = await optionsOpened;
  await expect(options).toHaveURL(/options\.html/);
  // The preset's address is filled in, not shown as a grey example.
  await expect(options.getByLabel('Base URL', { exact: true })).toHaveValue('https://api.openai.com/v1');

  // Asking anyway keeps the question and says it waits for a model.
  await panel.page.bringToFront();
  await panel.ask('Who wrote Middlemarch?');
  await expect(panel.page.getByTestId('pending')).toContainText('Your question is waiting for a model');
  await expect(panel.input).toHaveText('Who wrote Middlemarch?');
});

test('a wrong API key is explained as such', async ({ configureForHarness, sidePanel }) => {
  await configureForHarness({ llm: { apiKey: 'sk-wrong' } });
  const panel = await sidePanel();
  await panel.ask('What is the capital of France?');
  const alert = panel.alert;
  await expect(alert).toContainText('The API key was rejected');
  await expect(alert).toContainText('Check the API key in Settings');
  await expect(alert.getByRole('button', { name: 'Open settings' })).toBeVisible();
});

test('an unreachable server is explained as such', async ({ configureForHarness, sidePanel }) => {
  const port = await closedPort();
  await configureForHarness({ llm: { baseURL: `http://127.0.0.1:${port}/v1` } });
  const panel = await sidePanel();
  await panel.ask('What is the capital of France?');
  const alert = panel.alert;
  await expect(alert).toContainText('Could not reach the model server', { timeout: 20_000 });
  await expect(alert).toContainText('base URL');
});

test("Ollama's 403 for extension origins explains OLLAMA_ORIGINS", async ({ harness, configureForHarness, sidePanel }) => {
  harness.llm.setRejectExtensionOrigins(true);
  await configureForHarness({ llm: { preset: 'ollama', apiKey: '' } });
  harness.llm.setApiKey(undefined);
  const panel = await sidePanel();
  await panel.ask('What is the capital of France?');
  const alert = panel.alert;
  await expect(alert).toContainText('Ollama refused the extension');
  await expect(alert).toContainText('OLLAMA_ORIGINS');
});

test('a rate limit says so and how long to wait', async ({ harness, configureForHarness, sidePanel }) => {
  harness.llm.setResponder(() => ({ fault: { kind: 'status', status: 429, retryAfter: 1, message: 'Rate limit reached for requests' } }));
  await configureForHarness();
  const panel = await sidePanel();
  await panel.ask('What is the capital of France?');
  const alert = panel.alert;
  await expect(alert).toContainText('Rate limited', { timeout: 20_000 });
  await expect(alert).toContainText('wait 1 s');
  // The client retried (honouring retry-after) before giving up.
  expect(harness.llm.chatRequests().length).toBeGreaterThan(1);
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
});
