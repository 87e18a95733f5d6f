import { describe, expect, it } from 'vitest';
import { followAbort } from './abort';

describe('followAbort', () => {
  it('runs once when the signal aborts, and not after the unsubscribe', () => {
    const ctrl = new AbortController();
    let calls = 0;
    followAbort(ctrl.signal, () => calls++);
    ctrl.abort();
    ctrl.abort();
    expect(calls).toBe(1);
    const other = new AbortController();
    const stop = followAbort(other.signal, () => calls++);
    stop();
    other.abort();
    expect(calls).toBe(1);
  });

  it('runs at once for a signal that has already aborted (an event listener would never run)', () => {
    const ctrl = new AbortController();
    ctrl.abort();
    let calls = 0;
    followAbort(ctrl.signal, () => calls++);
    expect(calls).toBe(1);
    expect(() => followAbort(undefined, () => calls++)()).not.toThrow();
    expect(calls).toBe(1);
  });
});
