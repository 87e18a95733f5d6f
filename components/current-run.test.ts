import { describe, expect, it } from 'vitest';
import type { Run } from '@/lib/core/run';
import { currentRun } from './current-run';

const run = (id: string, thread: string) => ({ id, input: { text: id, thread: { id: thread } } }) as unknown as Run;

describe('the run the Ask view shows', () => {
  it('is nothing right after "New thread", though the hooks still hold the previous run', () => {
    expect(currentRun(null, run('r1', 't1'), run('r1', 't1'))).toBeUndefined();
  });
  it('is never a previous run still held after another was opened', () => {
    expect(currentRun('r2', run('r1', 't1'), run('r1', 't1'))).toBeUndefined();
    expect(currentRun('r2', run('r1', 't1'), run('r2', 't2'))?.input.thread?.id).toBe('t2');
  });
  it('prefers the stored copy of the active run', () => {
    const stored = run('r1', 't1');
    expect(currentRun('r1', stored, run('r1', 't1'))).toBe(stored);
  });
});
