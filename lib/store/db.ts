import Dexie, { type EntityTable } from 'dexie';
import type { CachedPage } from '../retrieval/page-cache';
import type { Run, RunMode, RunStatus } from '../core/run';

export interface RunSummary {
  id: string;
  /** The conversation the run belongs to (a run asked on its own is its own thread: its id). */
  threadId: string;
  createdAt: number;
  mode: RunMode;
  status: RunStatus;
  text: string;
  /** Lower-cased text searched by the history box: question, page title, start of the answer. */
  haystack: string;
  pageTitle?: string;
  /** Page checks: the page's address (no query string or fragment), to offer the check again. */
  pageUrl?: string;
  sourceCount: number;
}

/** A passage's (or query's) embedding, by model and text hash. */
export interface CachedEmbedding {
  /** `${model}\n${hash}:${length}` (lib/retrieval/dense.ts). */
  key: string;
  vector: Float32Array;
  storedAt: number;
}

/** The one storage module: runs (with their trace and sources) and the page cache. */
export class RatifyDb extends Dexie {
  runs!: EntityTable<Run, 'id'>;
  /** A small row per run so the history list never loads whole traces. */
  runIndex!: EntityTable<RunSummary, 'id'>;
  pages!: EntityTable<CachedPage, 'url'>;
  embeddings!: EntityTable<CachedEmbedding, 'key'>;

  constructor(name = 'ratify') {
    super(name);
    this.version(1).stores({
      runs: 'id, createdAt, status',
      runIndex: 'id, createdAt',
      pages: 'url, storedAt',
    });
    // v2: threads. Each run's summary names its thread; runs stored before threads existed are
    // threads of one (thread id = run id), which is also what threadOf() says for them.
    this.version(2)
      .stores({ runIndex: 'id, createdAt, threadId' })
      .upgrade((tx) =>
        tx
          .table<RunSummary, string>('runIndex')
          .toCollection()
          .modify((row) => {
            row.threadId ??= row.id;
          }),
      );
    // v3: embeddings of passages, so an unchanged tab is never embedded twice.
    this.version(3).stores({ embeddings: 'key, storedAt' });
  }
}

let shared: RatifyDb | undefined;
export function db(): RatifyDb {
  return (shared ??= new RatifyDb());
}
