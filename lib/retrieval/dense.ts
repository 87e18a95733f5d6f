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
  for (const x of out) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i]! /= n; // i < out.length
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  // i < n ≤ both lengths.
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

/** A text's identity within one index (one model): the store key adds the model. */
const textId = (text: string): string => `${hashText(text)}:${text.length}`;

export class DenseIndex {
  /** Vectors by text id (one index, one model). */
  private vectors = new Map<string, Float32Array>();
  /** Texts being looked up or embedded right now, each with the promise of its vector. A text is
   * registered here synchronously by the first caller that wants it, before anything is awaited,
   * so concurrent callers (the background call after reading tabs, parallel steps) wait for the
   * same request instead of sending the text again. Removed when settled: a failed text can be
   * asked for again. */
  private inflight = new Map<string, Promise<void>>();
  /** Embedding requests made (the cache's effect is visible in tests and the trace). */
  calls = 0;
  /** Texts sent to the endpoint, all requests together. */
  textsSent = 0;

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

  /** The persistent store's key: the model and the text's hash. */
  private storeKey(id: string): string {
    return `${this.modelName ?? ''}\n${id}`;
  }

  has(text: string): boolean {
    return this.vectors.has(textId(text));
  }

  vector(text: string): Float32Array | undefined {
    return this.vectors.get(textId(text));
  }

  /** Makes sure every text has a vector: from memory, then the store, then the endpoint in
   * batches. Each text is requested once however many callers want it at the same time; vectors
   * of finished batches are kept even if a later batch fails. Texts another caller was fetching
   * and failed to get (its request failed or was cancelled) are fetched again, once. */
  async ensure(texts: string[], signal?: AbortSignal): Promise<void> {
    const first = this.claim(texts, signal);
    const own = Promise.allSettled(first.mine);
    if (first.others.length) {
      await Promise.allSettled(first.others);
      const again = this.claim(texts, signal);
      await Promise.all([...again.mine, ...again.others]);
    }
    // Every batch of this call has settled (none left running behind a failure) before it fails.
    const failed = (await own).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Synchronously takes every text that has no vector and is not in flight, and starts fetching
   * it: what this call fetches (`mine`) and what other callers are fetching (`others`). */
  private claim(texts: string[], signal?: AbortSignal): { mine: Promise<void>[]; others: Promise<void>[] } {
    const others = new Set<Promise<void>>();
    const want = new Map<string, string>();
    for (const t of texts) {
      const id = textId(t);
      if (this.vectors.has(id) || want.has(id)) continue;
      const p = this.inflight.get(id);
      if (p) others.add(p);
      else want.set(id, t);
    }
    const mine: Promise<void>[] = [];
    if (!want.size) return { mine, others: [...others] };
    const size = Math.max(1, this.o.batchSize ?? 64);
    const entries = [...want.entries()];
    const looked = this.lookUp([...want.keys()]);
    for (let i = 0; i < entries.length; i += size) {
      const batch = entries.slice(i, i + size);
      const job = looked.then((found) => (found ? this.embedBatch(batch.filter(([id]) => !found.has(id)), signal) : undefined));
      // Awaited by whoever wants these texts; a rejection is theirs to see, never unhandled.
      job.catch(() => undefined);
      for (const [id] of batch) this.inflight.set(id, job);
      const done = () => {
        for (const [id] of batch) if (this.inflight.get(id) === job) this.inflight.delete(id);
      };
      job.then(done, done);
      mine.push(job);
    }
    return { mine, others: [...others] };
  }

  /** Vectors of `ids` from the persistent store into memory: the ids found, or undefined when
   * the endpoint has no embeddings model (nothing to embed; ranking stays lexical). */
  private async lookUp(ids: string[]): Promise<Set<string> | undefined> {
    if (!(await this.model())) return undefined;
    const found = new Set<string>();
    if (!this.o.store) return found;
    const got = await this.o.store.get(ids.map((id) => this.storeKey(id))).catch(() => ids.map(() => undefined));
    ids.forEach((id, i) => {
      const v = got[i];
      if (v) {
        this.vectors.set(id, v);
        found.add(id);
      }
    });
    return found;
  }

  private async embedBatch(batch: [string, string][], signal?: AbortSignal): Promise<void> {
    if (!batch.length) return;
    this.calls++;
    this.textsSent += batch.length;
    const vecs = await this.o.embed(batch.map(([, t]) => t), signal);
    if (vecs.length !== batch.length) throw new Error(`embeddings: expected ${batch.length} vectors, got ${vecs.length}`);
    const fresh = batch.map(([id], i) => ({ id, vector: normalise(vecs[i] ?? []) }));
    for (const e of fresh) this.vectors.set(e.id, e.vector);
    // The store is a cache: failing to write it costs a recomputation later, nothing else.
    await this.o.store?.put(fresh.map((e) => ({ key: this.storeKey(e.id), vector: e.vector }))).catch(() => undefined);
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
