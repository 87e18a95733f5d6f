/** Speculative revision in the extension: later steps are checked in parallel, a step that
 * changes discards the checks made on its draft (and the trace says so), and Cancel stops every
 * call at once. */
import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import type { Page } from '@playwright/test';

const STEPS = ['Marie Curie was born in Warsaw in 1867.', 'She moved to Paris in 1890.', 'She won the Nobel Prize in Physics in 1903.', 'She won the Nobel Prize in Chemistry in 1911.'];

async function ask(panel: Page, q: string) {
  const box = panel.getByRole('textbox', { name: 'Question' });
  await box.fill(q);
  await box.press('Enter');
}

test('later steps are checked in parallel; a step that changed discards the checks made on its draft, and the trace says so', async ({ harness, configureForHarness, openPanel }) => {
  const respond = pipelineResponder({
    gate: { label: 'clear', confidence: 0.1 },
    steps: STEPS,
    // Step 2 is wrong (1891, not 1890): its check says so at once.
    facts: [{ step: 0, phrase: 'Warsaw' }, { step: 1, phrase: 'Paris', revised: 'She moved to Paris in 1891.' }, { step: 2, phrase: 'Nobel' }, { step: 3, phrase: 'Nobel' }],
    finalAnswer: 'Marie Curie moved to Paris in 1891 and won two Nobel Prizes.',
  });
  // Steps 1, 2 and 3 are checked at the same moment and each says first whether its step stands,
  // so the order of their replies would be a race on a loaded machine. The script fixes it: step
  // 2's check answers once step 3's (started on step 2's draft) has reached the server, and the
  // front step's answers 1.5 s after step 2's, so step 2's "changed" is known before step 1's
  // "stands" and discards a check that was really sent.
  const once = () => {
    let open!: () => void;
    const p = new Promise<void>((r) => (open = r));
    return { p, open };
  };
  const step3Sent = once();
  const step2Answered = once();
  const step = (req: { lastUser: string }, n: number) => new RegExp(`^Current step: ${n} of`, 'm').test(req.lastUser);
  harness.llm.setResponder(async (req) => {
    if (req.stage !== 'revise') return respond(req);
    if (step(req, 3)) step3Sent.open();
    if (step(req, 2)) {
      await step3Sent.p;
      step2Answered.open();
    }
    if (step(req, 1)) await step2Answered.p.then(() => new Promise((r) => setTimeout(r, 1500)));
    return respond(req);
  });
  harness.llm.setLatency({ firstTokenMs: 200, tokensPerSec: 150 });
  await configureForHarness();
  const panel = await openPanel();
  await ask(panel, 'Tell me about Marie Curie’s life.');
  await expect(panel.getByTestId('run-status')).toHaveText('Done', { timeout: 30_000 });
  // The trace is folded once the answer is done: open it.
  await panel.getByTestId('trace').locator(':scope > summary').click();
  // Step 2 was checked in parallel with step 1 and kept its (exact) result.
  await expect(panel.locator('.step[data-step="1"]').getByTestId('speculative')).toBeVisible();
  // Step 3 had been started on the draft of step 2: discarded, and checked again from its revised
  // text. (Step 4, the last, waits for the front step's verdict, so it was started only once.)
  await expect(panel.locator('.step[data-step="2"]').getByTestId('speculation-discarded')).toContainText('an earlier step changed');
  await expect(panel.locator('.step[data-step="3"]').getByTestId('speculation-discarded')).toHaveCount(0);
  await expect(panel.getByTestId('answer')).toContainText('moved to Paris in 1891');
  const revises = harness.llm.chatRequests().filter((r) => r.stage === 'revise');
  // 4 exact checks, plus the discarded one.
  expect(revises).toHaveLength(5);
});

test('Cancel in the middle of parallel checks ends the run within a second, and no request is made after it', async ({ harness, configureForHarness, openPanel }) => {
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.1 }, steps: STEPS, facts: STEPS.map((_, step) => ({ step, phrase: 'Curie' })) }));
  harness.llm.setLatency({ firstTokenMs: 100, tokensPerSec: 400 });
  await configureForHarness();
  const panel = await openPanel();
  await ask(panel, 'Tell me about Marie Curie’s life.');
  // Once the checks begin, replies slow down: several are in flight together when Cancel is pressed.
  await expect.poll(() => harness.llm.chatRequests().some((r) => r.stage === 'revise'), { timeout: 20_000, intervals: [20] }).toBe(true);
  harness.llm.setLatency({ firstTokenMs: 300, tokensPerSec: 5 });
  await expect.poll(() => harness.llm.chatRequests().filter((r) => r.stage === 'revise').length, { timeout: 30_000, intervals: [50] }).toBeGreaterThanOrEqual(3);
  expect(harness.llm.chatRequests().at(-1)?.stage).toBe('revise');
  // Measured in the page, from the click to the status the user reads.
  const ms = await panel.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const status = document.querySelector('[data-testid="run-status"]') as HTMLElement;
        const t0 = performance.now();
        new MutationObserver(() => status.textContent === 'Cancelled' && resolve(performance.now() - t0)).observe(status, { childList: true, characterData: true, subtree: true });
        (Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Cancel') as HTMLButtonElement).click();
      }),
  );
  test.info().annotations.push({ type: 'cancel to Cancelled (ms)', description: ms.toFixed(0) });
  expect(ms).toBeLessThan(1000);
  await expect(panel.getByTestId('run-status')).toHaveText('Cancelled');
  const sent = harness.llm.chatRequests().length;
  // Nothing more is asked of the model once the run is cancelled.
  await panel.waitForTimeout(2_500);
  expect(harness.llm.chatRequests()).toHaveLength(sent);
});
