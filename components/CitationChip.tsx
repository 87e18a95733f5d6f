import type { Source } from '@/lib/pipeline/types';

/** A numbered citation; opens (or focuses) its source at the cited passage. */
export function CitationChip({ n, source, onOpen }: { n: number; source?: Source; onOpen?: (s: Source) => void }) {
  if (!source) return <sup className="cite cite-missing">[{n}]</sup>;
  return (
    <button
      type="button"
      className="cite"
      data-cite={n}
      title={`${source.title} — ${source.quote.slice(0, 160)}`}
      aria-label={`Source ${n}: ${source.title}`}
      onClick={() => onOpen?.(source)}
    >
      {n}
    </button>
  );
}
