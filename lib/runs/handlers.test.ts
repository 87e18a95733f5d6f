import { describe, expect, it } from 'vitest';
import { newRun } from '../pipeline/run-state';
import type { PageContext, RunInput, RunMode } from '../core/run';
import { createHandlers, type HandlerDeps } from './handlers';
import type { RunManager } from './run-manager';

const page: PageContext = { url: 'https://example.org/a', title: 'A page', tabId: 4, surrounding: 'Start of the page.', text: 'Start of the page. More.' };

function setup() {
  const started: { mode: RunMode; input: RunInput }[] = [];
  const cancelled: string[] = [];
  const deleted: string[] = [];
  const captured: number[] = [];
  const manager = {
    start: async (mode: RunMode, input: RunInput) => {
      started.push({ mode, input });
      return newRun(`r${started.length}`, mode, input, 0);
    },
    cancel: (id: string) => {
      cancelled.push(id);
      return true;
    },
  } as unknown as RunManager;
  const deps: HandlerDeps = {
    manager,
    getRun: async () => undefined,
    setActiveRun: async () => undefined,
    openSource: async () => true,
    deleteRun: async (id) => {
      deleted.push(id);
    },
    deleteAllData: async () => undefined,
    clearMarks: async () => undefined,
    countMarks: async () => 2,
    capturePage: async (tabId) => {
      captured.push(tabId);
      return tabId === 4 ? page : undefined;
    },
    threadTurns: async (id) => (id === 't1' ? [{ question: 'Who was Marie Curie?', answer: 'A physicist.' }] : []),
    threadRunIds: async (id) => (id === 't1' ? ['a', 'b'] : []),
  };
  return { handle: createHandlers(deps), started, cancelled, deleted, captured };
}

describe('request handlers', () => {
  it('a question from the panel carries the page the user is on and its thread’s earlier turns', async () => {
    const { handle, started } = setup();
    const reply = await handle({ type: 'run/start', mode: 'ask', input: { text: 'Summarize this page', thread: { id: 't1' } }, pageTabId: 4 });
    expect(reply.ok).toBe(true);
    expect(started[0]?.input).toEqual({ text: 'Summarize this page', page, thread: { id: 't1', turns: [{ question: 'Who was Marie Curie?', answer: 'A physicist.' }] } });
  });

  it('a page the rules keep out is not sent at all; a new thread has no turns', async () => {
    const { handle, started } = setup();
    await handle({ type: 'run/start', mode: 'ask', input: { text: 'What is this?', thread: { id: 'new' } }, pageTabId: 9 });
    expect(started[0]?.input).toEqual({ text: 'What is this?', page: undefined, thread: { id: 'new' } });
  });

  it('a verification keeps the page it was captured with and reads no other tab', async () => {
    const { handle, started, captured } = setup();
    const own = { url: 'https://example.org/b', title: 'B', surrounding: 'around' };
    await handle({ type: 'run/start', mode: 'verify', input: { text: 'A claim.', page: own }, pageTabId: 4 });
    expect(captured).toEqual([]);
    expect(started[0]?.input.page).toEqual(own);
  });

  it('deleting a thread cancels and deletes each of its runs; marks are counted in the tab', async () => {
    const { handle, cancelled, deleted } = setup();
    expect(await handle({ type: 'threads/delete', id: 't1' })).toEqual({ ok: true, value: true });
    expect(cancelled).toEqual(['a', 'b']);
    expect(deleted).toEqual(['a', 'b']);
    expect(await handle({ type: 'marks/count', tabId: 3 })).toEqual({ ok: true, value: 2 });
  });
});
