/** Dense ranking: passage and query embeddings from the endpoint's embeddings model, computed in
 * batches, kept in memory and in a persistent store (IndexedDB in the extension) by model and
 * text hash, so an unchanged tab is never embedded twice. */
import type { Passage } from '../core/passage';
import { hashText } from '../core/text';

export type EmbedFn = (texts: string[], signal?: AbortSignal) => Promise<number[][]>;

/** Persistent vectors by key (model + text hash). */
export interface EmbeddingStore {
  get(keys: string[]): Promise<(Float32Array | undefined)[]>;
  put(entries: { key: string; vector: Float32Array }[]): Promise<void>;
}

export interface DenseOptions {
  embed: EmbedFn;
  /** Part of every cache key: vectors of different models never mix. A function when the model is
   * found at the endpoint first (undefined: none, so no dense ranking). */
  model: string | (() => Promise<string | undefined>);
  store?: EmbeddingStore;
  /** Texts per embeddings request (default 64). */
  batchSize?: number;
}

/** What a passage is embedded as: its title, heading path and text. */
export const passageEmbedText = (p: Passage): string => `${p.title}\n${p.headingPath.join(' › ')}\n${p.text}`;

function normalise(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i] * out[i];
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

export class DenseIndex {
  private vectors = new Map<string, Float32Array>();
  /** Keys being embedded right now, so two callers never embed the same text twice. */
  private pending = new Map<string, Promise<void>>();
  /** Embedding requests made (the cache's effect is visible in tests and the trace). */
  calls = 0;

  private resolved?: Promise<string | undefined>;
  private modelName?: string;

  constructor(private readonly o: DenseOptions) {
    if (typeof o.model === 'string') {
      this.modelName = o.model;
      this.resolved = Promise.resolve(o.model);
    }
  }

  /** The embeddings model, once known; undefined when the endpoint has none. */
  async model(): Promise<string | undefined> {
    const m = this.o.model;
    // A failed lookup means no model: ranking stays lexical (the settings page says why).
    this.resolved ??= typeof m === 'string' ? Promise.resolve(m) : m().catch(() => undefined);
    this.modelName = await this.resolved;
    return this.modelName;
  }

  keyOf(text: string): string {
    return `${this.modelName ?? ''}\n${hashText(text)}:${text.length}`;
  }

  has(text: string): boolean {
    return this.vectors.has(this.keyOf(text));
  }

  vector(text: string): Float32Array | undefined {
    return this.vectors.get(this.keyOf(text));
  }

  /** Makes sure every text has a vector: from memory, then the store, then the endpoint in
   * batches. Vectors of finished batches are kept even if a later batch fails. */
  async ensure(texts: string[], signal?: AbortSignal): Promise<void> {
    if (!(await this.model())) return;
    const want = new Map<string, string>();
    const waits: Promise<void>[] = [];
    for (const t of texts) {
      const k = this.keyOf(t);
      if (this.vectors.has(k) || want.has(k)) continue;
      const p = this.pending.get(k);
      if (p) waits.push(p);
      else want.set(k, t);
    }
    if (want.size && this.o.store) {
      const keys = [...want.keys()];
      const got = await this.o.store.get(keys);
      keys.forEach((k, i) => {
        const v = got[i];
        if (v) {
          this.vectors.set(k, v);
          want.delete(k);
        }
      });
    }
    const size = Math.max(1, this.o.batchSize ?? 64);
    const entries = [...want.entries()];
    for (let i = 0; i < entries.length; i += size) {
      const batch = entries.slice(i, i + size);
      const job = this.embedBatch(batch, signal);
      for (const [k] of batch) this.pending.set(k, job);
      waits.push(job);
    }
    await Promise.all(waits);
  }

  private async embedBatch(batch: [string, string][], signal?: AbortSignal): Promise<void> {
    try {
      this.calls++;
      const vecs = await this.o.embed(batch.map(([, t]) => t), signal);
      if (vecs.length !== batch.length) throw new Error(`embeddings: expected ${batch.length} vectors, got ${vecs.length}`);
      const fresh = batch.map(([k], i) => ({ key: k, vector: normalise(vecs[i] ?? []) }));
      for (const e of fresh) this.vectors.set(e.key, e.vector);
      // The store is a cache: failing to write it costs a recomputation later, nothing else.
      await this.o.store?.put(fresh).catch(() => undefined);
    } finally {
      for (const [k] of batch) this.pending.delete(k);
    }
  }

  /** The best `limit` of `pool` by cosine similarity to the query vector, with the similarity
   * (only passages with a vector). */
  rank(query: Float32Array, pool: Passage[], limit: number): { passage: Passage; score: number }[] {
    const scored: { passage: Passage; score: number }[] = [];
    for (const passage of pool) {
      const v = this.vector(passageEmbedText(passage));
      if (v) scored.push({ passage, score: dot(query, v) });
    }
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, limit);
  }
}
