/**
 * Stored data this version did not write as it expects: after a downgrade (a newer Ratify raised
 * the database's version and added to it, or saved settings of a later format) or from a store
 * that is broken. The panel says what is wrong in words and keeps working where it can; it is
 * never blank. (Updates from an older version: update.spec.ts.)
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

import type { Harness } from '../harness/index.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';

/** A confident model answers in two calls, with the question's subject in the answer. */
const answers = (harness: Harness) => harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.9 } }));

/** Runs in an extension page, on the extension's own IndexedDB, the way another version of
 * Ratify (or a damaged profile) would leave it. */
async function reshapeDatabase(page: Page, how: 'newer' | 'broken'): Promise<void> {
  await page.evaluate(async (how) => {
    const open = (version: number, upgrade: (db: IDBDatabase, tx: IDBTransaction) => void) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('ratify', version);
        req.onupgradeneeded = () => upgrade(req.result, req.transaction!);
        req.onsuccess = () => {
          req.result.close();
          resolve();
        };
        req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
        req.onblocked = () => reject(new Error('blocked by an open connection'));
      });
    if (how === 'newer') {
      // What a later Ratify with schema version 5 might leave: a new table and the old ones kept.
      await open(50, (db) => db.createObjectStore('notes', { keyPath: 'id' }));
    } else {
      await new Promise<void>((resolve, reject) => {
        const del = indexedDB.deleteDatabase('ratify');
        del.onsuccess = () => resolve();
        del.onerror = () => reject(del.error ?? new Error('IndexedDB request failed'));
      });
      // Ratify's version number, but its runs table without the key Ratify's schema has.
      await open(30, (db) => db.createObjectStore('runs'));
    }
  }, how);
}

test('history saved by a newer version (after a downgrade): the panel says so and shows and keeps what it can read', async ({ context, extensionId, harness, configureForHarness, sidePanel, picture }) => {
  answers(harness);
  await configureForHarness();
  const firstView = await sidePanel();
  const first = firstView.page;
  await firstView.ask('Who was Marie Curie?');
  await firstView.waitForRun(1);
  await first.close();

  const settings = await context.newPage();
  await settings.goto(`chrome-extension://${extensionId}/options.html`);
  await reshapeDatabase(settings, 'newer');

  const panelView = await sidePanel();
  const panel = panelView.page;
  await expect(panel.getByTestId('store-newer')).toContainText('Your history was saved by a newer version of Ratify');
  await expect(panel.getByTestId('store-newer')).toContainText('Its data is version 5; this version of Ratify reads version 3.');
  await panel.getByRole('tab', { name: 'History' }).click();
  await expect(panel.locator('.history-list li')).toHaveCount(1);
  await panel.locator('.history-list li').first().getByRole('button').first().click();
  await expect(panel.getByTestId('answer')).toContainText('Marie Curie');
  // And it still works: a new question is answered and kept.
  await panel.getByRole('button', { name: 'New thread' }).click();
  await panelView.ask('How tall is Mount Fuji?');
  await panelView.waitForRun(1);
  await panel.getByRole('tab', { name: 'History' }).click();
  await expect(panel.locator('.history-list li')).toHaveCount(2);
  await picture(panel, 'store-newer.png');
});

test('a store that cannot be opened: the panel says what happened and that nothing was deleted', async ({ context, extensionId, sidePanel, picture }) => {
  const settings = await context.newPage();
  await settings.goto(`chrome-extension://${extensionId}/options.html`);
  await reshapeDatabase(settings, 'broken');
  const panelView = await sidePanel();
  const panel = panelView.page;
  const problem = panel.getByTestId('store-problem');
  await expect(problem).toContainText('Ratify cannot open its saved history');
  await expect(problem).toContainText('Nothing has been deleted.');
  await expect(problem.locator('.notice-detail')).toHaveText(/\w+Error: ./);
  await picture(panel, 'store-broken.png');
});

test('a stored run this version cannot show: the panel says so in place of the view, never a blank page', async ({ context, extensionId, harness, configureForHarness, sidePanel, picture }) => {
  answers(harness);
  await configureForHarness();
  const firstView = await sidePanel();
  const first = firstView.page;
  await firstView.ask('Who was Marie Curie?');
  await firstView.waitForRun(1);
  await first.close();
  // The run's record loses its steps, as a partial write or a later format could leave it.
  const settings = await context.newPage();
  await settings.goto(`chrome-extension://${extensionId}/options.html`);
  await settings.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('ratify');
        req.onsuccess = () => {
          const tx = req.result.transaction('runs', 'readwrite');
          const runs = tx.objectStore('runs');
          const all = runs.getAll();
          all.onsuccess = () => {
            for (const run of all.result as { steps: unknown }[]) runs.put({ ...run, steps: null });
          };
          tx.oncomplete = () => {
            req.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error ?? new Error('IndexedDB request failed'));
        };
        req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
      }),
  );
  // The panel opens on that run (the last one asked).
  const panelView = await sidePanel();
  const panel = panelView.page;
  const failed = panel.getByTestId('view-failed');
  await expect(failed).toContainText('The panel could not show this');
  await expect(failed).toContainText('Your history and settings are untouched.');
  await picture(panel, 'view-failed.png');
  // Going on: a new thread, with the run still listed in History.
  await failed.getByRole('button', { name: 'Start a new thread' }).click();
  await expect(panel.getByRole('textbox', { name: 'Question' })).toBeVisible();
  await panel.getByRole('tab', { name: 'History' }).click();
  await expect(panel.locator('.history-list li')).toHaveCount(1);
  await expect(panel.locator('.history-list li').first()).toContainText('Who was Marie Curie?');
});

test('settings that cannot be read, or saved by a newer version: the panel opens and uses what it can', async ({ harness, configure, sidePanel }) => {
  answers(harness);
  await configure({ llm: 'not an object' } as never);
  const panelView = await sidePanel();
  const panel = panelView.page;
  // Unreadable model settings are the defaults: the panel asks for a model, as on first use.
  await expect(panel.getByTestId('onboarding')).toBeVisible();
  await panel.close();

  // A later format: a higher version and a section this version does not know.
  await configure({ ...harness.settingsPatch(), version: 99, notes: { sync: true } } as never);
  const laterView = await sidePanel();
  const later = laterView.page;
  await laterView.ask('Who was Marie Curie?');
  await laterView.waitForRun(1);
  await expect(later.getByTestId('answer')).toContainText('Marie Curie');
});
