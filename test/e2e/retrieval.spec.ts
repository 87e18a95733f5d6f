import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';

test('a question is answered from open tabs and web search, with a trace of what was read or skipped, and citations that open their tab', async ({
  context,
  harness,
  configureForHarness,
  sidePanel,
  picture,
}) => {
  const port = new URL(harness.site.origin).port;
  const curieUrl = harness.site.url('/articles/marie-curie.html');
  // Open tabs: an article (read), a page on an excluded domain (skipped), a login form (read,
  // but never its password), a browser page (skipped).
  const curie = await context.newPage();
  await curie.goto(curieUrl);
  const bank = await context.newPage();
  await bank.goto(`http://mybank.test:${port}/articles/louvre.html`);
  const login = await context.newPage();
  await login.goto(harness.site.url('/forms/login.html'));
  await login.locator('input[type=password]').fill('hunter2-secret');
  const internal = await context.newPage();
  await internal.goto('chrome://version');

  harness.llm.setResponder(
    pipelineResponder({
      // The gate writes the web searches, one per thing to look up, as a model does.
      gate: { label: 'clear', confidence: 0.2, search: ['Marie Curie moved to Paris', 'Eiffel Tower completed'] },
      steps: ['Marie Curie moved to Paris in 1891.', 'The Eiffel Tower was completed in 1889.'],
      facts: [
        { step: 0, phrase: 'moved to Paris' },
        { step: 1, phrase: 'completed in March 1889', revised: 'The Eiffel Tower was completed in March 1889.' },
      ],
      finalAnswer: 'Marie Curie moved to Paris in 1891, two years after the Eiffel Tower was completed in March 1889.',
    }),
  );
  await configureForHarness({ privacy: { excludedDomains: ['mybank.test'] } });

  const panelView = await sidePanel();
  const panel = panelView.page;
  await panelView.ask('Did Marie Curie arrive in Paris before or after the Eiffel Tower was finished?');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });

  await expect(panel.getByTestId('gate-line')).toContainText('Checked against sources: on its own the model was only 20% sure.');
  // The library trace: which tabs were read and which were skipped, and why.
  // The trace is folded once the answer is done: open it.
  await panel.getByTestId('trace').locator(':scope > summary').click();
  const library = panel.getByTestId('library');
  await library.locator('summary').click();
  await expect(library.locator(':is([data-library-status=read], [data-library-status=cached])', { hasText: 'Marie Curie' }).filter({ hasText: 'open tab' })).toBeVisible();
  await expect(library.locator('[data-library-status=skipped]', { hasText: /mybank\.test|Louvre/ })).toContainText(/exclud/i);
  await expect(library.locator('[data-library-status=skipped]', { hasText: /chrome:\/\/version|About Version/i })).toBeVisible();

  // What went to the web: the gate's searches, written from the question alone; the steps'
  // own queries searched this computer only, and the trace says why.
  await expect(panel.getByTestId('web-plan')).toContainText('Searched the web for “Marie Curie moved to Paris” · “Eiffel Tower completed”.');
  await expect(panel.getByTestId('web-plan-local')).toContainText('looked only at your open tabs');
  // Passages came from both an open tab and web search.
  await expect(panel.locator('.passage[data-origin=tab]').first()).toBeAttached();
  await expect(panel.locator('.passage[data-origin=web]').first()).toBeAttached();
  // Nothing typed into the password field reached the model.
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toContain('hunter2-secret');

  // The answer cites its sources, numbered in order of first use.
  const answer = panel.getByTestId('answer');
  await expect(answer).toContainText('Marie Curie moved to Paris in 1891');
  const sources = panel.locator('ol.sources > li');
  await expect(sources).toHaveCount(2);
  await expect(sources.nth(0)).toContainText('Marie Curie');
  await expect(sources.nth(0)).toContainText('open tab');
  await expect(sources.nth(1)).toContainText('Eiffel');
  await expect(sources.nth(1)).toContainText('web');

  await panel.setViewportSize({ width: 420, height: 1400 });
  await panel.getByTestId('library').locator('summary').click(); // fold the library list for the picture
  await picture(panel, 'panel-answer.png');

  // Clicking citation 1 focuses the open Marie Curie tab and selects the passage there.
  await panel.bringToFront();
  await answer.getByRole('button', { name: /^Source 1/ }).click();
  await expect.poll(() => curie.evaluate(() => document.visibilityState)).toBe('visible');
  await expect.poll(() => curie.evaluate(() => window.getSelection()?.toString() ?? '')).toMatch(/moved to Paris/);
});
