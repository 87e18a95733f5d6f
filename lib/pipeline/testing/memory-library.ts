/** An in-memory Library over fixed documents, ranked with BM25. Used by the pipeline's tests and
 * by the eval CLI (each example's documents are its library). Records every request, so tests
 * can check which queries were made and when. */
import type { Library, Origin, Passage, RetrieveRequest, RetrieveResult, SourceStatus } from '../../retrieval/types';
import { bm25 } from '../refine';

export interface MemoryDoc {
  url: string;
  title: string;
  text: string;
  origin?: Origin;
  tabId?: number;
}

export interface MemoryLibraryOptions {
  /** Split documents into passages of about this many characters at sentence ends (default: one
   * passage per document). */
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

function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

export function splitPassages(doc: MemoryDoc, passageChars?: number): Passage[] {
  const pieces: { text: string; start: number }[] = [];
  if (!passageChars || doc.text.length <= passageChars) pieces.push({ text: doc.text, start: 0 });
  else {
    let start = 0;
    let cur = '';
    let curStart = 0;
    for (const m of doc.text.matchAll(/[^.!?。！？]+[.!?。！？]*\s*/g)) {
      if (cur && cur.length + m[0].length > passageChars) {
        pieces.push({ text: cur.trim(), start: curStart });
        cur = '';
      }
      if (!cur) curStart = m.index ?? start;
      cur += m[0];
      start = (m.index ?? 0) + m[0].length;
    }
    if (cur.trim()) pieces.push({ text: cur.trim(), start: curStart });
  }
  return pieces.map((p) => ({
    id: `${hash(doc.url)}-${p.start}`,
    url: doc.url,
    title: doc.title,
    origin: doc.origin ?? 'web',
    text: p.text,
    headingPath: [],
    start: p.start,
    end: p.start + p.text.length,
    ...(doc.tabId !== undefined ? { tabId: doc.tabId } : {}),
  }));
}

export function createMemoryLibrary(docs: MemoryDoc[], opts: MemoryLibraryOptions = {}): MemoryLibrary {
  const passages = docs.flatMap((d) => splitPassages(d, opts.passageChars));
  const requests: MemoryLibrary['requests'] = [];
  const lib: MemoryLibrary = {
    passages,
    requests,
    prepared: 0,
    async prepare(): Promise<SourceStatus[]> {
      lib.prepared++;
      return docs.filter((d) => d.origin === 'tab').map((d) => ({ url: d.url, title: d.title, origin: 'tab' as const, status: 'read' as const, tabId: d.tabId }));
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
      const scores = bm25(req.query, passages.map((p) => `${p.title} ${p.text}`));
      const ranked = passages
        .map((p, i) => ({ p, s: scores[i] }))
        .filter((x) => x.s > 0)
        .sort((a, b) => b.s - a.s)
        .slice(0, req.k)
        .map((x) => x.p);
      return { passages: ranked, sources: [], errors: [] };
    },
  };
  return lib;
}
