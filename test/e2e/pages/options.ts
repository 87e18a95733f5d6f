/** Ratify's settings page (options.html) as a user fills it in. */
import type { BrowserContext, Locator, Page } from '@playwright/test';

export class OptionsPage {
  constructor(readonly page: Page) {}

  static async open(context: BrowserContext, extensionId: string): Promise<OptionsPage> {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    return new OptionsPage(page);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get provider(): Locator {
    return this.page.getByLabel('Provider');
  }
  get baseURL(): Locator {
    return this.page.getByLabel('Base URL', { exact: true });
  }
  get apiKey(): Locator {
    return this.page.getByLabel('API key', { exact: true });
  }
  get model(): Locator {
    return this.page.getByLabel('Model', { exact: true });
  }
  get embeddingsModel(): Locator {
    return this.page.getByLabel(/Embeddings model/);
  }
  /** The embeddings model's field with its note (what was found at the endpoint). */
  get embeddingsField(): Locator {
    return this.page.locator('.field', { has: this.embeddingsModel });
  }
  /** "Allow reading sites": its `data-state` is granted or not-granted. */
  get siteAccess(): Locator {
    return this.page.getByTestId('site-access-setting');
  }
  get alert(): Locator {
    return this.page.getByRole('alert');
  }

  /** An OpenAI-compatible endpoint typed in by hand. */
  async fillEndpoint(o: { baseURL: string; apiKey: string; model: string }): Promise<void> {
    await this.provider.selectOption('custom');
    await this.baseURL.fill(o.baseURL);
    await this.apiKey.fill(o.apiKey);
    await this.model.fill(o.model);
  }
  async testConnection(): Promise<void> {
    await this.page.getByRole('button', { name: 'Test connection' }).click();
  }
  async save(): Promise<void> {
    await this.page.getByRole('button', { name: 'Save' }).click();
  }
}
