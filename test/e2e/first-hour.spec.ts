/** The first hour on a fresh install (Ratify may not read sites yet): every message about the
 * model server says what really happened, and the one thing to do, with the button that does it. */
import { createServer } from 'node:net';
import { expect, test } from './fixtures.ts';
import { allowOnDetailsPage, grantSiteAccess } from './launch.ts';

import { pipelineResponder } from '../harness/pipeline-responder.ts';

const userMessage = (body: unknown) => ((body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? '');

test.use({ siteAccess: false });

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const port = (srv.address() as { port: number }).port;
  await new Promise((ok) => srv.close(ok));
  return port;
}

test('Ollama refusing the extension is said as such before sites may be read: the notice with the OLLAMA_ORIGINS command, in the welcome card and in a run', async ({ extensionId, harness, configureForHarness, sidePanel, picture }) => {
  harness.llm.setRejectExtensionOrigins(true);
  harness.llm.setApiKey(undefined);
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panel.getByTestId('onboarding').getByText('Ollama on this computer', { exact: true }).click();
  const way = panel.getByTestId('onboarding').locator('details', { hasText: 'Ollama on this computer' });
  await way.getByLabel('Base URL').fill(harness.llm.baseURL);
  await way.getByRole('button', { name: 'Test' }).click();
  const alert = way.getByRole('alert');
  await expect(alert.locator('.notice-title')).toHaveText('Ollama refused the extension', { timeout: 20_000 });
  await expect(alert.getByTestId('ollama-command')).toContainText(`chrome-extension://${extensionId}`);
  await panel.setViewportSize({ width: 420, height: 900 });
  await picture(panel, 'welcome-ollama-refused.png');

  // The same in a run, set up as Ollama.
  await configureForHarness({ llm: { preset: 'ollama', apiKey: '' } });
  await expect(panel.getByTestId('onboarding')).toHaveCount(0);
  await panelView.ask('What is the capital of France?');
  const runAlert = panel.getByRole('alert');
  await expect(runAlert.locator('.notice-title')).toHaveText('Ollama refused the extension', { timeout: 20_000 });
  await expect(runAlert.getByTestId('ollama-command')).toContainText(`chrome-extension://${extensionId}`);
  await expect(panel.getByTestId('site-access')).toHaveCount(0);
});

test('Ollama not running is said as such, with how to start it', async ({ configureForHarness, sidePanel, picture }) => {
  const port = await closedPort();
  await configureForHarness({ llm: { preset: 'ollama', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: '' } });
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('What is the capital of France?');
  const alert = panel.getByRole('alert');
  await expect(alert.locator('.notice-title')).toHaveText('Ollama isn’t running', { timeout: 20_000 });
  await expect(alert).toContainText('ollama serve');
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  await panel.setViewportSize({ width: 420, height: 900 });
  await picture(panel, 'panel-ollama-down.png');
});

test('in the welcome card a rejected key points at the key field above, not at Settings', async ({ harness, sidePanel, picture }) => {
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panel.getByTestId('onboarding').getByText('An API key', { exact: true }).click();
  const way = panel.getByTestId('onboarding').locator('details', { hasText: 'An API key' });
  await way.getByLabel('Provider').selectOption('custom');
  await way.getByLabel('Base URL').fill(harness.llm.baseURL);
  await way.getByLabel('API key').fill('sk-wrong');
  await way.getByRole('button', { name: 'Test' }).click();
  const alert = way.getByRole('alert');
  await expect(alert.locator('.notice-title')).toHaveText('The API key was rejected');
  await expect(alert).toContainText('Check the API key above');
  await expect(alert).not.toContainText('Settings');
  await panel.setViewportSize({ width: 420, height: 900 });
  await picture(panel, 'welcome-key-rejected.png');
});

test('"Summarize this page" asked before access, then allowed: Run again reads the page it could not read before', async ({ context, extensionId, harness, configureForHarness, sidePanel }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.3, aboutPage: true }, steps: ['The page is about Marie Curie.'], facts: [{ phrase: 'born in Warsaw' }], finalAnswer: 'The page is a biography of Marie Curie.' }));
  await configureForHarness();
  const article = await context.newPage();
  await article.goto(harness.site.url('/articles/marie-curie.html'));
  const panelView = await sidePanel();
  const panel = panelView.page;
  await article.bringToFront();
  await panel.getByTestId('page-chip').getByText('Marie Curie').first().waitFor();
  await panelView.ask('Summarize this page');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  // The draft is the call that reads the page (the gate, which writes web searches, never does).
  const drafts = () => harness.llm.chatRequests().filter((r) => r.stage === 'draft');
  // Without access only the title and address could go with the question.
  expect(drafts().length).toBeGreaterThan(0);
  for (const d of drafts()) {
    expect(userMessage(d.body)).toContain('<<<DATA kind="page" title="Marie Curie');
    expect(userMessage(d.body)).not.toContain('Marie Skłodowska-Curie (7 November 1867');
  }

  await allowOnDetailsPage(context, extensionId);
  await panel.bringToFront();
  const prompt = panel.getByTestId('site-access');
  await prompt.getByRole('button', { name: 'Allow reading sites' }).click();
  await expect(prompt).toHaveAttribute('data-state', 'granted');
  const before = drafts().length;
  await prompt.getByRole('button', { name: 'Run again' }).click();
  await expect.poll(() => drafts().length, { timeout: 20_000 }).toBeGreaterThan(before);
  await expect(panel.locator('article.run').last().getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  // One draft, or two when the one sent beside the gate (from the question as typed) is
  // cancelled by the gate's "about this page": each now carries the page's text.
  const again = drafts().slice(before);
  expect(again.length).toBeGreaterThan(0);
  for (const d of again) expect(userMessage(d.body)).toContain('Marie Skłodowska-Curie (7 November 1867');
});

test('a server that cannot be reached, then sites allowed: no "Ratify may now read your tabs… Run again" box beside the error', async ({ context, extensionId, configureForHarness, sidePanel, picture }) => {
  const port = await closedPort();
  await configureForHarness({ llm: { baseURL: `http://127.0.0.1:${port}/v1` } });
  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('What is the capital of France?');
  await expect(panel.getByRole('alert').locator('.notice-title')).toHaveText('Could not reach the model server', { timeout: 20_000 });
  // Allowed from Settings (details page, then its button), as a user might while puzzling.
  await grantSiteAccess(context, extensionId);
  await panel.bringToFront();
  await panel.reload();
  await expect(panel.getByRole('alert').locator('.notice-title')).toHaveText('Could not reach the model server');
  await expect(panel.getByTestId('site-access')).toHaveCount(0);
  // Retry (continue) in the notice; one Run again (start over) under the run.
  await expect(panel.getByRole('button', { name: 'Retry' })).toHaveCount(1);
  await expect(panel.getByRole('button', { name: 'Run again' })).toHaveCount(1);
  await panel.setViewportSize({ width: 420, height: 700 });
  await picture(panel, 'unreachable-after-grant.png');
});
