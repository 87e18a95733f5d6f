import { expect, test } from './fixtures.ts';

test('options: save an endpoint and test the connection', async ({ harness, openOptions, picture }) => {
  const options = await openOptions();
  const { page } = options;
  await options.fillEndpoint({ baseURL: harness.llm.baseURL, apiKey: harness.apiKey, model: 'fake-llm' });
  await options.testConnection();
  // A successful test of a complete form saves it.
  await expect(page.getByTestId('test-ok')).toContainText('Connected and saved: fake-llm answered');
  // No embeddings model named: the one the endpoint lists is found, and the form says so.
  const embeddings = options.embeddingsField;
  await expect(embeddings).toContainText('Found at the endpoint: fake-embedding');
  await page.setViewportSize({ width: 760, height: 900 });
  await picture(page, 'options.png');
  await options.save();
  await expect(page.getByTestId('saved')).toBeVisible();
  await options.embeddingsModel.fill('none');
  await expect(embeddings).toContainText('Off: sources are ranked by their words only.');
  await options.embeddingsModel.fill('');

  await page.reload();
  await expect(options.baseURL).toHaveValue(harness.llm.baseURL);
  await expect(options.model).toHaveValue('fake-llm');

  // A wrong key is reported precisely by Test connection.
  await options.apiKey.fill('sk-wrong');
  await options.testConnection();
  await expect(options.alert).toContainText('The API key was rejected');
  // The fix is in the form on this page, not "in Settings".
  await expect(options.alert).toContainText('Check the API key above');

  // Invalid input is refused with a message, not saved.
  await options.baseURL.fill('not a url');
  await options.save();
  await expect(options.alert.first()).toContainText('valid http(s) URL');
});

test('options opened for the first time claim nothing was found at an endpoint nobody contacted', async ({ openOptions, picture }) => {
  const options = await openOptions();
  await expect(options.baseURL).toHaveValue('https://api.openai.com/v1');
  const embeddings = options.embeddingsField;
  await expect(embeddings).toContainText('OpenAI offers text-embedding-3-small to every account');
  await expect(embeddings).not.toContainText('Found at the endpoint');
  await options.page.setViewportSize({ width: 760, height: 700 });
  await picture(options.page, 'options-first-open.png');
});
