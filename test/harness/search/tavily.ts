/** Tavily Search API (POST /search), response and error shapes as Tavily returns them. */
import type { SearchDoc } from '../fixture-corpus.ts';
import { lexicalSearch, snippet } from '../text.ts';
import { headerString, sendJson } from '../http-util.ts';
import type { FakeSearchProvider } from './fake-provider.ts';

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

export const fakeTavily: FakeSearchProvider = {
  id: 'tavily',
  defaultKey: 'tvly-test-key',
  handle: ({ req, res, path, body, docs, key, startedAt }) => {
    if (path !== '/search') return false;
    if (req.method !== 'POST') {
      sendJson(res, 405, { detail: 'Method Not Allowed' });
      return true;
    }
    const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : {};
    // Newer clients send the key as a bearer token; older ones put api_key in the body.
    const bearer = headerString(req, 'authorization')?.replace(/^Bearer\s+/i, '');
    const given = bearer || (typeof b.api_key === 'string' ? b.api_key : undefined);
    if (given !== key) sendJson(res, 401, tavilyError(TAVILY_UNAUTHORIZED));
    else {
      const r = tavilySearch(docs, b, startedAt);
      sendJson(res, r.status, r.body);
    }
    return true;
  },
  fault: (res, status, headers) => sendJson(res, status, tavilyError(status === 429 ? 'Rate limit exceeded. Please upgrade your plan or try again later.' : 'Internal server error.'), headers),
  settings: (baseURL, apiKey) => ({ baseURL, apiKey }),
  describe: (base, key) => `tavily         ${base}/search  (Authorization: Bearer ${key})`,
};
