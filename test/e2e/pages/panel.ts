/**
 * The side panel as a user meets it: the question box, the runs of the thread (each with its
 * status, answer, steps, sources and verdicts), the History tab and the export buttons. The specs
 * say what the user does and sees through it; the panel's DOM is named here once.
 */
import type { BrowserContext, Locator, Page } from '@playwright/test';

/** What a run's status line says when it has ended. */
export type RunEnd = 'Done' | 'Failed' | 'Cancelled';

/** Long enough for a scripted run on a loaded two-core machine. */
const RUN_TIMEOUT = 30_000;

/** One run of the thread (`article.run`), or the whole panel when there is a single run. */
export class RunView {
  constructor(readonly root: Locator | Page) {}

  get status(): Locator {
    return this.root.getByTestId('run-status');
  }
  /** What was asked or selected, as the run shows it. */
  get input(): Locator {
    return this.root.getByTestId('run-input');
  }
  get answer(): Locator {
    return this.root.getByTestId('answer');
  }
  get understoodAs(): Locator {
    return this.root.getByTestId('understood-as');
  }
  get gateLine(): Locator {
    return this.root.getByTestId('gate-line');
  }
  /** One row per source page (`ol.sources > li`), its quotes under it. */
  get sources(): Locator {
    return this.root.locator('ol.sources > li');
  }
  /** A verification's or page check's claims, each with `data-claim-verdict`. */
  get claims(): Locator {
    return this.root.locator('.claims > li');
  }
  claimsWith(verdict: string): Locator {
    return this.root.locator(`.claims [data-claim-verdict=${verdict}]`);
  }
  get corrected(): Locator {
    return this.root.getByTestId('corrected');
  }
  get verdictSummary(): Locator {
    return this.root.getByTestId('verdict-summary');
  }
  get trace(): Locator {
    return this.root.getByTestId('trace');
  }
  /** The trace's steps (`.step[data-step=i]`, 0-based). */
  step(i: number): Locator {
    return this.root.locator(`.step[data-step="${i}"]`);
  }
  get steps(): Locator {
    return this.root.locator('.step');
  }
  get alert(): Locator {
    return this.root.getByRole('alert');
  }
  button(name: string | RegExp): Locator {
    return this.root.getByRole('button', { name });
  }

  /** The verdicts of the claims, in the order shown. */
  verdicts(): Promise<(string | null)[]> {
    return this.claims.evaluateAll((li) => li.map((l) => l.getAttribute('data-claim-verdict')));
  }

  /** Waits until the run has ended as `end` (default Done). */
  async waitForEnd(end: RunEnd = 'Done', timeout = RUN_TIMEOUT): Promise<void> {
    await this.status.filter({ hasText: end }).first().waitFor({ timeout });
  }

  /** Opens the (folded) trace of a finished run. */
  async openTrace(): Promise<void> {
    await this.trace.locator(':scope > summary').click();
  }
}

/** The History tab: every thread and page check kept, newest first. */
export class HistoryTab {
  constructor(readonly page: Page) {}

  get items(): Locator {
    return this.page.locator('.history-list li');
  }
  get search(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search history' });
  }
  item(text: string | RegExp): Locator {
    return this.items.filter({ hasText: text });
  }
  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'History' }).click();
  }
  /** Reopens a kept thread or check (its first button). */
  async reopen(item: Locator): Promise<void> {
    await item.getByRole('button').first().click();
  }
  async delete(item: Locator): Promise<void> {
    await item.getByRole('button', { name: /^Delete/ }).click();
  }
  /** "Clear all", accepting its confirmation. */
  async clearAll(): Promise<void> {
    this.page.once('dialog', (d) => void d.accept());
    await this.page.getByRole('button', { name: 'Clear all' }).click();
  }
}

export class Panel extends RunView {
  readonly history: HistoryTab;

  constructor(readonly page: Page) {
    super(page);
    this.history = new HistoryTab(page);
  }

  /** The panel's page in a normal tab (same origin and IndexedDB as the side panel itself). */
  static async open(context: BrowserContext, extensionId: string): Promise<Panel> {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/sidepanel.html`);
    return new Panel(page);
  }

  get questionBox(): Locator {
    return this.page.getByRole('textbox', { name: 'Question' });
  }
  /** The thread's runs, oldest first. */
  get runs(): Locator {
    return this.page.locator('article.run');
  }
  run(n: number): RunView {
    return new RunView(this.runs.nth(n - 1));
  }

  /** Types a question and sends it, as a user does (Enter). */
  async ask(question: string): Promise<void> {
    await this.questionBox.fill(question);
    await this.questionBox.press('Enter');
  }

  /** Asks and waits for that question's own run to end: the panel shows the new question first,
   * so a status left on screen by an earlier run cannot satisfy the wait. */
  async askAndWait(question: string, end: RunEnd = 'Done'): Promise<void> {
    await this.ask(question);
    await this.page.getByTestId('run-input').filter({ hasText: question }).first().waitFor({ timeout: RUN_TIMEOUT });
    await this.waitForRun(await this.runs.count(), end);
  }

  /** Waits until the n-th run of the thread (1-based, in the order shown) has ended as `end`. */
  async waitForRun(n: number, end: RunEnd = 'Done', timeout = RUN_TIMEOUT): Promise<void> {
    await this.status.nth(n - 1).filter({ hasText: end }).waitFor({ timeout });
  }

  async newThread(): Promise<void> {
    await this.page.getByRole('button', { name: 'New thread' }).click();
  }
  async cancel(): Promise<void> {
    await this.button('Cancel').click();
  }

  /** The Ask tab (the thread), back from History. */
  async showThread(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Ask' }).click();
  }

  /** "Copy as Markdown" / "Copy as text", then what the clipboard holds (the context must allow
   * clipboard-read). */
  async copy(as: 'Markdown' | 'text'): Promise<void> {
    await this.button(`Copy as ${as}`).first().click();
  }
  clipboard(): Promise<string> {
    return this.page.evaluate(() => navigator.clipboard.readText());
  }
  get exportStatus(): Locator {
    return this.page.getByTestId('export-status');
  }
}
