/**
 * Redirects in the real browser, where fetch hides a manual redirect's target from the extension
 * (an "opaque redirect"): the model endpoint answering 307 to another origin gets a clear error
 * and the prompt never arrives there; a search result page that redirects is not followed (its
 * snippet stands in) even with private-network pages allowed. (Node follows the same code with
 * the target visible: test/unit/security/.)
 */
import { listen, type Listening } from '../harness/http-util.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { expect, test } from './fixtures.ts';

/** A server answering every request with `status` to the same path on `target`. */
function redirector(target: string, status: number): Promise<Listening> {
  return listen((req, res) => {
    res.writeHead(status, { location: `${target}${req.url ?? '/'}`, 'access-control-allow-origin': '*' });
    res.end();
  });
}

test('a model endpoint redirecting to another host: the prompt stays, the error names the redirect', async ({ harness, configureForHarness, sidePanel }) => {
  harness.llm.reset();
  const r = await redirector(harness.llm.origin, 307);
  try {
    await configureForHarness({ llm: { baseURL: `${r.origin}/v1` } });
    const panel = await sidePanel();
    await panel.ask('What is my account recovery code?');
    const alert = panel.alert;
    await expect(alert).toBeVisible({ timeout: 30_000 });
    await alert.getByText('Details').click();
    await expect(alert.locator('.notice-detail')).toContainText(`${r.origin} answered with a redirect`);
    // The endpoint the redirect pointed at (the fake LLM, another origin) received nothing.
    expect(harness.llm.chatRequests()).toEqual([]);
  } finally {
    await r.close();
  }
});

test('a search result page that redirects is not followed in the browser; its snippet stands in', async ({ harness, configureForHarness, sidePanel }) => {
  const { site, search, llm } = harness;
  site.addPage('/generated/intranet-secret.html', '<html><head><title>Intranet</title></head><body><article><p>Tomatoes intranet secret: salary table of everyone.</p></article></body></html>');
  const r = await redirector(site.origin, 302);
  try {
    search.setCorpus([{ title: 'Tomato growing guide', url: `${r.origin}/generated/intranet-secret.html`, text: 'Tomatoes need full sun and steady watering, says this guide.', lang: 'en' }]);
    llm.setResponder(pipelineResponder({ steps: ['Tomatoes need full sun.'], facts: [{ phrase: 'full sun' }] }));
    await configureForHarness({ search: { wikipedia: { enabled: false }, searxng: { enabled: true } } });
    const panel = await sidePanel();
    await panel.ask('How much sun do tomatoes need?');
    await expect(panel.status).toHaveText('Done', { timeout: 60_000 });
    expect(search.requestsFor('searxng').length).toBeGreaterThan(0);
    expect(site.requests.map((q) => q.path)).not.toContain('/generated/intranet-secret.html');
    const prompts = JSON.stringify(llm.chatRequests().map((q) => q.body));
    expect(prompts).toContain('steady watering'); // the snippet
    expect(prompts).not.toContain('salary table');
  } finally {
    await r.close();
  }
});
