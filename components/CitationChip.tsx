import type { Source } from '@/lib/core/run';
import { useT } from './i18n';

/** A numbered citation; opens (or focuses) its source at the cited passage. */
export function CitationChip({ n, source, onOpen }: { n: number; source?: Source; onOpen?: (s: Source) => void }) {
  const t = useT();
  if (!source) return <sup className="cite cite-missing">[{n}]</sup>;
  return (
    <button
      type="button"
      className="cite"
      data-cite={n}
      title={`${source.title}${source.page !== undefined ? ` (${t('pageN', { n: source.page })})` : ''} — ${source.quote.slice(0, 160)}`}
      aria-label={t('sourceN', { n, title: source.title })}
      onClick={() => onOpen?.(source)}
    >
      {n}
    </button>
  );
}
