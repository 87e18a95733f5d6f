import type { Source } from '@/lib/core/run';
import { useT } from './i18n';
import { SiteIcon } from './SiteIcon';

interface PageGroup {
  url: string;
  title: string;
  site: string;
  origin: Source['origin'];
  sources: Source[];
}

/** Sources of one page together, in the order the page is first cited. */
export function groupByPage(sources: Source[]): PageGroup[] {
  const groups = new Map<string, PageGroup>();
  for (const s of [...sources].sort((a, b) => a.n - b.n)) {
    const key = s.url.split('#')[0] ?? s.url;
    const g = groups.get(key);
    if (g) g.sources.push(s);
    else groups.set(key, { url: s.url, title: s.title, site: s.site, origin: s.origin, sources: [s] });
  }
  return [...groups.values()];
}

/** One row per page, its cited passages under it; each passage opens (or focuses) the page there. */
export function SourceList({ sources, onOpen }: { sources: Source[]; onOpen: (s: Source) => void }) {
  const t = useT();
  if (!sources.length) return null;
  return (
    <section aria-label={t('sources')} className="source-list">
      <h3>{t('sources')}</h3>
      <ol className="sources">
        {groupByPage(sources).map((g) => (
          <li key={g.url} data-source={g.sources.map((s) => s.n).join(' ')}>
            <div className="source-page">
              <SiteIcon url={g.url} />
              <div>
                <button type="button" className="link source-title" onClick={() => g.sources[0] && onOpen(g.sources[0])}>
                  {g.title || g.url}
                </button>
                <div className="muted small">
                  {g.site} · {g.origin === 'tab' ? t('originTab') : t('originWeb')}
                </div>
              </div>
            </div>
            <ul className="quotes">
              {g.sources.flatMap((s) =>
                // A passage two steps took two facts from: each quote opens the page at itself.
                [s, ...(s.more ?? []).map((m) => ({ ...s, ...m }))].map((q, i) => (
                  <li key={`${s.n}-${i}`}>
                    <button
                      type="button"
                      className="quote"
                      aria-label={`${t('quoteOpen', { title: g.title || g.site })}${q.page !== undefined ? `, ${t('pageN', { n: q.page })}` : ''}: ${q.quote}`}
                      onClick={() => onOpen(q)}
                    >
                      <span className="quote-n">{q.n}</span>
                      <span className="quote-text">
                        {/* A PDF passage's page: the citation opens the PDF there. */}
                        {q.page !== undefined && <span className="quote-page">{t('pageN', { n: q.page })}</span>}“{q.quote}”
                      </span>
                    </button>
                  </li>
                )),
              )}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}
