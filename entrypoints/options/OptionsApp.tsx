import { useEffect, useState, type ReactNode } from 'react';
import { browser } from 'wxt/browser';
import { request, RequestFailed } from '@/lib/browser/messaging';
import { loadSettings, saveSettings } from '@/lib/browser/settings-store';
import { pickLanguage, type MessageKey } from '@/lib/i18n/messages';
import type { ConnectionReport } from '@/lib/messages';
import { PROVIDER_PRESETS, validateSettings, type ProviderPreset, type Settings, type SettingsProblem } from '@/lib/settings/schema';
import { ErrorNotice } from '@/components/ErrorNotice';
import { BUILTIN_MODEL_ID, builtinAvailable } from '@/lib/llm/builtin-availability';
import { I18nProvider, useT } from '@/components/i18n';

export function OptionsApp() {
  const [settings, setSettings] = useState<Settings>();
  useEffect(() => {
    void loadSettings().then(setSettings);
  }, []);
  if (!settings) return null;
  const lang = pickLanguage(settings.ui.language, browser.i18n?.getUILanguage?.() ?? navigator.language);
  return (
    <I18nProvider lang={lang}>
      <OptionsForm initial={settings} onLanguage={(language) => setSettings({ ...settings, ui: { language } })} />
    </I18nProvider>
  );
}

const PROBLEM_KEYS: Record<string, MessageKey> = { required: 'fieldRequired', 'url-invalid': 'fieldUrl', 'url-scheme': 'fieldUrl' };

function OptionsForm({ initial, onLanguage }: { initial: Settings; onLanguage(l: Settings['ui']['language']): void }) {
  const t = useT();
  const [s, setS] = useState<Settings>(initial);
  const [problems, setProblems] = useState<SettingsProblem[]>([]);
  const [status, setStatus] = useState<'idle' | 'saved' | 'testing'>('idle');
  const [report, setReport] = useState<ConnectionReport>();
  const [models, setModels] = useState<string[]>([]);
  const [builtinReady, setBuiltinReady] = useState(false);
  useEffect(() => {
    void builtinAvailable().then(setBuiltinReady);
  }, []);

  const problemFor = (field: string) => {
    const p = problems.find((x) => x.field === field);
    if (!p) return undefined;
    const key = PROBLEM_KEYS[p.message];
    return key ? t(key) : t('fieldRange', { range: p.message.replace('range-', '').replace('-', '–') });
  };
  const update = (f: (d: Settings) => Settings) => {
    setS((cur) => f(cur));
    setStatus('idle');
  };
  const setLlm = (patch: Partial<Settings['llm']>) => update((d) => ({ ...d, llm: { ...d.llm, ...patch } }));
  const setPipeline = (patch: Partial<Settings['pipeline']>) => update((d) => ({ ...d, pipeline: { ...d.pipeline, ...patch } }));
  const setSearch = <K extends 'wikipedia' | 'searxng' | 'brave' | 'tavily'>(k: K, patch: Partial<Settings['search'][K]>) =>
    update((d) => ({ ...d, search: { ...d.search, [k]: { ...d.search[k], ...patch } } }));
  const setPrivacy = (patch: Partial<Settings['privacy']>) => update((d) => ({ ...d, privacy: { ...d.privacy, ...patch } }));
  const [domains, setDomains] = useState(initial.privacy.excludedDomains.join('\n'));
  const [dataStatus, setDataStatus] = useState('');

  const choosePreset = (preset: ProviderPreset) => {
    if (preset === 'builtin') {
      setLlm({ preset, baseURL: '', apiKey: '', model: BUILTIN_MODEL_ID });
      setReport(undefined);
      return;
    }
    const known = preset !== 'custom' ? PROVIDER_PRESETS[preset] : undefined;
    setLlm({ preset, baseURL: known ? known.baseURL : s.llm.baseURL, model: s.llm.model === BUILTIN_MODEL_ID ? '' : s.llm.model });
    setReport(undefined);
  };

  const save = async (): Promise<boolean> => {
    const found = validateSettings(s);
    setProblems(found);
    if (found.length) return false;
    await saveSettings(s);
    setStatus('saved');
    onLanguage(s.ui.language);
    return true;
  };

  const test = async () => {
    const found = validateSettings(s).filter((p) => p.field.startsWith('llm.'));
    setProblems(found);
    if (found.length) return;
    setStatus('testing');
    setReport(undefined);
    try {
      const r = await request('llm/test', { llm: s.llm });
      setReport(r);
      if (r.models.length) setModels(r.models);
    } catch (err) {
      setReport({ ok: false, models: [], error: err instanceof RequestFailed ? err.error : { code: 'unknown', message: String(err) } });
    }
    setStatus('idle');
  };

  return (
    <form
      className="options"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h1>{t('optionsTitle')}</h1>
      <fieldset>
        <legend>{t('modelSection')}</legend>
        <Field label={t('provider')} id="preset">
          <select id="preset" value={s.llm.preset} onChange={(e) => choosePreset(e.target.value as ProviderPreset)}>
            {Object.entries(PROVIDER_PRESETS).map(([k, p]) => (
              <option key={k} value={k}>
                {p.label}
              </option>
            ))}
            <option value="custom">{t('customProvider')}</option>
            {(builtinReady || s.llm.preset === 'builtin') && <option value="builtin">{t('builtinProvider')}</option>}
          </select>
        </Field>
        {s.llm.preset !== 'builtin' && (
        <>
        <Field label={t('baseUrl')} id="baseURL" error={problemFor('llm.baseURL')}>
          <input id="baseURL" type="url" value={s.llm.baseURL} placeholder="https://api.openai.com/v1" onChange={(e) => setLlm({ baseURL: e.target.value })} />
        </Field>
        <Field label={t('apiKey')} id="apiKey">
          <input id="apiKey" type="password" autoComplete="off" value={s.llm.apiKey} onChange={(e) => setLlm({ apiKey: e.target.value })} />
        </Field>
        <Field label={t('model')} id="model" error={problemFor('llm.model')}>
          <input id="model" list="model-list" value={s.llm.model} placeholder="gpt-4o-mini" onChange={(e) => setLlm({ model: e.target.value })} />
          <datalist id="model-list">
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </Field>
        <Field label={t('embeddingModel')} id="embeddingModel">
          <input id="embeddingModel" list="model-list" value={s.llm.embeddingModel} onChange={(e) => setLlm({ embeddingModel: e.target.value })} />
        </Field>
        </>
        )}
        <div className="row">
          <button type="button" onClick={() => void test()} disabled={status === 'testing'}>
            {status === 'testing' ? t('testing') : t('testConnection')}
          </button>
        </div>
        {report?.ok && (
          <p className="notice notice-ok" role="status" data-testid="test-ok">
            {t('testOk', { model: s.llm.model, ms: report.latencyMs ?? 0 })} {report.models.length ? t('testOkModels', { n: report.models.length }) : ''}
          </p>
        )}
        {report && !report.ok && report.error && <ErrorNotice error={report.error} />}
      </fieldset>

      <fieldset>
        <legend>{t('methodSection')}</legend>
        <Field label={t('betaLabel')} id="beta" error={problemFor('pipeline.betaThreshold')}>
          <input id="beta" type="number" min={0} max={1} step={0.05} value={s.pipeline.betaThreshold} onChange={(e) => setPipeline({ betaThreshold: Number(e.target.value) })} />
        </Field>
        <Field label={t('maxStepsLabel')} id="maxSteps" error={problemFor('pipeline.maxSteps')}>
          <input id="maxSteps" type="number" min={1} max={12} value={s.pipeline.maxSteps} onChange={(e) => setPipeline({ maxSteps: Number(e.target.value) })} />
        </Field>
        <Field label={t('maxRoundsLabel')} id="maxRounds" error={problemFor('pipeline.maxRounds')}>
          <input id="maxRounds" type="number" min={1} max={5} value={s.pipeline.maxRounds} onChange={(e) => setPipeline({ maxRounds: Number(e.target.value) })} />
        </Field>
        <Field label={t('passagesLabel')} id="passagesPerStep" error={problemFor('pipeline.passagesPerStep')}>
          <input id="passagesPerStep" type="number" min={1} max={12} value={s.pipeline.passagesPerStep} onChange={(e) => setPipeline({ passagesPerStep: Number(e.target.value) })} />
        </Field>
      </fieldset>

      <fieldset>
        <legend>{t('webSearch')}</legend>
        <Toggle id="wikipedia" label="Wikipedia" checked={s.search.wikipedia.enabled} onChange={(v) => setSearch('wikipedia', { enabled: v })} />
        <Field label={`Wikipedia — ${t('baseUrl')}`} id="wikipediaURL">
          <input id="wikipediaURL" value={s.search.wikipedia.baseURL} onChange={(e) => setSearch('wikipedia', { baseURL: e.target.value })} />
        </Field>
        <Toggle id="searxng" label="SearXNG" checked={s.search.searxng.enabled} onChange={(v) => setSearch('searxng', { enabled: v })} />
        {s.search.searxng.enabled && (
          <Field label={`SearXNG — ${t('baseUrl')}`} id="searxngURL" error={problemFor('search.searxng.baseURL')}>
            <input id="searxngURL" type="url" placeholder="https://searx.example.org" value={s.search.searxng.baseURL} onChange={(e) => setSearch('searxng', { baseURL: e.target.value })} />
          </Field>
        )}
        <Toggle id="brave" label="Brave Search API" checked={s.search.brave.enabled} onChange={(v) => setSearch('brave', { enabled: v })} />
        {s.search.brave.enabled && (
          <>
            <Field label={`Brave — ${t('apiKey')}`} id="braveKey" error={problemFor('search.brave.apiKey')}>
              <input id="braveKey" type="password" autoComplete="off" value={s.search.brave.apiKey} onChange={(e) => setSearch('brave', { apiKey: e.target.value })} />
            </Field>
            <Field label={`Brave — ${t('baseUrl')}`} id="braveURL">
              <input id="braveURL" type="url" value={s.search.brave.baseURL} onChange={(e) => setSearch('brave', { baseURL: e.target.value })} />
            </Field>
          </>
        )}
        <Toggle id="tavily" label="Tavily" checked={s.search.tavily.enabled} onChange={(v) => setSearch('tavily', { enabled: v })} />
        {s.search.tavily.enabled && (
          <>
            <Field label={`Tavily — ${t('apiKey')}`} id="tavilyKey" error={problemFor('search.tavily.apiKey')}>
              <input id="tavilyKey" type="password" autoComplete="off" value={s.search.tavily.apiKey} onChange={(e) => setSearch('tavily', { apiKey: e.target.value })} />
            </Field>
            <Field label={`Tavily — ${t('baseUrl')}`} id="tavilyURL">
              <input id="tavilyURL" type="url" value={s.search.tavily.baseURL} onChange={(e) => setSearch('tavily', { baseURL: e.target.value })} />
            </Field>
          </>
        )}
      </fieldset>

      <fieldset>
        <legend>{t('privacy')}</legend>
        <Field label={t('tabScope')} id="tabScope">
          <select id="tabScope" value={s.privacy.tabScope} onChange={(e) => setPrivacy({ tabScope: e.target.value as Settings['privacy']['tabScope'] })}>
            <option value="window">{t('tabScopeWindow')}</option>
            <option value="all">{t('tabScopeAll')}</option>
          </select>
        </Field>
        <Field label={t('excludedDomains')} id="excluded">
          <textarea
            id="excluded"
            rows={5}
            value={domains}
            onChange={(e) => {
              setDomains(e.target.value);
              setPrivacy({ excludedDomains: e.target.value.split(/[\s,]+/).map((d) => d.trim().toLowerCase()).filter(Boolean) });
            }}
          />
        </Field>
        <Toggle id="incognito" label={t('allowIncognito')} checked={s.privacy.allowIncognito} onChange={(v) => setPrivacy({ allowIncognito: v })} />
        <Field label={t('retention')} id="retention">
          <select id="retention" value={s.privacy.retentionDays} onChange={(e) => setPrivacy({ retentionDays: Number(e.target.value) })}>
            <option value={0}>{t('retentionForever')}</option>
            {[7, 30, 90, 365].map((d) => (
              <option key={d} value={d}>
                {t('retentionDays', { n: d })}
              </option>
            ))}
          </select>
        </Field>
        <div className="row">
          <button
            type="button"
            className="danger"
            onClick={() => {
              if (!confirm(t('confirmDeleteAll'))) return;
              void request('data/delete-all', {}).then(() => setDataStatus(t('deletedAll')));
            }}
          >
            {t('deleteAllData')}
          </button>
          <span role="status">{dataStatus}</span>
        </div>
      </fieldset>

      <fieldset>
        <legend>{t('language')}</legend>
        <Field label={t('language')} id="language">
          <select id="language" value={s.ui.language} onChange={(e) => update((d) => ({ ...d, ui: { language: e.target.value as Settings['ui']['language'] } }))}>
            <option value="auto">{t('languageAuto')}</option>
            <option value="en">English</option>
            <option value="zh-CN">简体中文</option>
          </select>
        </Field>
      </fieldset>

      <div className="row sticky-actions">
        <button type="submit" className="primary">
          {t('save')}
        </button>
        {status === 'saved' && (
          <span role="status" data-testid="saved">
            {t('saved')}
          </span>
        )}
      </div>
    </form>
  );
}

function Toggle({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange(v: boolean): void }) {
  return (
    <label className="checkbox" htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

function Field({ label, id, error, children }: { label: string; id: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
