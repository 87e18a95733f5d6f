import { describe, expect, it } from 'vitest';
import { newRun } from '../pipeline/run-state';
import { sentenceHash } from '../pipeline/sentence-hash';
import type { ClaimResult, PageContext, Run, RunInput, RunMode } from '../core/run';
import { createHandlers, type HandlerDeps } from './handlers';
import type { RunManager } from './run-manager';

const page: PageContext = { url: 'https://example.org/a', title: 'A page', tabId: 4, surrounding: 'Start of the page.', text: 'Start of the page. More.' };

function setup(o: { stored?: Run[]; live?: Map<string, Promise<void>>; pageNow?: (tabId: number) => PageContext | undefined } = {}) {
  const started: { mode: RunMode; input: RunInput }[] = [];
  const stored = new Map((o.stored ?? []).map((r) => [r.id, r]));
  const live = o.live ?? new Map<string, Promise<void>>();
  const cancelled: string[] = [];
  const deleted: string[] = [];
  const captured: number[] = [];
  const drawn: { tabId: number; claims: string[]; runId: string }[] = [];
  const shown: (string | null)[] = [];
  const selections: { tabId: number; fallbackText: string }[] = [];
  const checked: Run = {
    ...newRun('c1', 'page', { text: 'Start of the page. More.', page: { url: 'https://example.org/a', title: 'A page', tabId: 4 } }, Date.now() - 3 * 86_400_000),
    status: 'done',
    claims: [
      { claim: 'The page starts.', sentence: 'Start of the page.', sentenceHash: sentenceHash('Start of the page.'), verdict: 'supported', sources: [1] },
      { claim: 'It said less.', sentence: 'It said less.', sentenceHash: sentenceHash('It said less.'), verdict: 'corrected', corrected: 'It said more.', sources: [2] },
    ],
  };
  const manager = {
    start: (mode: RunMode, input: RunInput) => {
      started.push({ mode, input });
      return Promise.resolve(newRun(`r${started.length}`, mode, input, 0));
    },
    again: (run: Run, patch: Partial<RunInput>) => {
      started.push({ mode: run.mode, input: { ...run.input, ...patch } });
      return Promise.resolve(newRun(`r${started.length}`, run.mode, { ...run.input, ...patch }, 0));
    },
    cancel: (id: string) => {
      cancelled.push(id);
      return live.has(id);
    },
    isActive: (id: string) => live.has(id),
    settled: (id: string) => live.get(id) ?? Promise.resolve(),
  } as unknown as RunManager;
  const deps: HandlerDeps = {
    manager,
    getRun: (id) => Promise.resolve(stored.get(id) ?? (id === 'c1' ? checked : undefined)),
    setActiveRun: (id) => Promise.resolve(shown.push(id)),
    openSource: () => Promise.resolve(true),
    deleteRun: (id) => {
      deleted.push(id);
      stored.delete(id);
      return Promise.resolve();
    },
    putRun: (run) => Promise.resolve(stored.set(run.id, run)),
    deleteAllData: () => Promise.resolve(undefined),
    clearMarks: () => Promise.resolve(undefined),
    countMarks: () => Promise.resolve(2),
    captureSelection: (tabId, fallbackText) => {
      selections.push({ tabId, fallbackText });
      return Promise.resolve(tabId === 4 ? { text: 'Marie Curie was born in 1867.', page: { url: page.url, title: page.title, tabId: 4, surrounding: 'Around it.' }, hiddenSentences: 1 } : { text: fallbackText });
    },
    capturePage: (tabId) => {
      captured.push(tabId);
      return Promise.resolve(o.pageNow ? o.pageNow(tabId) : tabId === 4 ? page : undefined);
    },
    threadTurns: (id) => Promise.resolve(id === 't1' ? [{ question: 'Who was Marie Curie?', answer: 'A physicist.' }] : []),
    threadRunIds: (id) => Promise.resolve(id === 't1' ? ['a', 'b'] : []),
    tabUrl: (tabId) => Promise.resolve(tabId === 4 ? 'https://example.org/a?session=1#top' : undefined),
    latestPageCheck: (url) => Promise.resolve(url === 'https://example.org/a' ? checked : undefined),
    showMarks: (tabId, run, keep) => {
      const claims = (run.claims ?? []).filter(keep).map((c: ClaimResult) => c.sentence);
      drawn.push({ tabId, claims, runId: run.id });
      return Promise.resolve(claims.length);
    },
    revealMark: () => Promise.resolve(true),
  };
  return { handle: createHandlers(deps), started, cancelled, deleted, captured, stored, drawn, shown, selections };
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

  it('deleting a thread cancels and deletes each of its runs and hands them back; Undo puts them back', async () => {
    const a = { ...newRun('a', 'ask', { text: 'Who was Marie Curie?', thread: { id: 't1' } }, 1), status: 'done' as const };
    const b = { ...newRun('b', 'ask', { text: 'Where was she born?', thread: { id: 't1' } }, 2), status: 'cancelled' as const };
    const { handle, cancelled, deleted, stored } = setup({ stored: [a, b] });
    const reply = await handle({ type: 'threads/delete', id: 't1' });
    expect(reply).toEqual({ ok: true, value: [a, b] });
    expect(cancelled).toEqual(['a', 'b']);
    expect(deleted).toEqual(['a', 'b']);
    expect(stored.size).toBe(0);
    expect(await handle({ type: 'runs/restore', runs: [a, b] })).toEqual({ ok: true, value: true });
    expect([...stored.values()]).toEqual([a, b]);
    expect(await handle({ type: 'marks/count', tabId: 3 })).toEqual({ ok: true, value: 2 });
  });

  it('a question joining a thread whose answer is still being written waits for it, so it sees that answer', async () => {
    let finish: () => void = () => {};
    const live = new Map([['b', new Promise<void>((ok) => (finish = ok))]]);
    const { handle, started } = setup({ live });
    const reply = handle({ type: 'run/start', mode: 'ask', input: { text: 'And then?', thread: { id: 't1' } } });
    await new Promise((r) => setTimeout(r, 50));
    expect(started).toEqual([]);
    finish();
    expect((await reply).ok).toBe(true);
    expect(started[0]?.input.thread?.turns).toHaveLength(1);
  });

  it('Run again reads the page afresh when its tab still shows it (access may have been granted since)', async () => {
    const before: PageContext = { url: page.url, title: page.title, tabId: 4 }; // captured without access: no text
    const asked = { ...newRun('q', 'ask', { text: 'Summarize this page', page: before }, 1), status: 'done' as const };
    const { handle, started } = setup({ stored: [asked] });
    await handle({ type: 'run/again', id: 'q' });
    expect(started[0]?.input.page).toEqual(page);
  });

  it('Run again keeps the page it asked about when the tab has moved on', async () => {
    const before: PageContext = { url: 'https://example.org/old', title: 'Old', tabId: 4 };
    const asked = { ...newRun('q', 'ask', { text: 'Summarize this page', page: before }, 1), status: 'done' as const };
    const { handle, started } = setup({ stored: [asked] });
    await handle({ type: 'run/again', id: 'q', forceRetrieval: true });
    expect(started[0]?.input).toMatchObject({ page: before, forceRetrieval: true });
  });

  it('Check this page reads the tab itself and gives the run its visible text and what names the page, nothing else', async () => {
    const { handle, started, captured } = setup();
    const reply = await handle({ type: 'run/start', mode: 'page', input: { text: '' }, pageTabId: 4 });
    expect(reply.ok).toBe(true);
    expect(captured).toEqual([4]);
    expect(started[0]).toEqual({ mode: 'page', input: { text: 'Start of the page. More.', page: { url: 'https://example.org/a', title: 'A page', tabId: 4 } } });
    // A page the rules keep out is not checked, and says why.
    const refused = await handle({ type: 'run/start', mode: 'page', input: { text: '' }, pageTabId: 9 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'empty-input', message: expect.stringMatching(/does not read this page/) as string } });
    expect(started).toHaveLength(1);
  });

  it('a page checked before is offered again, and only its unchanged sentences are marked again', async () => {
    const { handle, drawn } = setup();
    const earlier = await handle({ type: 'page/earlier', tabId: 4 });
    expect(earlier).toEqual({ ok: true, value: { runId: 'c1', checkedAt: expect.any(Number) as number, counts: { supported: 1, corrected: 1, refuted: 0, unverifiable: 0 }, total: 2, unchanged: 1 } });
    expect(await handle({ type: 'page/earlier', tabId: 5 })).toEqual({ ok: true, value: null });
    expect(await handle({ type: 'page/show-earlier', runId: 'c1', tabId: 4 })).toEqual({ ok: true, value: 1 });
    expect(drawn).toEqual([{ tabId: 4, runId: 'c1', claims: ['Start of the page.'] }]);
  });
});
