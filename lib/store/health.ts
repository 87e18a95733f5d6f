/** Whether the stored history can be used, checked when a view opens, so a store this version
 * cannot open, or one written by a newer version (after a downgrade), gets a clear message
 * instead of a view that fails part-way. */
import { db, type RatifyDb } from './db';

export type StoreHealth =
  | { ok: true; /** Written by a newer Ratify: its schema version, and the one this version knows. */ newer?: { stored: number; known: number } }
  | { ok: false; error: string };

export async function storeHealth(database: RatifyDb = db()): Promise<StoreHealth> {
  try {
    await database.open();
    // Every table answers now, rather than in the middle of a view.
    await Promise.all(database.tables.map((t) => t.count()));
  } catch (e) {
    return { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
  // Dexie keeps the schema version × 10 as IndexedDB's version; a newer Ratify raised it.
  const stored = Math.floor(database.backendDB().version / 10);
  const known = database.verno;
  return stored > known ? { ok: true, newer: { stored, known } } : { ok: true };
}
