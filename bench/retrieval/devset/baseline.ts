/** The baseline: plain BM25 (k1 1.2, b 0.75) over consecutive, non-overlapping 120-word
 * chunks of each page's readable text. No title or heading field, no bonuses, no sentence
 * boundaries. Words for chunking are Intl.Segmenter word segments (so Chinese text is cut too);
 * terms are lib/retrieval's tokenizer's (the same stopwords and folding the library uses), so the
 * comparison is about chunking and ranking, not about tokenization. */
import { tokenize } from '../../../lib/retrieval/tokenize';
import type { RankedUnit } from './metrics';

export const BASELINE_WORDS = 120;

export interface Chunk extends RankedUnit {
  terms: Map<string, number>;
  len: number;
}

const words = new Intl.Segmenter('en', { granularity: 'word' });

export function chunkWords(page: string, text: string, size = BASELINE_WORDS): Chunk[] {
  const out: Chunk[] = [];
  let start = -1;
  let end = 0;
  let count = 0;
  const emit = () => {
    if (start < 0) return;
    const toks = tokenize(text.slice(start, end));
    const terms = new Map<string, number>();
    for (const t of toks) terms.set(t, (terms.get(t) ?? 0) + 1);
    out.push({ page, start, end, chars: end - start, terms, len: toks.length });
    start = -1;
    count = 0;
  };
  for (const s of words.segment(text)) {
    if (!s.isWordLike) continue;
    if (start < 0) start = s.index;
    end = s.index + s.segment.length;
    if (++count >= size) emit();
  }
  emit();
  return out;
}

export class Bm25Baseline {
  private df = new Map<string, number>();
  private avgLen: number;

  constructor(
    private chunks: Chunk[],
    private k1 = 1.2,
    private b = 0.75,
  ) {
    for (const c of chunks) for (const t of c.terms.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.avgLen = chunks.reduce((s, c) => s + c.len, 0) / (chunks.length || 1);
  }

  search(query: string, k: number): Chunk[] {
    const q = [...new Set(tokenize(query))];
    const n = this.chunks.length;
    const scored: { c: Chunk; s: number }[] = [];
    for (const c of this.chunks) {
      let s = 0;
      for (const t of q) {
        const tf = c.terms.get(t);
        if (!tf) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        s += (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * c.len) / this.avgLen));
      }
      if (s > 0) scored.push({ c, s });
    }
    return scored.sort((a, b) => b.s - a.s).slice(0, k).map((x) => x.c);
  }
}
