import { describe, expect, it } from 'vitest';
import { RatifyDb } from './db';
import { storeHealth } from './health';

/** A database as another program left it: `version` and object stores made by hand. */
function leave(name: string, version: number, stores: Record<string, IDBObjectStoreParameters>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name, version);
    req.onupgradeneeded = () => {
      for (const [store, params] of Object.entries(stores)) req.result.createObjectStore(store, params);
    };
    req.onsuccess = () => {
      req.result.close();
      resolve();
    };
    req.onerror = () => reject(req.error ?? new Error('indexedDB.open failed'));
  });
}

describe('store health', () => {
  it('a store this version made is fine', async () => {
    const database = new RatifyDb(`h-${Math.random()}`);
    await database.runs.count();
    expect(await storeHealth(database)).toEqual({ ok: true });
  });

  it('a store a newer version made (after a downgrade) is readable and says so', async () => {
    const name = `h-${Math.random()}`;
    const known = new RatifyDb(name).verno;
    await leave(name, (known + 2) * 10, { runs: { keyPath: 'id' }, runIndex: { keyPath: 'id' }, pages: { keyPath: 'url' }, embeddings: { keyPath: 'key' }, later: { keyPath: 'id' } });
    expect(await storeHealth(new RatifyDb(name))).toEqual({ ok: true, newer: { stored: known + 2, known } });
  });

  it('a store that cannot be opened as Ratify’s is an error with the reason, not a throw', async () => {
    const name = `h-${Math.random()}`;
    await leave(name, 30, { runs: {} });
    const health = await storeHealth(new RatifyDb(name));
    expect(health.ok).toBe(false);
    expect(!health.ok && health.error).toMatch(/\w+Error: ./);
  });
});
