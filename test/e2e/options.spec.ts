import { expect, test } from './fixtures.ts';

test('options: save an endpoint and test the connection', async ({ context, extensionId, harness, picture }) => {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL', { exact: true }).fill(harness.llm.baseURL);
  await page.getByLabel('API key', { exact: true }).fill(harness.apiKey);
  await page.getByLabel('Model', { exact: true }).fill('fake-llm');
  await page.getByRole('button', { name: 'Test connection' }).click();
  // A successful test of a complete form saves it.
  await expect(page.getByTestId('test-ok')).toContainText('Connected and saved: fake-llm answered');
  // No embeddings model named: the one the endpoint lists is found, and the form says so.
  const embeddings = page.locator('.field', { has: page.getByLabel(/Embeddings model/) });
  await expect(embeddings).toContainText('Found at the endpoint: fake-embedding');
  await page.setViewportSize({ width: 760, height: 900 });
  await picture(page, 'options.png');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('saved')).toBeVisible();
  await page.getByLabel(/Embeddings model/).fill('none');
  await expect(embeddings).toContainText('Off: sources are ranked by their words only.');
  await page.getByLabel(/Embeddings model/).fill('');

  await page.reload();
  await expect(page.getByLabel('Base URL', { exact: true })).toHaveValue(harness.llm.baseURL);
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('fake-llm');

  // A wrong key is reported precisely by Test connection.
  await page.getByLabel('API key', { exact: true }).fill('sk-wrong');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert')).toContainText('The API key was rejected');
  // The fix is in the form on this page, not "in Settings".
  await expect(page.getByRole('alert')).toContainText('Check the API key above');

  // Invalid input is refused with a message, not saved.
  await page.getByLabel('Base URL', { exact: true }).fill('not a url');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').first()).toContainText('valid http(s) URL');
});

test('options opened for the first time claim nothing was found at an endpoint nobody contacted', async ({ context, extensionId, picture }) => {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(page.getByLabel('Base URL', { exact: true })).toHaveValue('https://api.openai.com/v1');
  const embeddings = page.locator('.field', { has: page.getByLabel(/Embeddings model/) });
  await expect(embeddings).toContainText('OpenAI offers text-embedding-3-small to every account');
  await expect(embeddings).not.toContainText('Found at the endpoint');
  await page.setViewportSize({ width: 760, height: 700 });
  await picture(page, 'options-first-open.png');
});
