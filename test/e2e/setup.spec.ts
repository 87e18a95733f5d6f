import { expect, test } from './fixtures.ts';

import { pipelineResponder } from '../harness/pipeline-responder.ts';

test('from an empty profile: the question waits, an API-key endpoint is set up from the panel (Test lists models, pick one, saved), then the question runs', async ({ worker, harness, sidePanel }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.95 }, answer: 'Leonardo da Vinci painted the Mona Lisa.' }));
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('Who painted the Mona Lisa?');
  await expect(panel.getByTestId('pending')).toContainText('Who painted the Mona Lisa?');
  expect(harness.llm.chatRequests()).toHaveLength(0);

  await panel.getByTestId('onboarding').getByText('An API key', { exact: true }).click();
  const welcome = panel.getByTestId('onboarding').locator('details', { hasText: 'An API key' });
  await welcome.getByLabel('Provider').selectOption('custom');
  await welcome.getByLabel('Base URL').fill(harness.llm.baseURL);
  await welcome.getByLabel('API key').fill(harness.apiKey);
  // Test without any model name: the server's models are listed.
  await welcome.getByRole('button', { name: 'Test' }).click();
  const pick = welcome.getByLabel(/models found\. Pick one:/);
  await expect(pick).toBeVisible();
  expect(await pick.locator('option').allTextContents()).toEqual(expect.arrayContaining(['fake-llm']));
  await pick.selectOption('fake-llm');
  await welcome.getByRole('button', { name: 'Use this model' }).click();
  await expect(panel.getByTestId('setup-saved')).toContainText('Connected and saved: fake-llm answered in');

  // Saved for the worker too.
  const stored = await worker.evaluate(() => chrome.storage.local.get('settings'));
  expect((stored.settings as { llm: { baseURL: string; model: string } }).llm).toMatchObject({ baseURL: harness.llm.baseURL, model: 'fake-llm' });
  // The panel noticed at once: the welcome card is gone and the waiting question ran.
  await expect(panel.getByTestId('onboarding')).toHaveCount(0);
  await expect(panel.getByTestId('pending')).toHaveCount(0);
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 20_000 });
  await expect(panel.getByTestId('run-input')).toHaveText('Who painted the Mona Lisa?');
  await expect(panel.getByTestId('answer')).toContainText('Leonardo da Vinci');
});

test('settings page: the preset fills the address, Test lists models with no model typed, picking one tests and saves', async ({ context, extensionId, harness }) => {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(page.getByLabel('Base URL', { exact: true })).toHaveValue('https://api.openai.com/v1');
  await page.getByLabel('Provider').selectOption('openrouter');
  await expect(page.getByLabel('Base URL', { exact: true })).toHaveValue('https://openrouter.ai/api/v1');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL', { exact: true }).fill(harness.llm.baseURL);
  await page.getByLabel('API key', { exact: true }).fill(harness.apiKey);
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('');
  await page.getByRole('button', { name: 'Test connection' }).click();
  const pick = page.getByLabel(/models found\. Pick one:/);
  await pick.selectOption('fake-llm');
  await expect(page.getByTestId('test-ok')).toContainText('Connected and saved: fake-llm answered in');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('fake-llm');
  await page.reload();
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('fake-llm');
  // The time-out the error messages name is a setting that exists.
  await expect(page.getByLabel('Time-out per model call (seconds)')).toHaveValue('60');
});

test('Ollama from the welcome card: the exact OLLAMA_ORIGINS command for this extension, then Test lists the models', async ({ extensionId, harness, sidePanel }) => {
  harness.llm.setRejectExtensionOrigins(true);
  harness.llm.setApiKey(undefined);
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panel.getByTestId('onboarding').getByText('Ollama on this computer', { exact: true }).click();
  const way = panel.getByTestId('onboarding').locator('details', { hasText: 'Ollama on this computer' });
  // Linux here: the systemd drop-in and the by-hand command, both naming this extension exactly.
  await expect(way.getByTestId('ollama-command')).toContainText(`Environment="OLLAMA_ORIGINS=chrome-extension://${extensionId}"`);
  await expect(way.getByTestId('ollama-command')).toContainText(`OLLAMA_ORIGINS="chrome-extension://${extensionId}" ollama serve`);
  await expect(way.getByLabel('Base URL')).toHaveValue('http://localhost:11434/v1');
  await way.getByLabel('Base URL').fill(harness.llm.baseURL);
  // Like Chrome and Ollama: the model list (a GET, sent without an Origin) comes back; the first
  // call with a model (a POST, with the extension's Origin) is refused.
  await way.getByRole('button', { name: 'Test' }).click();
  await way.getByLabel(/models found\. Pick one:/).selectOption('fake-llm');
  await way.getByRole('button', { name: 'Use this model' }).click();
  const alert = way.getByRole('alert');
  await expect(alert).toContainText('Ollama refused the extension');
  await expect(alert).toContainText(`chrome-extension://${extensionId}`);
  await expect(panel.getByTestId('onboarding')).toBeVisible();
  // Ollama restarted with the variable: the same choice now works and is saved.
  harness.llm.setRejectExtensionOrigins(false);
  await way.getByRole('button', { name: 'Use this model' }).click();
  await expect(panel.getByTestId('setup-saved')).toContainText('Connected and saved: fake-llm');
  await expect(panel.getByTestId('onboarding')).toHaveCount(0);
});
