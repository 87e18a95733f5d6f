/** Speculative revision in the extension: later steps are checked in parallel, a step that
 * changes discards the checks made on its draft (and the trace says so), and Cancel stops every
 * call at once. */
import { expect, test } from './fixtures.ts';
import { pipelineResponder } from '../harness/pipeline-responder.ts';
import { withoutBesideDraft } from '../harness/fake-llm-request.ts';
import { positionOf, SECTION } from '../harness/prompt-reader.ts';
import { holdReplies } from '../harness/held-replies.ts';

const STEPS = ['Marie Curie was born in Warsaw in 1867.', 'She moved to Paris in 1890.', 'She won the Nobel Prize in Physics in 1903.', 'She won the Nobel Prize in Chemistry in 1911.'];

test('later steps are checked in parallel; a step that changed discards the checks made on its draft, and the trace says so', async ({ harness, configureForHarness, sidePanel }) => {
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
  const step = (req: { lastUser: string }, n: number) => positionOf(req.lastUser, SECTION.currentStep)?.at === n;
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
  const panel = await sidePanel();
  await panel.ask('Tell me about Marie Curie’s life.');
  await expect(panel.status).toHaveText('Done', { timeout: 30_000 });
  // The trace is folded once the answer is done: open it.
  await panel.openTrace();
  // Step 2 was checked in parallel with step 1 and kept its (exact) result.
  await expect(panel.step(1).getByTestId('speculative')).toBeVisible();
  // Step 3 had been started on the draft of step 2: discarded, and checked again from its revised
  // text. (Step 4, the last, waits for the front step's verdict, so it was started only once.)
  await expect(panel.step(2).getByTestId('speculation-discarded')).toContainText('an earlier step changed');
  await expect(panel.step(3).getByTestId('speculation-discarded')).toHaveCount(0);
  await expect(panel.answer).toContainText('moved to Paris in 1891');
  const revises = harness.llm.chatRequests().filter((r) => r.stage === 'revise');
  // 4 exact checks, plus the discarded one.
  expect(revises).toHaveLength(5);
});

test('Cancel in the middle of parallel checks ends the run before any of them answers, drops every call in flight, and no request is made after it', async ({ harness, configureForHarness, sidePanel }) => {
  // The checks' replies are held until the end: several are in flight together when Cancel is
  // pressed, and "at once" means before any of them answers.
  const held = holdReplies(pipelineResponder({ gate: { label: 'clear', confidence: 0.1 }, steps: STEPS, facts: STEPS.map((_, step) => ({ step, phrase: 'Curie' })) }), (req) => req.stage === 'revise');
  harness.llm.setResponder(held.responder);
  harness.llm.setLatency({ firstTokenMs: 100, tokensPerSec: 400 });
  await configureForHarness();
  const panel = await sidePanel();
  await panel.ask('Tell me about Marie Curie’s life.');
  await expect.poll(() => held.pending(), { timeout: 30_000, intervals: [50] }).toBeGreaterThanOrEqual(3);
  expect(harness.llm.chatRequests().at(-1)?.stage).toBe('revise');
  await panel.cancel();
  await expect(panel.status).toHaveText('Cancelled');
  // Every check in flight was dropped by the extension before its reply came.
  await expect.poll(() => held.abandoned()).toBe(held.requests.length);
  const sent = harness.llm.chatRequests().length;
  held.release();
  // Nothing more is asked of the model for the cancelled run: the next requests it hears are those
  // of a question asked after it, which has ended by the time they are counted.
  harness.llm.setResponder(pipelineResponder({ gate: { label: 'clear', confidence: 0.95 }, answer: 'Marie Curie won two Nobel Prizes.' }));
  await panel.newThread();
  await panel.askAndWait('How many Nobel Prizes did Marie Curie win?');
  expect(withoutBesideDraft(harness.llm.chatRequests().slice(sent).map((r) => r.stage))).toEqual(['gate', 'answer']);
});
