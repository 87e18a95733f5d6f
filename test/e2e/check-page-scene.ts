/** "Check this page" on the fixture news article (test/fixtures/site/check/landmarks.html) with the
 * Eiffel Tower and Marie Curie articles open as evidence: the e2e spec asserts on it, the
 * screenshots picture it. The scripted model lists the article's claims as a model that reads the
 * page would: only those the page shows it (the hidden sentence, the menu and the footer are in
 * the script too, and must never come up). */
import type { Page } from '@playwright/test';
import { pipelineResponder, type ScenarioClaim } from '../harness/pipeline-responder.ts';
import type { Latency, Responder } from '../harness/fake-llm.ts';
import type { SceneFixtures } from './scenes.ts';
import type { Panel } from './pages/panel.ts';
import { PageMarks } from './pages/page-marks.ts';

export const ARTICLE = '/check/landmarks.html';

export const LANDMARK_CLAIMS: ScenarioClaim[] = [
  {
    claim: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
    phrase: 'completed in March 1889',
    verdict: 'corrected',
    corrected: 'The Eiffel Tower was completed in 1889 and is 330 metres tall.',
    query: 'Eiffel Tower completed height',
    worthiness: 0.95,
  },
  {
    claim: 'Marie Curie won the Nobel Prize in Chemistry in 1921 for the discovery of polonium and radium.',
    sentence: 'She won the Nobel Prize in Chemistry in 1921 for the discovery of polonium and radium.',
    phrase: 'In 1911 she received the Nobel Prize in Chemistry',
    verdict: 'corrected',
    corrected: 'Marie Curie won the Nobel Prize in Chemistry in 1911 for the discovery of polonium and radium.',
    query: 'Marie Curie Nobel Prize Chemistry',
    worthiness: 0.9,
  },
  {
    claim: 'The Eiffel Tower was designed by Gustave Eiffel alone, without help from other engineers.',
    sentence: 'The tower was designed by Gustave Eiffel alone, without help from other engineers.',
    phrase: 'Maurice Koechlin and Émile Nouguier',
    verdict: 'refuted',
    corrected: "The Eiffel Tower's design is credited to Maurice Koechlin and Émile Nouguier, engineers at Gustave Eiffel's company.",
    query: 'Eiffel Tower design engineers',
    worthiness: 0.85,
  },
  { claim: 'Marie Curie was born in Warsaw on 7 November 1867.', phrase: 'born in Warsaw', verdict: 'supported', query: 'Marie Curie born Warsaw', worthiness: 0.8 },
  {
    claim: 'Marie Curie moved to Paris in late 1891 and enrolled at the Sorbonne.',
    sentence: 'In late 1891 she moved to Paris, where she enrolled at the Sorbonne.',
    phrase: 'In late 1891 she moved to Paris',
    verdict: 'supported',
    query: 'Marie Curie born Warsaw',
    worthiness: 0.75,
  },
  {
    claim: 'The Eiffel Tower was the tallest man-made structure in the world until the Chrysler Building was finished in New York City in 1930.',
    sentence: 'It was the tallest man-made structure in the world until the Chrysler Building was finished in New York City in 1930.',
    phrase: 'Chrysler Building',
    verdict: 'supported',
    query: 'Eiffel Tower tallest structure Chrysler Building',
    worthiness: 0.7,
  },
  {
    claim: 'The Eiffel Tower receives around six million visitors a year.',
    sentence: 'Today it receives around six million visitors a year, which makes it one of the most visited paid monuments in the world.',
    phrase: 'six million visitors',
    verdict: 'supported',
    query: 'Eiffel Tower visitors a year',
    worthiness: 0.6,
  },
  { claim: "Marie Curie's laboratory notebooks are kept in lead-lined boxes to this day.", sentence: 'Her laboratory notebooks are said to be kept in lead-lined boxes to this day.', query: 'Marie Curie notebooks lead boxes', worthiness: 0.4 },
  // Text a reader of the page does not see as the article: never listed, checked or marked.
  { claim: 'The Eiffel Tower was moved to Lyon in 1950.', verdict: 'refuted', corrected: 'The Eiffel Tower stands in Paris.', phrase: 'Champ de Mars', worthiness: 1 },
  { claim: 'Landmark News was founded in 1921 and employs 400 journalists.', verdict: 'supported', worthiness: 1 },
  { claim: 'The Landmark News newsletter reached 80,000 readers in 2019.', sentence: 'Subscribe: our newsletter reached 80,000 readers in 2019.', verdict: 'supported', worthiness: 1 },
];

/** Page sentence id (in the fixture) → the verdicts its marks show, in order. */
export const EXPECTED_MARKS: Record<string, string[]> = {
  's-eiffel': ['Corrected', 'Supported'],
  's-design': ['Refuted', 'Supported'],
  's-curie': ['Supported', 'Supported'],
  's-nobel': ['Corrected'],
  's-unverifiable': ['Unverifiable'],
};

export const SUMMARY = '8 claims: 4 supported · 2 corrected · 1 refuted · 1 unverifiable';

/** The article and its evidence tabs open, the panel beside them; "Check this page" clicked in the
 * panel's start. Returns without waiting for the end (`finished` does). */
export async function startPageCheck(f: SceneFixtures, o: { latency?: Latency; claims?: ScenarioClaim[]; wrap?: (model: Responder) => Responder } = {}): Promise<{ panel: Panel; article: Page; url: string }> {
  const model = pipelineResponder({ claims: o.claims ?? LANDMARK_CLAIMS });
  f.harness.llm.setResponder(o.wrap ? o.wrap(model) : model);
  if (o.latency) f.harness.llm.setLatency(o.latency);
  await f.configureForHarness();
  for (const path of ['/articles/eiffel-tower.html', '/articles/marie-curie.html']) await (await f.context.newPage()).goto(f.harness.site.url(path));
  const url = f.harness.site.url(ARTICLE);
  const article = await f.context.newPage();
  await article.goto(url);
  const panel = await f.sidePanel();
  // The user is reading the article; the panel (here a tab beside it) offers to check it.
  await article.bringToFront();
  const start = panel.page.getByTestId('start');
  await start.getByText('Two landmarks of Paris').waitFor();
  await start.getByRole('button', { name: 'Check this page' }).click();
  return { panel, article, url };
}

export async function finished(panel: Panel): Promise<void> {
  await panel.waitForEnd('Done', 40_000);
}

export async function checkThisPage(f: SceneFixtures): Promise<{ panel: Panel; article: Page; url: string }> {
  const r = await startPageCheck(f);
  await finished(r.panel);
  await new PageMarks(r.article).waitForMarks();
  return r;
}
