/** The model endpoint: provider preset (fills the base URL), key, model, time-out, and Test
 * connection, which lists the server's models when no model is named yet, lets the user pick one,
 * checks it with a tiny call and saves (or says Save is needed). */
import { useState } from 'react';
import { BUILTIN_MODEL_ID } from '@/lib/llm/builtin-availability';
import { PROVIDER_PRESETS, SECTION_SCHEMAS, validateSettings, type LlmSettings, type ProviderPreset, type Settings, type SettingsProblem } from '@/lib/settings/schema';
import { rangeOf } from '@/lib/settings/fields';
import { ErrorNotice } from '../ErrorNotice';
import { useT } from '../i18n';
import { useConnection } from '../setup/use-connection';
import { useBuiltinModel } from '../setup/use-builtin';
import { BuiltinDownload } from '../setup/BuiltinDownload';
import { useEmbeddingChoice } from './use-embedding-choice';
import { Field, problemText } from './fields';

export type AfterTest = 'saved' | 'needs-save';

export interface ModelSectionProps {
  settings: Settings;
  problems: SettingsProblem[];
  onChange(patch: Partial<Settings['llm']>): void;
  onProblems(p: SettingsProblem[]): void;
  /** A test succeeded with these endpoint settings: save if the whole form is valid. */
  onConnected(llm: LlmSettings): Promise<AfterTest>;
}

const TIMEOUT = rangeOf(SECTION_SCHEMAS.llm.shape.timeoutMs);

export function ModelSection({ settings, problems, onChange, onProblems, onConnected }: ModelSectionProps) {
  const t = useT();
  const llm = settings.llm;
  const c = useConnection();
  const embeddings = useEmbeddingChoice(llm);
  const embeddingsHint = !embeddings
    ? t('embeddingsChecking')
    : embeddings.how === 'off'
      ? t('embeddingsOff')
      : embeddings.how === 'none-found'
        ? t('embeddingsNone')
        : t(embeddings.how === 'set' ? 'embeddingsSet' : embeddings.how === 'openai' ? 'embeddingsOpenai' : 'embeddingsFound', { model: embeddings.model ?? '' });
  const [after, setAfter] = useState<{ result: AfterTest; model: string; ms: number }>();
  // Offered once Chrome has it or can download it ("downloadable" is offered as a download).
  const builtin = useBuiltinModel();
  const builtinReady = builtin.state.kind !== 'unavailable' && builtin.state.kind !== 'checking';

  const choosePreset = (preset: ProviderPreset) => {
    c.reset();
    setAfter(undefined);
    if (preset === 'builtin') return onChange({ preset, baseURL: '', apiKey: '', model: BUILTIN_MODEL_ID });
    const known = preset !== 'custom' ? PROVIDER_PRESETS[preset] : undefined;
    onChange({ preset, baseURL: known ? known.baseURL : llm.baseURL, model: llm.model === BUILTIN_MODEL_ID ? '' : llm.model });
  };

  const check = async (endpoint: LlmSettings) => {
    setAfter(undefined);
    const report = await c.test(endpoint);
    if (report?.ok) setAfter({ result: await onConnected(endpoint), model: endpoint.model, ms: report.latencyMs ?? 0 });
  };

  const test = async () => {
    // Only the address must be right to list models; the model is picked from the list.
    const found = validateSettings(settings).filter((p) => p.field === 'llm.baseURL');
    onProblems(found);
    if (found.length) return;
    if (llm.preset !== 'builtin' && !llm.model) await c.list(llm);
    else await check(llm);
  };

  const pick = (model: string) => {
    onChange({ model });
    if (model) void check({ ...llm, model });
  };

  const busy = c.state.phase === 'listing' || c.state.phase === 'testing';
  const listedModels = c.state.phase === 'listed' ? c.models : [];
  return (
    <fieldset>
      <legend>{t('modelSection')}</legend>
      <Field label={t('provider')} id="preset">
        <select id="preset" value={llm.preset} onChange={(e) => choosePreset(e.target.value as ProviderPreset)}>
          {Object.entries(PROVIDER_PRESETS).map(([k, p]) => (
            <option key={k} value={k}>
              {p.label}
            </option>
          ))}
          <option value="custom">{t('customProvider')}</option>
          {(builtinReady || llm.preset === 'builtin') && <option value="builtin">{t('builtinProvider')}</option>}
        </select>
      </Field>
      {llm.preset === 'builtin' && <BuiltinDownload state={builtin.state} onDownload={() => void builtin.download()} />}
      {llm.preset !== 'builtin' && (
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
              {c.models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </Field>
          <Field label={t('embeddingModel')} id="embeddingModel" hint={embeddingsHint}>
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
              {(['none', 'minimal', 'low', 'medium', 'high'] as const).map((v) => (
                <option key={v} value={v}>
                  {t(`effort_${v}`)}
                </option>
              ))}
            </select>
          </Field>
        </>
      )}
      <div className="row">
        <button type="button" onClick={() => void test()} disabled={busy}>
          {busy ? t('testing') : t('testConnection')}
        </button>
      </div>
      {listedModels.length > 0 && (
        <Field label={t('modelsFound', { n: listedModels.length })} id="model-pick">
          <select id="model-pick" value="" onChange={(e) => pick(e.target.value)}>
            <option value="">{t('pickModelPrompt')}</option>
            {listedModels.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </Field>
      )}
      {c.state.phase === 'listed' && !listedModels.length && <p className="small">{t('noModelsListed')}</p>}
      {c.state.phase === 'ok' && after && (
        <p className="notice notice-ok" role="status" data-testid="test-ok">
          {t(after.result === 'saved' ? 'connectedSaved' : 'connectedNeedsSave', { model: after.model, ms: after.ms })} {c.models.length ? t('testOkModels', { n: c.models.length }) : ''}
        </p>
      )}
      {c.state.phase === 'failed' && <ErrorNotice error={c.state.error} inForm />}
    </fieldset>
  );
}
