import { diffWords } from 'diff';
import { useT } from './i18n';

/** Word-level difference between a draft step and its revision. */
export function StepDiff({ before, after }: { before: string; after: string }) {
  const t = useT();
  if (before === after) return <p className="step-text">{after}</p>;
  const parts = diffWords(before, after);
  return (
    <p className="step-text diff" aria-label={t('stepChanges')}>
      {parts.map((p, i) =>
        p.added ? (
          <ins key={i}>{p.value}</ins>
        ) : p.removed ? (
          <del key={i}>{p.value}</del>
        ) : (
          <span key={i}>{p.value}</span>
        ),
      )}
    </p>
  );
}
