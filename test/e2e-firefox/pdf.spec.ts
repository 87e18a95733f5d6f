/**
 * Firefox: a PDF open in a tab (Firefox's own pdf.js viewer, which extensions cannot script) is
 * read by the add-on's background page with pdf.js, and its citation carries the page.
 */
import { writeFile } from 'node:fs/promises';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { expect, FirefoxPanel, test } from './fixtures.ts';

test('Firefox: a PDF tab is a source with a page-numbered citation', async ({ firefox, harness }, testInfo) => {
  const pdf = await firefox.browser.newPage();
  await pdf.goto(harness.site.url('/pdf/glacier-survey.pdf'));
  const finding = 'The Kessler Glacier retreated 212 metres between 2014 and 2024.';
  harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.2 },
      steps: ['The Kessler Glacier retreated about 200 metres in the last decade.'],
      facts: [{ step: 0, phrase: 'retreated 212 metres', revised: finding }],
      finalAnswer: finding,
    }),
  );
  const panel = await FirefoxPanel.forHarness(firefox, harness, { search: { wikipedia: { enabled: false } } });
  await panel.ask('How far has the Kessler Glacier retreated?');
  await panel.waitForRuns(1, 60_000);
  const sources = await panel.sources();
  expect(sources).toHaveLength(1);
  expect(sources[0]).toContain('Survey of the Kessler Glacier, 2024');
  expect(sources[0]).toContain('open tab');
  expect(await panel.texts('ol.sources .quote-page')).toEqual(['p. 3']);
  await panel.page.setViewport({ width: 420, height: 900 });
  await writeFile(testInfo.outputPath('firefox-pdf.png'), await panel.page.screenshot());
});
