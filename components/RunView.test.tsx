/** What the panel shows for runs that did not end cleanly, rendered from runs the real pipeline
 * produced (real client, fake server): where a run stopped, an unfinished answer said as such and
 * not offered for export, a skipped assessment said in the answer and the trace. */
import { renderToStaticMarkup } from 'react-dom/server';
import { parseHTML } from 'linkedom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { curieLibrary, runOnce, startWorld, type TestWorld } from '../test/harness/pipeline-world.ts';
import { pipelineResponder } from '../test/harness/pipeline-responder.ts';
import type { Run } from '@/lib/core/run';
import { RunView, type RunActions } from './RunView';
import { createMemoryLibrary } from '../test/harness/memory-library.ts';

let world: TestWorld | undefined;
// The panel is an extension page: site icons come from its own origin.
beforeEach(() => void vi.stubGlobal('location', new URL('chrome-extension://ratify-test/sidepanel.html')));
afterEach(async () => {
  vi.unstubAllGlobals();
  await world?.close();
  world = undefined;
});

const actions: RunActions = { onCancel() {}, onRetry() {}, onAgain() {}, onOpenSource() {}, onOpenSettings() {} };

function view(run: Run) {
  const { document } = parseHTML(`<html><body>${renderToStaticMarkup(<RunView run={run} actions={actions} />)}</body></html>`);
  const byTest = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? undefined;
  const buttons = [...document.querySelectorAll('button')].map((b) => b.textContent);
  return { byTest, buttons, text: document.body.textContent ?? '' };
}

const page = { url: 'https://news.example.com/curie', title: 'A profile', surrounding: '', tabId: 7 };

describe('RunView', () => {
  it('a verification cut off while writing the corrected passage says it is unfinished and where, and offers no copy', async () => {
    world = await startWorld({ claims: [{ claim: 'Marie Curie was born in Warsaw.', phrase: 'born 7 November 1867 in Warsaw' }] });
    const base = pipelineResponder({ claims: [{ claim: 'Marie Curie was born in Warsaw.', phrase: 'born 7 November 1867 in Warsaw' }] });
    world.server.setResponder(async (req) => {
      const r = await base(req);
      if (req.stage !== 'check' || !('json' in r)) return r;
      const content = JSON.stringify(r.json);
      return { fault: { kind: 'truncate', afterChars: content.length - 8, content } };
    });
    const r = await runOnce(world, { text: 'She was born in Warsaw.', page }, curieLibrary(), { mode: 'verify' });
    expect(r.run.status).toBe('error');
    const v = view(r.run);
    expect(v.byTest('unfinished')).toBe('Unfinished — the run stopped at writing the corrected passage. This is not the final answer: it has no sources and is not exported.');
    expect(v.byTest('stopped-at')).toBe('Stopped at writing the corrected passage. Retry continues from there; Run again starts over.');
    expect(v.buttons).toEqual(expect.arrayContaining(['Retry', 'Run again']));
    expect(v.buttons).not.toContain('Copy as Markdown');
  });

  it('a cancelled run offers Retry (continue) and Run again, and says where its answer stopped', async () => {
    world = await startWorld({ steps: ['Marie Curie was born in 1867.'], facts: [{ phrase: 'born 7 November 1867' }] });
    const base = pipelineResponder({ steps: ['Marie Curie was born in 1867.'], facts: [{ phrase: 'born 7 November 1867' }], finalAnswer: 'Marie Curie was born in 1867.' });
    world.server.setResponder(async (req) => {
      const r = await base(req);
      // The answer stalls near its end, whichever call writes it (the revision or the one beside it).
      if ((req.stage !== 'revise' && req.stage !== 'final-answer') || !('json' in r)) return r;
      const content = JSON.stringify(r.json);
      return { fault: { kind: 'stall', afterChars: content.length - 6, content } };
    });
    const ctrl = new AbortController();
    const r = await runOnce(world, { text: 'When was Marie Curie born?' }, curieLibrary(), {
      signal: ctrl.signal,
      onEvent: (ev) => ev.type === 'answer-delta' && setTimeout(() => ctrl.abort(), 50),
    });
    expect(r.run.status).toBe('cancelled');
    const v = view(r.run);
    expect(v.byTest('unfinished')).toMatch(/^Unfinished — the run stopped at writing the answer\./);
    expect(v.byTest('answer')).toBe('Marie Curie was born in 1867.');
    expect(v.buttons).toEqual(expect.arrayContaining(['Retry', 'Run again']));
    expect(v.buttons).not.toContain('Copy as Markdown');
  });

  it('a selection in which the model found no claim says it was checked as a whole', async () => {
    world = await startWorld({ claims: [] });
    const r = await runOnce(world, { text: 'She was born in Warsaw.', page }, curieLibrary(), { mode: 'verify' });
    expect(r.run.status).toBe('done');
    expect(view(r.run).byTest('gate-line')).toBe('The model found no separate claims in the selection, so it was checked as a whole against sources.');
  });

  it('an unreadable assessment is said under the answer and in the trace; an answer no source backs says so', async () => {
    world = await startWorld({ steps: ['Marie Curie was born on Mars.'], malformed: { gate: 'always' } });
    const r = await runOnce(world, { text: 'Where was Marie Curie born?' }, curieLibrary([], { fail: 'search provider down' }));
    expect(r.run.status).toBe('done');
    const v = view(r.run);
    expect(v.byTest('gate-line')).toBe("The model's assessment of the question could not be read: checking sources for it as asked.");
    expect(v.byTest('trace-gate-unreadable')).toBe(v.byTest('gate-line'));
    expect(v.byTest('no-sources')).toMatch(/^No source backs this answer/);
  });
});

describe('RunView: a run that stopped before its answer', () => {
  it.each([
    ['failed at the draft', 'error'],
    ['cancelled during the draft', 'cancelled'],
  ] as const)('%s: no empty answer heading and no line saying sources were checked', async (_name, status) => {
    world = await startWorld({ gate: { confidence: 0.2 }, steps: ['Marie Curie was born in 1867.'] });
    const base = pipelineResponder({ gate: { confidence: 0.2 }, steps: ['Marie Curie was born in 1867.'] });
    const ctrl = new AbortController();
    world.server.setResponder(async (req) => {
      if (req.stage !== 'draft') return base(req);
      if (status === 'cancelled') setTimeout(() => ctrl.abort(), 50);
      return { fault: status === 'error' ? { kind: 'status', status: 500 } : { kind: 'hang' } };
    });
    const r = await runOnce(world, { text: 'When was Marie Curie born?' }, curieLibrary(), { signal: ctrl.signal });
    expect(r.run.status).toBe(status);
    expect(r.run.gate?.retrieve).toBe(true);
    const v = view(r.run);
    expect(v.byTest('answer-section')).toBeUndefined();
    expect(v.byTest('gate-line')).toBeUndefined();
    expect(v.text).not.toMatch(/Checked against sources|Answer by/);
    expect(v.buttons).toContain('Run again');
  });
});

describe('RunView: errors say what to do, with the button that does it', () => {
  it('a selection over the limit says the limit in the notice itself, not only under Details', async () => {
    world = await startWorld({});
    const r = await runOnce(world, { text: 'Marie Curie was born in Warsaw. '.repeat(400), page }, curieLibrary(), { mode: 'verify' });
    expect(r.run.error?.code).toBe('too-long');
    const { document } = parseHTML(`<html><body>${renderToStaticMarkup(<RunView run={r.run} actions={actions} />)}</body></html>`);
    const notice = document.querySelector('[role="alert"]')!;
    notice.querySelector('details')?.remove();
    expect(notice.textContent).toContain('12,799 characters');
    expect(notice.textContent).toContain('12,000');
  });

  it('a time-out names Settings → Model and has the button to it', async () => {
    world = await startWorld({}, { timeoutMs: 300 });
    world.server.setResponder(() => ({ fault: { kind: 'hang' } }));
    const r = await runOnce(world, { text: 'When was Marie Curie born?' }, curieLibrary());
    expect(r.run.error?.code).toBe('timeout');
    const v = view(r.run);
    expect(v.text).toContain('Settings → Model');
    expect(v.buttons).toEqual(expect.arrayContaining(['Retry', 'Open settings']));
  });
});

describe('RunView: words that fit the run', () => {
  it('a claim for which nothing was found says "this claim", not "this step"', async () => {
    world = await startWorld({ claims: [{ claim: 'Marie Curie was born on Mars.' }] });
    const r = await runOnce(world, { text: 'Marie Curie was born on Mars.', page }, createMemoryLibrary([]), { mode: 'verify' });
    expect(r.run.status).toBe('done');
    const v = view(r.run);
    expect(v.text).toContain('No evidence was found for this claim.');
    expect(v.text).not.toContain('this step');
  });
});
