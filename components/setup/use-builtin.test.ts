import { describe, expect, it } from 'vitest';
import { downloadModel } from './use-builtin';

describe('downloading the built-in model', () => {
  it('reports the Prompt API’s progress events as percentages and closes the session it opened', async () => {
    const seen: number[] = [];
    let destroyed = false;
    await downloadModel(({ monitor }) => {
      const listeners: ((e: { loaded: number }) => void)[] = [];
      monitor({ addEventListener: (_type, f) => listeners.push(f) });
      for (const loaded of [0, 0.25, 0.999, 1]) listeners.forEach((f) => f({ loaded }));
      return Promise.resolve({ destroy: () => (destroyed = true) });
    }, (p) => seen.push(p));
    expect(seen).toEqual([0, 25, 100, 100]);
    expect(destroyed).toBe(true);
  });

  it('a refused download rejects (the card shows the browser’s reason)', async () => {
    await expect(downloadModel(async () => Promise.reject(new Error('NotAllowedError: needs a user gesture')), () => undefined)).rejects.toThrow('user gesture');
  });
});
