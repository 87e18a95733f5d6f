import { expect, test } from './fixtures.ts';
import { chooseTabs } from './scenes.ts';

test('tabs chosen with @ (keyboard only) are the only ones read, and web search can be switched off', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel: ratify } = await chooseTabs({ context, harness, configureForHarness, sidePanel });
  const panel = ratify.page;

  // Before asking, the panel said which tabs would be read.
  const chips = panel.getByRole('list', { name: 'Chosen tabs' });
  await expect(chips.getByText(/Eiffel Tower/)).toBeVisible();
  await expect(chips.getByText(/富士山/)).toBeVisible();
  await expect(panel.getByTestId('scope-summary')).toHaveText('Tabs: 2 read, 0 skipped');

  // The trace lists exactly the two chosen tabs as read, nothing else; the web was not searched.
  await ratify.openTrace();
  const library = panel.getByTestId('library');
  await library.locator('summary').click();
  await expect(library.locator('li')).toHaveCount(2);
  await expect(library.locator(':is([data-library-status=read], [data-library-status=cached])')).toHaveCount(2);
  await expect(library).toContainText('Eiffel Tower');
  await expect(library).toContainText('富士山');
  await expect(library).not.toContainText('Marie Curie');
  expect(harness.search.requests).toHaveLength(0);
  const sources = ratify.sources;
  await expect(sources).toHaveCount(2);
  for (const r of harness.llm.chatRequests()) expect(JSON.stringify(r.body)).not.toContain('Skłodowska');
});

test('the picker: arrow keys move, Escape closes, browser pages are listed as skipped; "This tab" reads one', async ({ context, harness, configureForHarness, sidePanel }) => {
  const { panel: ratify, tabs } = await chooseTabs({ context, harness, configureForHarness, sidePanel }, { run: false });
  const panel = ratify.page;
  const box = ratify.questionBox;
  await box.press('Escape');
  await expect(panel.getByRole('listbox')).toHaveCount(0);
  await box.fill('');
  await box.pressSequentially('@');
  const options = panel.getByRole('option');
  await expect(options.filter({ hasText: 'About Version' })).toHaveAttribute('aria-disabled', 'true');
  await expect(options.filter({ hasText: 'About Version' })).toContainText('browser page');
  const active = () => box.getAttribute('aria-activedescendant');
  const first = await active();
  await box.press('ArrowDown');
  expect(await active()).not.toBe(first);
  await box.press('ArrowUp');
  expect(await active()).toBe(first);
  await box.press('Escape');
  await expect(panel.getByRole('listbox')).toHaveCount(0);

  await panel.getByLabel('Sources', { exact: true }).selectOption('page');
  await tabs[0]!.bringToFront();
  await expect(panel.getByTestId('scope-summary')).toHaveText('Tabs: 1 read, 0 skipped · web search');
  await panel.getByTestId('scope-plan').locator('summary').click();
  await expect(panel.getByTestId('scope-plan').locator('[data-plan=read]')).toContainText('Marie Curie');
  await panel.getByLabel('Sources', { exact: true }).selectOption('window');
  await expect(panel.getByTestId('scope-plan').locator('[data-plan=skipped]').filter({ hasText: 'About Version' })).toContainText('browser page');
});
