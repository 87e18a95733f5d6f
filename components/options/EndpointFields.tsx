/** The fields of an endpoint the user names (not the browser's own model): address, key, model,
 * embeddings model (with what a run would use), time-out and reasoning effort. */
import { SECTION_SCHEMAS, type LlmSettings, type Settings, type SettingsProblem } from '@/lib/settings/schema';
import { rangeOf } from '@/lib/settings/fields';
import type { EmbeddingChoice } from '@/lib/retrieval/embedding-model';
import { useT, type T } from '../i18n';
import { Field, problemText } from './fields';

const TIMEOUT = rangeOf(SECTION_SCHEMAS.llm.shape.timeoutMs);
const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;

/** The line under the embeddings field: the model a run would use, found at the endpoint. */
function embeddingsHint(t: T, e: EmbeddingChoice | undefined): string {
  if (!e) return t('embeddingsChecking');
  if (e.how === 'off') return t('embeddingsOff');
  if (e.how === 'none-found') return t('embeddingsNone');
  const key = e.how === 'set' ? 'embeddingsSet' : e.how === 'openai' ? 'embeddingsOpenai' : 'embeddingsFound';
  return t(key, { model: e.model ?? '' });
}

export function EndpointFields({ llm, problems, models, embeddings, onChange }: { llm: LlmSettings; problems: SettingsProblem[]; models: string[]; embeddings: EmbeddingChoice | undefined; onChange: (patch: Partial<Settings['llm']>) => void }) {
  const t = useT();
  return (
    <>
      <Field label={t('baseUrl')} id="baseURL" error={problemText(t, problems, 'llm.baseURL')}>
        <input id="baseURL" type="url" value={llm.baseURL} onChange={(e) => onChange({ baseURL: e.target.value })} />
      </Field>
      <Field label={t('apiKey')} id="apiKey">
        <input id="apiKey" type="password" autoComplete="off" value={llm.apiKey} onChange={(e) => onChange({ apiKey: e.target.value })} />
      </Field>
      <Field label={t('model')} id="model" error={problemText(t, problems, 'llm.model')} hint={t('modelHint')}>
        <input id="model" list="model-list" value={llm.model} onChange={(e) => onChange({ model: e.target.value })} />
        <datalist id="model-list">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </Field>
      <Field label={t('embeddingModel')} id="embeddingModel" hint={embeddingsHint(t, embeddings)}>
        <input id="embeddingModel" list="model-list" value={llm.embeddingModel} onChange={(e) => onChange({ embeddingModel: e.target.value })} />
      </Field>
      <Field label={t('timeoutLabel')} id="timeout" error={problemText(t, problems, 'llm.timeoutMs', SECTION_SCHEMAS.llm.shape.timeoutMs)}>
        <input
          id="timeout"
          type="number"
          min={(TIMEOUT.min ?? 0) / 1000}
          max={(TIMEOUT.max ?? 0) / 1000}
          step={1}
          value={Math.round(llm.timeoutMs / 1000)}
          onChange={(e) => onChange({ timeoutMs: Number(e.target.value) * 1000 })}
        />
      </Field>
      <Field label={t('effortLabel')} id="effort" hint={t('effortHint')}>
        <select id="effort" value={llm.reasoningEffort ?? 'low'} onChange={(e) => onChange({ reasoningEffort: e.target.value as NonNullable<LlmSettings['reasoningEffort']> })}>
          {EFFORTS.map((v) => (
            <option key={v} value={v}>
              {t(`effort_${v}`)}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}
