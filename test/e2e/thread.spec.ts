import { expect, test } from './fixtures.ts';
import { followUp } from './scenes.ts';

const userMessage = (body: unknown) => ((body as { messages: { role: string; content: string }[] }).messages.at(-1)?.content ?? '');
const systemMessage = (body: unknown) => ((body as { messages: { role: string; content: string }[] }).messages[0]?.content ?? '');

test('a follow-up continues the thread: resolved from it, shown as "Understood as", editable; the thread is kept, reopened and copied whole', async ({ context, harness, configureForHarness, sidePanel }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { panel } = await followUp({ context, harness, configureForHarness, sidePanel });

  const gates = harness.llm.chatRequests().filter((r) => r.stage === 'gate');
  expect(gates).toHaveLength(2);
  // The second question reached the gate with the first question; not with its answer, which was
  // written after reading open tabs (lib/core/flow.ts) …
  expect(userMessage(gates[1]?.body)).toContain('<<<DATA kind="conversation">>>\nQ1: Who was Marie Curie?\nA1: (not shown)');
  // … and the draft, which may read everything, with both.
  expect(userMessage(harness.llm.chatRequests().filter((r) => r.stage === 'draft')[1]?.body)).toContain('Q1: Who was Marie Curie?\nA1: Marie Curie was a physicist and chemist who shared the 1903 Nobel Prize in Physics.');
  const runs = panel.runs;
  await expect(runs).toHaveCount(2);
  await expect(panel.run(2).understoodAs).toContainText('Understood as: Where was Marie Curie born?');
  await expect(panel.run(2).answer).toContainText('born in Warsaw');
  // The rewrite is what was drafted (last: the follow-up as typed may have been drafted beside the
  // gate, and stopped when the gate rewrote it) and searched.
  expect(userMessage(harness.llm.chatRequests().filter((r) => r.stage === 'draft').at(-1)?.body)).toContain('Question: Where was Marie Curie born?');

  // Edit what was understood: the question is asked again as the user says, in the same thread.
  await panel.run(2).button('Edit').click();
  const edit = panel.page.getByRole('textbox', { name: 'The question as it should be understood' });
  await expect(edit).toHaveValue('Where was Marie Curie born?');
  await edit.fill('Where was Marie Curie born, and in which year?');
  await edit.press('Enter');
  await expect(runs).toHaveCount(2);
  await panel.waitForRun(2);
  await expect(panel.run(2).input).toHaveText('Where was Marie Curie born, and in which year?');
  await expect(panel.run(2).understoodAs).toContainText('You asked: “Where was she born?”');
  const lastGate = harness.llm.chatRequests().filter((r) => r.stage === 'gate').at(-1);
  expect(systemMessage(lastGate?.body)).toContain('The user has already confirmed how this question is meant');

  // Copy the whole thread.
  await panel.button('Copy thread').click();
  const copied = await panel.clipboard();
  expect(copied).toContain('**Q:** Who was Marie Curie?');
  expect(copied).toContain('**Q:** Where was Marie Curie born, and in which year?');

  // A new thread is one key away; the next question starts it (no conversation sent).
  await panel.page.keyboard.press('Alt+N');
  await expect(runs).toHaveCount(0);
  await expect(panel.questionBox).toBeFocused();
  await panel.ask('How tall is Mount Fuji?');
  await panel.waitForRun(1);
  expect(userMessage(harness.llm.chatRequests().filter((r) => r.stage === 'gate').at(-1)?.body)).not.toContain('conversation');

  // History keeps both threads and reopens the first whole.
  await panel.history.open();
  const items = panel.history.items;
  await expect(items).toHaveCount(2);
  await expect(items.nth(1)).toContainText('Who was Marie Curie?');
  await expect(items.nth(1)).toContainText('2 questions');
  const calls = harness.llm.chatRequests().length;
  await panel.history.reopen(items.nth(1));
  await expect(runs).toHaveCount(2);
  await expect(panel.run(1).input).toHaveText('Who was Marie Curie?');
  expect(harness.llm.chatRequests().length).toBe(calls);
  // And a follow-up there continues that thread.
  await panel.ask('When did she die?');
  await expect(runs).toHaveCount(3);
});
