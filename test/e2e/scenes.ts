/**
 * The panel's main situations, set up the way a user gets there: the e2e specs assert on them and
 * the screenshot command (`npm run screenshots`, test/screenshots/) pictures them. Each takes the
 * e2e fixtures and returns the pages involved.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { Harness } from '../harness/index.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import type { SettingsPatch } from '../../lib/settings/schema.ts';
import { clickVerify } from './verify-click.ts';
import type { Panel } from './pages/panel.ts';
import { PageMarks } from './pages/page-marks.ts';

export interface SceneFixtures {
  context: BrowserContext;
  harness: Harness;
  configureForHarness: (patch?: SettingsPatch) => Promise<void>;
  sidePanel: () => Promise<Panel>;
}

/** An article open with a query string and fragment, the panel beside it, "Summarize this page". */
export async function summarizeThisPage(f: SceneFixtures): Promise<{ panel: Panel; article: Page; url: string }> {
  const url = f.harness.site.url('/articles/marie-curie.html?session=s3cr3t-token&utm_source=mail#early-life');
  f.harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.3, aboutPage: true },
      steps: ['The page is about Marie Curie, a physicist and chemist born in Warsaw in 1867.', 'She moved to Paris in 1891 and shared the 1903 Nobel Prize in Physics.'],
      facts: [
        { step: 0, phrase: 'born in Warsaw' },
        { step: 1, phrase: 'shared the Nobel Prize in Physics' },
      ],
      finalAnswer: 'The page is a biography of **Marie Curie**: born in Warsaw in 1867, she moved to Paris in 1891 and shared the 1903 Nobel Prize in Physics.',
    }),
  );
  await f.configureForHarness();
  const article = await f.context.newPage();
  await article.goto(url);
  const panel = await f.sidePanel();
  // The user is reading the article; the panel (here a tab beside it) asks about that page.
  await article.bringToFront();
  await panel.page.getByTestId('page-chip').getByText('Marie Curie').first().waitFor();
  await panel.ask('Summarize this page');
  await panel.waitForRun(1);
  return { panel, article, url };
}

const CURIE_FACTS = {
  steps: (q: string) => (/born/.test(q) ? ['Marie Curie was born in Warsaw.'] : ['Marie Curie was a physicist and chemist who shared the 1903 Nobel Prize in Physics.']),
  facts: [{ phrase: 'born in Warsaw' }, { phrase: 'Nobel Prize in Physics' }],
};

/** A first question, then a follow-up ("Where was she born?") that the gate resolves from the thread. */
export async function followUp(f: SceneFixtures): Promise<{ panel: Panel }> {
  f.harness.llm.setResponder(
    pipelineResponder({
      // Like a model: "she" is resolved only when the conversation says who was asked about.
      gate: { label: 'incomplete', question: (q, prompt) => (/she/.test(q) && prompt.includes('Q1: Who was Marie Curie?') ? 'Where was Marie Curie born?' : q), confidence: 0.2 },
      ...CURIE_FACTS,
    }),
  );
  await f.configureForHarness();
  const panel = await f.sidePanel();
  await panel.ask('Who was Marie Curie?');
  await panel.waitForRun(1);
  await panel.ask('Where was she born?');
  await panel.waitForRun(2);
  return { panel };
}

/** Three articles and a browser page open; two articles chosen with @, web search off. */
export async function chooseTabs(f: SceneFixtures, opts: { run?: boolean } = {}): Promise<{ panel: Panel; tabs: Page[] }> {
  f.harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.1 },
      steps: ['The Eiffel Tower is 330 metres tall.', 'Mount Fuji is 3,776 metres high.'],
      facts: [
        { step: 0, phrase: '330 metres' },
        { step: 1, phrase: '3776メートル' },
      ],
      // The draft sees the tabs' catalogue (titles and languages), so it searches the Japanese
      // tab in Japanese, as a model is asked to.
      nextQuery: (_revised, draft) => (draft.startsWith('Mount Fuji') ? '富士山 標高 3776メートル' : draft),
      finalAnswer: 'Mount Fuji (3,776 m) is more than eleven times as tall as the Eiffel Tower (330 m).',
    }),
  );
  await f.configureForHarness();
  const tabs: Page[] = [];
  for (const path of ['/articles/marie-curie.html', '/articles/eiffel-tower.html', '/articles/mount-fuji.html']) {
    const p = await f.context.newPage();
    await p.goto(f.harness.site.url(path));
    tabs.push(p);
  }
  const internal = await f.context.newPage();
  await internal.goto('chrome://version');
  tabs.push(internal);
  const panel = await f.sidePanel();
  const box = panel.questionBox;
  await box.pressSequentially('@eiff');
  await panel.page.getByRole('option', { name: /Eiffel/ }).waitFor();
  await box.press('Enter');
  await box.pressSequentially('@fuji');
  // The Mount Fuji article is in Japanese (富士山); the picker matches its address too.
  await panel.page.getByRole('option', { name: /富士山/ }).waitFor();
  if (opts.run === false) return { panel, tabs };
  await box.press('Enter');
  await panel.page.getByLabel('Web search').uncheck();
  await box.pressSequentially('How many times taller is Mount Fuji than the Eiffel Tower?');
  await box.press('Enter');
  await panel.waitForRun(1);
  return { panel, tabs };
}

/** An answer with a Markdown table and a very long URL, its sources and its (folded) trace. */
export async function answerFirst(f: SceneFixtures): Promise<{ panel: Panel }> {
  const table = ['| Landmark | Height | Completed |', '| --- | ---: | --- |', '| Eiffel Tower | 330 m | 1889 |', '| Mount Fuji | 3,776 m | — |'].join('\n');
  f.harness.llm.setResponder(
    pipelineResponder({
      gate: { label: 'clear', confidence: 0.1 },
      steps: ['The Eiffel Tower is 330 metres tall and was completed in 1889.', 'Mount Fuji is 3,776 metres high.'],
      facts: [
        { step: 0, phrase: '330 metres' },
        { step: 1, phrase: '3776メートル' },
      ],
      finalAnswer: `Mount Fuji is far taller:\n\n${table}\n\nSee https://example.org/a/very/long/path/${'segment'.repeat(30)}?with=query for more.`,
    }),
  );
  f.harness.llm.setLatency({ firstTokenMs: 30, tokensPerSec: 400 });
  await f.configureForHarness();
  const panel = await f.sidePanel();
  await panel.ask('Compare the heights of the Eiffel Tower and Mount Fuji in a table.');
  await panel.waitForRun(1);
  return { panel };
}

/** "Verify with RAT" on three sentences of the demo page: marks in the page, claims in the panel. */
export async function verifyWithMarks(f: SceneFixtures & { worker: import('@playwright/test').Worker }): Promise<{ panel: Panel; page: Page }> {
  const evidence = await f.context.newPage();
  await evidence.goto(f.harness.site.url('/articles/marie-curie.html'));
  const page = await f.context.newPage();
  const demoUrl = f.harness.site.url('/demo.html');
  await page.goto(demoUrl);
  f.harness.llm.setResponder(
    pipelineResponder({
      claims: [
        { claim: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', sentence: 'Marie Curie moved to Paris in 1891 to study at the Sorbonne.', phrase: 'moved to Paris', verdict: 'supported' },
        {
          claim: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
          sentence: 'The Eiffel Tower was completed in 1899 and is 300 metres tall.',
          phrase: 'completed in March 1889',
          verdict: 'corrected',
          corrected: 'The Eiffel Tower was completed in 1889 and is 330 metres tall.',
        },
        { claim: 'An unnamed man moved to Paris in 1920.', sentence: 'He moved to Paris in 1920.', verdict: 'unverifiable' },
      ],
    }),
  );
  await f.configureForHarness();
  const panel = await f.sidePanel();
  const selected = await page.evaluate(() => {
    const range = document.createRange();
    range.setStartBefore(document.getElementById('claim-curie-paris')!);
    range.setEndAfter(document.getElementById('claim-incomplete')!);
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    return sel.toString();
  });
  await clickVerify(f.worker, demoUrl, selected);
  await panel.waitForRun(1);
  await new PageMarks(page).waitForMarks();
  return { panel, page };
}
