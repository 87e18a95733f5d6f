/** Passage and query embeddings in IndexedDB, by model and text hash (lib/retrieval/dense.ts), so
 * a second run over unchanged tabs costs no embeddings call. Pruned to `max` vectors, oldest
 * first. A storage error never fails a retrieval: the text is embedded again. */
import type { EmbeddingStore } from '../retrieval/dense';
import type { RatifyDb } from './db';

export function createDexieEmbeddingStore(database: RatifyDb, max = 50_000, now: () => number = Date.now): EmbeddingStore {
  let writes = 0;
  return {
    async get(keys) {
      try {
        const rows = await database.embeddings.bulkGet(keys);
        return rows.map((r) => (r ? Float32Array.from(r.vector) : undefined));
      } catch {
        // Unreadable store: every text counts as not embedded yet.
        return keys.map(() => undefined);
      }
    },
    async put(entries) {
      const storedAt = now();
      await database.embeddings.bulkPut(entries.map((e) => ({ key: e.key, vector: e.vector, storedAt })));
      writes += entries.length;
      if (writes < 1000) return;
      writes = 0;
      const n = await database.embeddings.count();
      if (n > max) await database.embeddings.orderBy('storedAt').limit(n - max).delete();
    },
  };
}
