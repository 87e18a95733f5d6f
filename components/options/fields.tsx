/** Form controls of the options page. Number fields take their range from the settings schema,
 * so the form and the validation cannot disagree. */
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { rangeOf } from '@/lib/settings/fields';
import type { SettingsProblem } from '@/lib/settings/schema';
import type { T } from '../i18n';

export function Field({ label, id, error, hint, children }: { label: string; id: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <span className="field-hint">{hint}</span>}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

export function Toggle({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="checkbox" htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

export function NumberField(props: { id: string; label: string; schema: z.ZodType; value: number; error?: string; step?: number; onChange(v: number): void }) {
  const r = rangeOf(props.schema);
  return (
    <Field label={props.label} id={props.id} error={props.error}>
      <input id={props.id} type="number" min={r.min} max={r.max} step={props.step ?? r.step} value={props.value} onChange={(e) => props.onChange(Number(e.target.value))} />
    </Field>
  );
}

/** The translated message for a field's problem, if it has one. */
export function problemText(t: T, problems: SettingsProblem[], field: string, schema?: z.ZodType): string | undefined {
  const p = problems.find((x) => x.field === field);
  if (!p) return undefined;
  if (p.message === 'required') return t('fieldRequired');
  if (p.message === 'url-invalid' || p.message === 'url-scheme') return t('fieldUrl');
  if (p.message === 'url-insecure') return t('fieldUrlInsecure');
  const r = schema ? rangeOf(schema) : {};
  // Time-outs are stored in ms but entered in seconds.
  const k = field.endsWith('timeoutMs') ? 1000 : 1;
  return t('fieldRange', { range: r.min !== undefined && r.max !== undefined ? `${r.min / k}–${r.max / k}` : '' });
}
