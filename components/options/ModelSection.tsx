/** The model endpoint: provider preset (fills the base URL), key, model, time-out, and Test
 * connection, which lists the server's models when no model is named yet, lets the user pick one,
 * checks it with a tiny call and saves (or says Save is needed). */
import { useState } from 'react';
import { BUILTIN_MODEL_ID } from '@/lib/llm/builtin-availability';
import { PROVIDER_PRESETS, validateSettings, type LlmSettings, type ProviderPreset, type Settings, type SettingsProblem } from '@/lib/settings/schema';
import { ErrorNotice } from '../ErrorNotice';
import { useT } from '../i18n';
import { useConnection } from '../setup/use-connection';
import { useBuiltinModel } from '../setup/use-builtin';
import { BuiltinDownload } from '../setup/BuiltinDownload';
import { useEmbeddingChoice } from './use-embedding-choice';
import { EndpointFields } from './EndpointFields';
import { Field } from './fields';

export type AfterTest = 'saved' | 'needs-save';

export interface ModelSectionProps {
  settings: Settings;
  problems: SettingsProblem[];
  onChange: (patch: Partial<Settings['llm']>) => void;
  onProblems: (p: SettingsProblem[]) => void;
  /** A test succeeded with these endpoint settings: save if the whole form is valid. */
  onConnected: (llm: LlmSettings) => Promise<AfterTest>;
}

type After = { result: AfterTest; model: string; ms: number };

/** Test connection: list the models while none is named, else one tiny call; a model picked from
 * the list is tested at once. A successful test saves if it can (`after` says which). */
function useModelTest({ settings, onChange, onProblems, onConnected }: ModelSectionProps) {
  const llm = settings.llm;
  const c = useConnection();
  const [after, setAfter] = useState<After>();
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
  const choosePreset = (preset: ProviderPreset) => {
    c.reset();
    setAfter(undefined);
    if (preset === 'builtin') return onChange({ preset, baseURL: '', apiKey: '', model: BUILTIN_MODEL_ID });
    const known = preset !== 'custom' ? PROVIDER_PRESETS[preset] : undefined;
    onChange({ preset, baseURL: known ? known.baseURL : llm.baseURL, model: llm.model === BUILTIN_MODEL_ID ? '' : llm.model });
  };
  return { c, after, test, pick, choosePreset };
}

export function ModelSection(props: ModelSectionProps) {
  const { settings, problems, onChange } = props;
  const t = useT();
  const llm = settings.llm;
  const { c, after, test, pick, choosePreset } = useModelTest(props);
  const embeddings = useEmbeddingChoice(llm);
  // Offered once Chrome has it or can download it ("downloadable" is offered as a download).
  const builtin = useBuiltinModel();
  const builtinReady = builtin.state.kind !== 'unavailable' && builtin.state.kind !== 'checking';
  const busy = c.state.phase === 'listing' || c.state.phase === 'testing';
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
      {llm.preset === 'builtin' ? (
        <BuiltinDownload state={builtin.state} onDownload={() => void builtin.download()} />
      ) : (
        <EndpointFields llm={llm} problems={problems} models={c.models} embeddings={embeddings} onChange={onChange} />
      )}
      <div className="row">
        <button type="button" onClick={() => void test()} disabled={busy}>
          {busy ? t('testing') : t('testConnection')}
        </button>
      </div>
      <TestResult c={c} after={after} onPick={pick} />
    </fieldset>
  );
}

/** What Test connection found: the models to pick from, the model checked (saved or not), or the
 * failure. */
function TestResult({ c, after, onPick }: { c: ReturnType<typeof useConnection>; after: After | undefined; onPick: (model: string) => void }) {
  const t = useT();
  const listedModels = c.state.phase === 'listed' ? c.models : [];
  return (
    <>
      {listedModels.length > 0 && (
        <Field label={t('modelsFound', { n: listedModels.length })} id="model-pick">
          <select id="model-pick" value="" onChange={(e) => onPick(e.target.value)}>
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
    </>
  );
}
