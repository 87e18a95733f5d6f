/** Tavily Search API (POST /search), response and error shapes as Tavily returns them. */
import type { SearchDoc } from '../fixture-corpus.ts';
import { lexicalSearch, snippet } from '../text.ts';

type Json = Record<string, unknown>;

export const tavilyError = (message: string): Json => ({ detail: { error: message } });
export const TAVILY_UNAUTHORIZED = 'Unauthorized: missing or invalid API key.';

const plain = (html: string): string => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

let requestCounter = 0;

export function tavilySearch(docs: SearchDoc[], body: Json, startedAt: number): { status: number; body: Json } {
  const q = typeof body.query === 'string' ? body.query : '';
  if (!q.trim()) return { status: 400, body: tavilyError('Query is missing.') };
  const max = typeof body.max_results === 'number' ? body.max_results : 5;
  if (max < 0 || max > 20) return { status: 400, body: tavilyError('max_results must be between 0 and 20.') };
  const raw = body.include_raw_content;
  const hits = lexicalSearch(docs, q).slice(0, max);
  const top = hits[0]?.score ?? 1;
  const results = hits.map(({ doc, score }) => ({
    url: doc.url,
    title: doc.title,
    content: plain(snippet(doc.text, q, '', '', body.search_depth === 'advanced' ? 500 : 300)),
    // Tavily scores are relevance in [0, 1].
    score: Math.round((0.3 + 0.69 * (score / top)) * 1e4) / 1e4,
    raw_content: raw === true || raw === 'text' || raw === 'markdown' ? doc.text.replace(/\n+(==+) (.*?) ==+\n/g, (_, eq: string, h: string) => `\n\n${'#'.repeat(eq.length)} ${h}\n`) : null,
  }));
  const wantsAnswer = body.include_answer === true || body.include_answer === 'basic' || body.include_answer === 'advanced';
  const firstSentence = hits[0]?.doc.text.split(/(?<=[.!?。！？])\s*/u)[0];
  return {
    status: 200,
    body: {
      query: q,
      follow_up_questions: null,
      answer: wantsAnswer && firstSentence ? firstSentence : null,
      images: [],
      results,
      response_time: Math.round((Date.now() - startedAt) / 10) / 100 || 0.01,
      request_id: `00000000-0000-4000-9000-${(++requestCounter).toString(16).padStart(12, '0')}`,
    },
  };
}
