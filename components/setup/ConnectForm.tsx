/** A model endpoint set up in three moves: address (and key), Test (the server's models are
 * listed, no name needed), pick one (a tiny call checks it, and it is saved). */
import { useState } from 'react';
import { DEFAULT_SETTINGS, type LlmSettings, type ProviderPreset } from '@/lib/settings/schema';
import { ErrorNotice } from '../ErrorNotice';
import { useT } from '../i18n';
import { useConnection } from './use-connection';

export interface ConnectFormProps {
  id: string;
  preset: ProviderPreset;
  baseURL: string;
  /** The key field is shown (API-key providers). */
  withKey: boolean;
  /** Base URL editable (other providers, non-default Ollama ports). */
  editableUrl: boolean;
  /** Saves the endpoint (it answered in `ms`); resolves when stored. */
  onSave: (llm: LlmSettings, ms: number) => Promise<void>;
}

export function ConnectForm(p: ConnectFormProps) {
  const t = useT();
  const [baseURL, setBaseURL] = useState(p.baseURL);
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState('');
  const [saved, setSaved] = useState<{ model: string; ms: number }>();
  const c = useConnection();
  const llm = (m = ''): LlmSettings => ({ ...DEFAULT_SETTINGS.llm, preset: p.preset, baseURL: baseURL.trim(), apiKey: apiKey.trim(), model: m });
  const busy = c.state.phase === 'listing' || c.state.phase === 'testing';
  const listed = c.state.phase !== 'idle' && c.state.phase !== 'listing' && !(c.state.phase === 'failed' && !c.models.length);

  const use = async () => {
    const chosen = model.trim();
    if (!chosen) return;
    const report = await c.test(llm(chosen));
    if (!report?.ok) return;
    setSaved({ model: chosen, ms: report.latencyMs ?? 0 });
    await p.onSave(llm(chosen), report.latencyMs ?? 0);
  };

  return (
    <form
      className="connect"
      onSubmit={(e) => {
        e.preventDefault();
        void (listed ? use() : c.list(llm()));
      }}
    >
      {p.editableUrl && (
        <div className="field">
          <label htmlFor={`${p.id}-url`}>{t('baseUrl')}</label>
          <input id={`${p.id}-url`} type="url" value={baseURL} onChange={(e) => setBaseURL(e.target.value)} />
        </div>
      )}
      {p.withKey && (
        <div className="field">
          <label htmlFor={`${p.id}-key`}>{t('apiKey')}</label>
          <input id={`${p.id}-key`} type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        </div>
      )}
      <div className="row">
        <button type="button" disabled={busy || !baseURL.trim()} onClick={() => void c.list(llm())}>
          {c.state.phase === 'listing' ? t('testing') : t('test')}
        </button>
      </div>
      {listed && (
        <div className="field">
          {c.models.length ? (
            <>
              <label htmlFor={`${p.id}-model`}>{t('modelsFound', { n: c.models.length })}</label>
              <select id={`${p.id}-model`} value={model} onChange={(e) => setModel(e.target.value)}>
                <option value="">{t('pickModelPrompt')}</option>
                {c.models.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </>
          ) : (
            <>
              <label htmlFor={`${p.id}-model`}>{t('noModelsListed')}</label>
              <input id={`${p.id}-model`} value={model} onChange={(e) => setModel(e.target.value)} />
            </>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={busy || !model.trim()}>
              {c.state.phase === 'testing' ? t('testing') : t('useModel')}
            </button>
          </div>
        </div>
      )}
      {saved && c.state.phase === 'ok' && (
        <p className="notice notice-ok" role="status" data-testid="setup-saved">
          {t('connectedSaved', saved)}
        </p>
      )}
      {c.state.phase === 'failed' && <ErrorNotice error={c.state.error} inForm />}
    </form>
  );
}
