/** An in-memory Library over fixed documents for the pipeline's tests: the shipped passage cutter
 * and ranker (lib/retrieval), without tabs or search. Records every request, so tests can check
 * which queries were made and when, and can add latency or failures. (`npm run eval` and the
 * benchmark use the extension's own library, lib/retrieval/library.ts, instead.) */
import { hashText } from '../../lib/core/text.ts';
import { chunkPage } from '../../lib/retrieval/passages.ts';
import { rankPassages } from '../../lib/retrieval/rank.ts';
import type { Library, RetrieveRequest, RetrieveResult } from '../../lib/retrieval/types.ts';
import type { Origin, Passage, SourceStatus } from '../../lib/core/passage.ts';

export interface MemoryDoc {
  url: string;
  title: string;
  text: string;
  /** The page's HTML where the dataset has it: read with Readability like an open tab. */
  html?: string;
  lang?: string;
  origin?: Origin;
  tabId?: number;
}

export interface MemoryLibraryOptions {
  /** Passages of about this many characters, cut at sentence ends by the shipped cutter (default:
   * one passage per document). */
  passageChars?: number;
  /** Artificial latency per retrieve, ms. */
  delayMs?: number;
  /** Fail every retrieve with this message. */
  fail?: string;
}

export interface MemoryLibrary extends Library {
  passages: Passage[];
  requests: (RetrieveRequest & { at: number })[];
  prepared: number;
}

export function splitPassages(doc: MemoryDoc, passageChars?: number): Passage[] {
  const page = { url: doc.url, hash: hashText(doc.text), title: doc.title, text: doc.text, headings: [], lang: doc.lang };
  const targetChars = passageChars ?? Math.max(80, doc.text.length + 1);
  return chunkPage(page, { targetChars, origin: doc.origin ?? 'web', ...(doc.tabId !== undefined ? { tabId: doc.tabId } : {}) });
}

export function createMemoryLibrary(docs: MemoryDoc[], opts: MemoryLibraryOptions = {}): MemoryLibrary {
  const passages = docs.flatMap((d) => splitPassages(d, opts.passageChars));
  const requests: MemoryLibrary['requests'] = [];
  const lib: MemoryLibrary = {
    passages,
    requests,
    prepared: 0,
    prepare(): Promise<SourceStatus[]> {
      lib.prepared++;
      return Promise.resolve(docs.filter((d) => d.origin === 'tab').map((d) => ({ url: d.url, title: d.title, origin: 'tab' as const, status: 'read' as const, tabId: d.tabId })));
    },
    async retrieve(req: RetrieveRequest): Promise<RetrieveResult> {
      requests.push({ ...req, at: Date.now() });
      if (opts.delayMs) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, opts.delayMs);
          req.signal?.addEventListener('abort', () => {
            clearTimeout(t);
            reject(new Error('aborted'));
          });
        });
      }
      if (opts.fail) throw new Error(opts.fail);
      return { passages: rankPassages(req.query, passages, req.k).map((r) => r.passage), sources: [], errors: [] };
    },
  };
  return lib;
}
