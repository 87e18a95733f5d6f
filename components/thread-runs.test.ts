import { describe, expect, it } from 'vitest';
import { newRun } from '@/lib/pipeline/run-state';
import type { Run } from '@/lib/core/run';
import { NO_RUNS, type PanelRuns } from '@/lib/runs/panel-runs';
import { askTarget, otherLiveChecks, threadRuns } from './thread-runs';

const run = (id: string, thread: string, o: Partial<Run> = {}): Run => ({ ...newRun(id, 'ask', { text: id, thread: { id: thread } }, 0), status: 'done', ...o });
const panel = (activeRunId: string | null, runs: Run[]): PanelRuns => ({ ...NO_RUNS, ready: true, activeRunId, runs: new Map(runs.map((r) => [r.id, r])) });

describe('the thread the Ask view shows', () => {
  it('shows a run the store holds as the store holds it, never its older stored checkpoint', () => {
    const checkpoint = run('r2', 't1', { status: 'running', answer: 'Half' });
    const live = run('r2', 't1', { status: 'running', answer: 'Half an answer' });
    const shown = threadRuns([run('r1', 't1'), checkpoint], panel('r2', [live]));
    expect(shown.map((r) => r.answer ?? r.id)).toEqual(['r1', 'Half an answer']);
  });

  it('shows the active run before IndexedDB lists it', () => {
    expect(threadRuns([run('r1', 't1')], panel('r2', [run('r2', 't1')])).map((r) => r.id)).toEqual(['r1', 'r2']);
  });

  it('is nothing right after "New thread", though the stored query still holds the previous thread', () => {
    expect(threadRuns([run('r1', 't1')], panel(null, [run('r1', 't1')]))).toEqual([]);
  });

  it('never shows runs of a previous thread still held after another run was opened', () => {
    expect(threadRuns([run('r1', 't1')], panel('r9', [run('r9', 't9')])).map((r) => r.id)).toEqual(['r9']);
  });
});

describe('what a question joins', () => {
  it('the active run’s thread, waiting for its answer still being written', () => {
    const writing = run('r2', 't1', { status: 'running' });
    expect(askTarget(panel('r2', [run('r1', 't1'), writing]))).toEqual({ threadId: 't1', busy: writing });
    expect(askTarget(panel('r1', [run('r1', 't1')]))).toEqual({ threadId: 't1' });
  });

  it('a new thread while a page check is shown (a check is not a conversation), or nothing is', () => {
    const check = { ...newRun('p1', 'page', { text: 'A.' }, 0) };
    expect(askTarget(panel('p1', [check]))).toEqual({});
    expect(askTarget(panel(null, [check]))).toEqual({});
  });

  it('page checks still running and not shown are listed apart', () => {
    const check = newRun('p1', 'page', { text: 'A.' }, 0);
    const done = { ...newRun('p2', 'page', { text: 'B.' }, 0), status: 'done' as const };
    expect(otherLiveChecks(panel('r1', [run('r1', 't1'), check, done])).map((r) => r.id)).toEqual(['p1']);
    expect(otherLiveChecks(panel('p1', [check]))).toEqual([]);
  });
});
