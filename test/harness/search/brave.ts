/** Brave Search API (GET /res/v1/web/search), response and error shapes as documented by Brave. */
import type { SearchDoc } from '../fixture-corpus.ts';
import { lexicalSearch, snippet } from '../text.ts';
import { headerString, sendJson } from '../http-util.ts';
import type { FakeSearchProvider } from './fake-provider.ts';

type Json = Record<string, unknown>;

let errorId = 0;

export function braveError(status: number, code: string, detail: string, meta: Json = {}): Json {
  return {
    type: 'ErrorResponse',
    error: { id: `00000000-0000-4000-8000-${(++errorId).toString(16).padStart(12, '0')}`, status, code, detail, meta },
    time: Math.floor(Date.now() / 1000),
  };
}

export const braveMissingToken = (): Json =>
  braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)', {
    errors: [{ type: 'missing', loc: ['header', 'x-subscription-token'], msg: 'Field required', input: null }],
  });

export const braveInvalidToken = (): Json =>
  braveError(401, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.', { component: 'authentication' });

export function braveStatusError(status: number): Json {
  if (status === 429) return braveError(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', { plan: 'Free', rate_limit: 1, rate_current: 2, quota_limit: 2000, quota_current: 10, component: 'rate_limiter' });
  return braveError(status, 'INTERNAL_ERROR', 'An internal error occurred.');
}

/** Either a validation error (422) or the search body. */
export function braveSearch(docs: SearchDoc[], p: URLSearchParams): { status: number; body: Json } {
  const q = p.get('q');
  const count = Number(p.get('count') ?? 20);
  const offset = Number(p.get('offset') ?? 0);
  if (!q) {
    return { status: 422, body: braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)', { errors: [{ type: 'missing', loc: ['query', 'q'], msg: 'Field required', input: null }] }) };
  }
  if (!Number.isInteger(count) || count < 1 || count > 20) {
    return { status: 422, body: braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)', { errors: [{ type: 'less_than_equal', loc: ['query', 'count'], msg: 'Input should be less than or equal to 20', input: String(count), ctx: { le: 20 } }] }) };
  }
  const all = lexicalSearch(docs, q);
  const hits = all.slice(offset * count, offset * count + count);
  const results = hits.map(({ doc }) => {
    const u = new URL(doc.url);
    return {
      title: doc.title,
      url: doc.url,
      is_source_local: false,
      is_source_both: false,
      description: snippet(doc.text, q, '<strong>', '</strong>', 220),
      page_age: '2024-05-01T12:00:00',
      age: 'May 1, 2024',
      profile: { name: u.hostname, url: doc.url, long_name: u.host, img: `https://imgs.search.brave.com/fake/${u.hostname}.png` },
      language: doc.lang ?? 'en',
      family_friendly: true,
      type: 'search_result',
      subtype: 'generic',
      is_live: false,
      meta_url: {
        scheme: u.protocol.replace(':', ''),
        netloc: u.host,
        hostname: u.hostname,
        favicon: `https://imgs.search.brave.com/fake/${u.hostname}.png`,
        path: u.pathname.split('/').filter(Boolean).map((s) => `› ${s}`).join(' '),
      },
    };
  });
  const body: Json = {
    query: {
      original: q,
      show_strict_warning: false,
      is_navigational: false,
      is_news_breaking: false,
      spellcheck_off: true,
      country: p.get('country') ?? 'us',
      bad_results: false,
      should_fallback: false,
      postal_code: '',
      city: '',
      header_country: '',
      more_results_available: offset * count + count < all.length,
      state: '',
    },
    mixed: { type: 'mixed', main: results.map((_, index) => ({ type: 'web', index, all: false })), top: [], side: [] },
    type: 'search',
  };
  // Brave leaves out the `web` section entirely when there are no web results.
  if (results.length) body.web = { type: 'search', results, family_friendly: true };
  return { status: 200, body };
}

export const fakeBrave: FakeSearchProvider = {
  id: 'brave',
  defaultKey: 'BSA-test-brave-key',
  handle: ({ req, res, path, url, docs, key }) => {
    if (path !== '/res/v1/web/search' || req.method !== 'GET') return false;
    const token = headerString(req, 'x-subscription-token');
    if (!token) sendJson(res, 422, braveMissingToken());
    else if (token !== key) sendJson(res, 401, braveInvalidToken());
    else {
      const r = braveSearch(docs, url.searchParams);
      sendJson(res, r.status, r.body, { 'x-ratelimit-limit': '1, 2000', 'x-ratelimit-remaining': '0, 1990', 'x-ratelimit-reset': '1, 1000000' });
    }
    return true;
  },
  fault: (res, status, headers) => sendJson(res, status, braveStatusError(status), headers),
  settings: (baseURL, apiKey) => ({ baseURL, apiKey }),
  describe: (base, key) => `brave          ${base}/res/v1/web/search  (X-Subscription-Token: ${key})`,
};
