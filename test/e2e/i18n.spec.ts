import { expect, test } from './fixtures.ts';

test.describe('in a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });

  test('the panel and the options speak Simplified Chinese', async ({ context, extensionId, openPanel }) => {
    const panel = await openPanel();
    await expect(panel.getByTestId('onboarding')).toContainText('欢迎使用 Ratify');
    await expect(panel.getByRole('tab', { name: '历史' })).toBeVisible();
    await expect(panel.getByRole('textbox', { name: '问题' })).toHaveAttribute('placeholder', '就你正在阅读的内容提问…');
    await expect(panel.locator('html')).toHaveAttribute('lang', 'zh-CN');
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    await expect(options.getByRole('heading', { level: 1 })).toHaveText('Ratify 设置');
    await expect(options.getByRole('button', { name: '测试连接' })).toBeVisible();
  });
});

test('the language setting overrides the browser', async ({ configure, openPanel }) => {
  await configure({ ui: { language: 'zh-CN' } });
  const panel = await openPanel();
  await expect(panel.getByTestId('onboarding')).toContainText('欢迎使用 Ratify');
  await configure({ ui: { language: 'en' } });
  await expect(panel.getByTestId('onboarding')).toContainText('Welcome to Ratify');
});
