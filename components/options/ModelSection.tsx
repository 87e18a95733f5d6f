/** The model endpoint: provider preset, URL, key, model, and Test connection. */
import { useEffect, useState } from 'react';
import { request, RequestFailed } from '@/lib/browser/messaging';
import { BUILTIN_MODEL_ID, builtinAvailable } from '@/lib/llm/builtin-availability';
import type { ConnectionReport } from '@/lib/messages';
import { PROVIDER_PRESETS, validateSettings, type ProviderPreset, type Settings, type SettingsProblem } from '@/lib/settings/schema';
import { ErrorNotice } from '../ErrorNotice';
import { useT } from '../i18n';
import { Field, problemText } from './fields';

export function ModelSection({ settings, problems, onChange, onProblems }: { settings: Settings; problems: SettingsProblem[]; onChange(patch: Partial<Settings['llm']>): void; onProblems(p: SettingsProblem[]): void }) {
  const t = useT();
  const llm = settings.llm;
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<ConnectionReport>();
  const [models, setModels] = useState<string[]>([]);
  const [builtinReady, setBuiltinReady] = useState(false);
  useEffect(() => {
    void builtinAvailable().then(setBuiltinReady);
  }, []);

  const choosePreset = (preset: ProviderPreset) => {
    setReport(undefined);
    if (preset === 'builtin') return onChange({ preset, baseURL: '', apiKey: '', model: BUILTIN_MODEL_ID });
    const known = preset !== 'custom' ? PROVIDER_PRESETS[preset] : undefined;
    onChange({ preset, baseURL: known ? known.baseURL : llm.baseURL, model: llm.model === BUILTIN_MODEL_ID ? '' : llm.model });
  };

  const test = async () => {
    const found = validateSettings(settings).filter((p) => p.field.startsWith('llm.'));
    onProblems(found);
    if (found.length) return;
    setTesting(true);
    setReport(undefined);
    try {
      const r = await request('llm/test', { llm });
      setReport(r);
      if (r.models.length) setModels(r.models);
    } catch (err) {
      setReport({ ok: false, models: [], error: err instanceof RequestFailed ? err.error : { code: 'unknown', message: String(err) } });
    }
    setTesting(false);
  };

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
      {llm.preset !== 'builtin' && (
        <>
          <Field label={t('baseUrl')} id="baseURL" error={problemText(t, problems, 'llm.baseURL')}>
            <input id="baseURL" type="url" value={llm.baseURL} placeholder="https://api.openai.com/v1" onChange={(e) => onChange({ baseURL: e.target.value })} />
          </Field>
          <Field label={t('apiKey')} id="apiKey">
            <input id="apiKey" type="password" autoComplete="off" value={llm.apiKey} onChange={(e) => onChange({ apiKey: e.target.value })} />
          </Field>
          <Field label={t('model')} id="model" error={problemText(t, problems, 'llm.model')}>
            <input id="model" list="model-list" value={llm.model} placeholder="gpt-4o-mini" onChange={(e) => onChange({ model: e.target.value })} />
            <datalist id="model-list">
              {models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </Field>
          <Field label={t('embeddingModel')} id="embeddingModel">
            <input id="embeddingModel" list="model-list" value={llm.embeddingModel} onChange={(e) => onChange({ embeddingModel: e.target.value })} />
          </Field>
        </>
      )}
      <div className="row">
        <button type="button" onClick={() => void test()} disabled={testing}>
          {testing ? t('testing') : t('testConnection')}
        </button>
      </div>
      {report?.ok && (
        <p className="notice notice-ok" role="status" data-testid="test-ok">
          {t('testOk', { model: llm.model, ms: report.latencyMs ?? 0 })} {report.models.length ? t('testOkModels', { n: report.models.length }) : ''}
        </p>
      )}
      {report && !report.ok && report.error && <ErrorNotice error={report.error} />}
    </fieldset>
  );
}
