import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { followUp, verifyWithMarks } from './scenes.ts';
import { checkThisPage } from './check-page-scene.ts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe-core over the page in light and dark mode: no serious or critical violation. */
async function audit(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG).analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const other = violations.filter((v) => !bad.includes(v));
    if (other.length) test.info().annotations.push({ type: 'axe (minor/moderate)', description: `${what}, ${colorScheme}: ${other.map((v) => `${v.id} ×${v.nodes.length}`).join(', ')}` });
    expect(
      bad.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.slice(0, 240)) })),
      `${what} (${colorScheme})`,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}

test('axe-core: the panel (welcome, thread with answers, tab picker, history) and the settings have no serious or critical violation', async ({ context, extensionId, harness, configureForHarness, openPanel, sidePanel }) => {
  const welcome = await openPanel();
  await welcome.getByTestId('onboarding').waitFor();
  await welcome.getByText('Ollama on this computer', { exact: true }).click();
  await audit(welcome, 'panel: welcome');
  await welcome.close();

  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.getByRole('heading', { level: 1 }).waitFor();
  await audit(options, 'settings');

  const { panel: panelView } = await followUp({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await panel.getByTestId('trace').last().locator(':scope > summary').click();
  await audit(panel, 'panel: thread');
  await panel.getByRole('textbox', { name: 'Question' }).pressSequentially('@');
  await panel.getByRole('listbox').waitFor();
  await audit(panel, 'panel: tab picker');
  await panel.getByRole('textbox', { name: 'Question' }).press('Escape');
  await panel.getByRole('tab', { name: 'History' }).click();
  await panel.locator('.history-list li').first().waitFor();
  await audit(panel, 'panel: history');
});

test('axe-core: a page with verdict marks, and the panel that made them', async ({ context, worker, harness, configureForHarness, sidePanel }) => {
  const { panel: panelView, page } = await verifyWithMarks({ context, worker, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await audit(page, 'page with marks');
  await page.locator('[data-ratify-mark][tabindex="0"]').first().focus();
  await audit(page, 'page with marks, tooltip open');
  await audit(panel, 'panel: verification');
});

test('keyboard: arrow keys move between the panel’s tabs, every control shows where the focus is', async ({ configureForHarness, openPanel }) => {
  await configureForHarness();
  const panel = await openPanel();
  const ask = panel.getByRole('tab', { name: 'Ask' });
  const history = panel.getByRole('tab', { name: 'History' });
  await ask.focus();
  await panel.keyboard.press('ArrowRight');
  await expect(history).toBeFocused();
  await expect(history).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'history-tab');
  await panel.keyboard.press('ArrowRight');
  await expect(ask).toBeFocused();
  await expect(ask).toHaveAttribute('aria-selected', 'true');
  await panel.keyboard.press('End');
  await expect(history).toBeFocused();
  await panel.keyboard.press('Home');
  await expect(ask).toBeFocused();
  // Tab through the panel: each stop is visibly focused (an outline of at least 2 px).
  for (let i = 0; i < 10; i++) {
    await panel.keyboard.press('Tab');
    const focus = await panel.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return { tag: 'body', outline: 2 };
      const s = getComputedStyle(el);
      return { tag: `${el.tagName}#${el.id}.${el.className}`, outline: s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth) };
    });
    expect(focus.outline, focus.tag).toBeGreaterThanOrEqual(2);
  }
});

test('axe-core: the panel’s start and a page check report, and the checked page with its marks', async ({ context, harness, configureForHarness, openPanel, sidePanel }) => {
  test.setTimeout(90_000);
  await configureForHarness();
  const start = await openPanel();
  await start.getByTestId('start').waitFor();
  await audit(start, 'panel: start');
  await start.close();
  const { panel: panelView, article } = await checkThisPage({ context, harness, configureForHarness, sidePanel });
  const panel = panelView.page;
  await audit(panel, 'panel: page check report');
  await audit(article, 'checked page with marks');
});
