/** Multi-query retrieval: a query may carry alternatives ("Louvre opening date || date
 * d'ouverture du Louvre"), written by the model in the languages and vocabulary of the sources.
 * Each alternative is ranked on its own and the rankings are fused by rank (RRF), so a passage
 * found by any of them can lead. */
import type { CatalogueEntry } from '../core/passage';
import { documentUrl } from '../core/url';

/** At most this many alternatives are used (each costs a ranking and, for the web, a search). */
export const MAX_ALTERNATIVES = 3;

export const QUERY_SEPARATOR = ' || ';

/** The distinct, non-empty alternatives of a query, in order. */
export function queryAlternatives(query: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of query.split('||')) {
    const q = part.replace(/\s+/g, ' ').trim();
    const key = q.toLowerCase();
    if (!q || seen.has(key)) continue;
    seen.add(key);
    out.push(q);
    if (out.length >= MAX_ALTERNATIVES) break;
  }
  return out;
}

/** A catalogue entry for one page: title, host, language, address without query or fragment. */
export function catalogueEntry(page: { url: string; title: string; lang?: string }, origin: CatalogueEntry['origin']): CatalogueEntry {
  let site = '';
  let url = documentUrl(page.url).split('?')[0] ?? '';
  try {
    const u = new URL(page.url);
    site = u.hostname;
    url = `${u.origin}${u.pathname}`;
  } catch {
    // Not a URL (a test document's id): the address stays as given, without a site.
  }
  return { title: page.title, site, url, ...(page.lang ? { lang: page.lang } : {}), origin };
}
