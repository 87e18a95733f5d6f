/** A page checked before, offered again when the user is on it: "Checked 3 days ago: 2
 * corrected", how many checked sentences the page still shows unchanged, and the results (marks
 * drawn again on those sentences only) or a new check. */
import type { EarlierCheck as Earlier } from '@/lib/runs/messages';
import { VERDICTS } from '@/lib/core/verdicts';
import { useLang, useT } from './i18n';
import { countsText } from './report-items';

/** "3 days ago", "just now", in the UI language. */
export function ago(lang: string, then: number, now = Date.now()): string {
  const fmt = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const s = Math.round((then - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) if (Math.abs(s) >= size) return fmt.format(Math.round(s / size), unit);
  return fmt.format(0, 'second');
}

export function EarlierCheck({ earlier, onShow, onCheckAgain }: { earlier: Earlier; onShow: () => void; onCheckAgain: () => void }) {
  const t = useT();
  const lang = useLang();
  // The corrections first: they are what the reader came back for.
  const changes = { ...Object.fromEntries(VERDICTS.map((v) => [v, 0])), corrected: earlier.counts.corrected, refuted: earlier.counts.refuted } as Earlier['counts'];
  const parts = countsText(t, changes) || t('earlierNone');
  return (
    <section className="notice earlier-check" data-testid="earlier-check" aria-labelledby="earlier-title">
      <h2 id="earlier-title" className="notice-title">
        {t('earlierTitle', { when: ago(lang, earlier.checkedAt), parts })}
      </h2>
      <p className="small muted">{t('earlierUnchanged', { k: earlier.unchanged, n: earlier.total })}</p>
      <div className="row">
        <button type="button" className="primary" onClick={onShow}>
          {t('showEarlier')}
        </button>
        <button type="button" onClick={onCheckAgain}>
          {t('checkAgain')}
        </button>
      </div>
    </section>
  );
}
