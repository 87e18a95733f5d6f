import { expect, test } from './fixtures.ts';
import { expectedList, makeRuns, storeRuns } from '../../bench/extension/seed-runs.ts';

// What a user with a long history relies on: the list opens, the newest runs are on top, and
// searching narrows it to the matching runs. Realistic records (steps, passages, sources) written
// straight into the extension's IndexedDB; see bench/extension/seed-runs.ts. Times are reported as
// annotations, not asserted (a loaded machine would make a ceiling flaky); the benchmark
// (bench/extension/measure.ts) tracks them.
test('history with 1,000 stored runs opens newest first and search narrows it', async ({ openPanel, sidePanel }) => {
  const runs = makeRuns(1000);
  const seeder = await openPanel();
  await storeRuns(seeder, runs, { clear: true });
  await seeder.close();

  const ratify = await sidePanel();
  const { history } = ratify;
  await expect(ratify.questionBox).toBeVisible();
  const items = history.items;
  const newest = expectedList(runs);

  const t0 = Date.now();
  await history.open();
  await expect(items.first()).toBeVisible();
  const openMs = Date.now() - t0;
  await expect(items.first()).toContainText(newest[0]!.text);
  // Newest first: the top of the list is the most recent runs, in order.
  const topIds = await items.evaluateAll((lis) => lis.slice(0, 10).map((li) => li.getAttribute('data-run-id')));
  expect(topIds).toEqual(newest.slice(0, 10).map((r) => r.id));

  const query = 'krakatoa';
  const matching = expectedList(runs, query);
  expect(matching.length).toBeGreaterThan(10);
  expect(matching.length).toBeLessThan(runs.length / 5);
  const t1 = Date.now();
  await history.search.fill(query);
  await expect(items).toHaveCount(matching.length);
  const searchMs = Date.now() - t1;
  const shownIds = await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-run-id')));
  expect(shownIds).toEqual(matching.map((r) => r.id)); // exactly the matches, still newest first

  await history.search.fill('');
  await expect(items.first()).toHaveAttribute('data-run-id', newest[0]!.id);

  test.info().annotations.push({ type: 'timing', description: `history open ${openMs} ms, search ${searchMs} ms (Playwright round trips included)` });
});
