/** The options page: one form over the settings schema, saved as a whole. */
import { useEffect, useState } from 'react';
import { loadSettings, saveSettings } from '@/lib/browser/settings-store';
import { browserUiLanguage } from '@/lib/browser/ui';
import { pickLanguage } from '@/lib/i18n/messages';
import { PROVIDER_PRESETS, SECTION_SCHEMAS, validateSettings, type LlmSettings, type Settings, type SettingsProblem } from '@/lib/settings/schema';
import { I18nProvider, useT } from '../i18n';
import { Field, NumberField, problemText, Toggle } from './fields';
import { ModelSection, type AfterTest } from './ModelSection';
import { PrivacySection } from './PrivacySection';
import { SearchSection } from './SearchSection';

export function OptionsApp() {
  const [settings, setSettings] = useState<Settings>();
  useEffect(() => {
    void loadSettings().then(setSettings);
  }, []);
  if (!settings) return null;
  const lang = pickLanguage(settings.ui.language, browserUiLanguage());
  return (
    <I18nProvider lang={lang}>
      <OptionsForm initial={settings} onSaved={setSettings} />
    </I18nProvider>
  );
}

const PIPELINE = SECTION_SCHEMAS.pipeline.shape;

/** A preset with no address yet shows its address (not an empty field with a grey example). */
function withPresetUrl(s: Settings): Settings {
  const p = s.llm.preset;
  if (s.llm.baseURL || p === 'custom' || p === 'builtin') return s;
  return { ...s, llm: { ...s.llm, baseURL: PROVIDER_PRESETS[p].baseURL } };
}

function OptionsForm({ initial, onSaved }: { initial: Settings; onSaved: (s: Settings) => void }) {
  const t = useT();
  const [s, setS] = useState<Settings>(() => withPresetUrl(initial));
  const [problems, setProblems] = useState<SettingsProblem[]>([]);
  const [saved, setSaved] = useState(false);
  const update = (f: (d: Settings) => Settings) => {
    setS((cur) => f(cur));
    setSaved(false);
  };
  const section =
    <K extends keyof Settings>(k: K) =>
    (patch: Partial<Settings[K]>) =>
      update((d) => ({ ...d, [k]: { ...d[k], ...patch } }));

  const save = async (next = s) => {
    const found = validateSettings(next);
    setProblems(found);
    if (found.length) return false;
    await saveSettings(next);
    setSaved(true);
    onSaved(next);
    return true;
  };

  /** A successful Test saves the form when everything in it is valid; otherwise Save is needed. */
  const onConnected = async (llm: LlmSettings): Promise<AfterTest> => {
    const next = { ...s, llm };
    setS(next);
    return validateSettings(next).length ? 'needs-save' : (await save(next)) ? 'saved' : 'needs-save';
  };

  return (
    <main>
      <form
        className="options"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h1>{t('optionsTitle')}</h1>
        <ModelSection settings={s} problems={problems} onChange={section('llm')} onProblems={setProblems} onConnected={onConnected} />
        <MethodSection pipeline={s.pipeline} problems={problems} onChange={section('pipeline')} />
        <SearchSection search={s.search} problems={problems} onChange={(id, patch) => update((d) => ({ ...d, search: { ...d.search, [id]: { ...d.search[id], ...patch } } }))} />
        <PrivacySection privacy={s.privacy} onChange={section('privacy')} />
        <LanguageSection language={s.ui.language} onChange={(language) => update((d) => ({ ...d, ui: { language } }))} />
        <div className="row sticky-actions">
          <button type="submit" className="primary">
            {t('save')}
          </button>
          {saved && (
            <span role="status" data-testid="saved">
              {t('saved')}
            </span>
          )}
        </div>
      </form>
    </main>
  );
}

/** How the method runs: the gate's threshold, steps, claims of a page, rounds, passages, and
 * speculative revision. */
function MethodSection({ pipeline, problems, onChange }: { pipeline: Settings['pipeline']; problems: SettingsProblem[]; onChange: (patch: Partial<Settings['pipeline']>) => void }) {
  const t = useT();
  const num = (key: Exclude<keyof typeof PIPELINE, 'speculate'>, label: Parameters<typeof t>[0], step?: number) => (
    <NumberField
      id={key === 'betaThreshold' ? 'beta' : key}
      label={t(label)}
      schema={PIPELINE[key]}
      value={pipeline[key]}
      step={step}
      error={problemText(t, problems, `pipeline.${key}`, PIPELINE[key])}
      onChange={(v) => onChange({ [key]: v })}
    />
  );
  return (
    <fieldset>
      <legend>{t('methodSection')}</legend>
      {num('betaThreshold', 'betaLabel', 0.05)}
      {num('maxSteps', 'maxStepsLabel')}
      {num('pageClaims', 'pageClaimsLabel')}
      {num('maxRounds', 'maxRoundsLabel')}
      {num('passagesPerStep', 'passagesLabel')}
      <Toggle id="speculate" label={t('speculateLabel')} checked={pipeline.speculate} onChange={(v) => onChange({ speculate: v })} />
      <p className="hint">{t('speculateHint')}</p>
    </fieldset>
  );
}

type Language = Settings['ui']['language'];

const languageName = (t: ReturnType<typeof useT>, l: Language) => (l === 'auto' ? t('languageAuto') : l === 'en' ? 'English' : '简体中文');

function LanguageSection({ language, onChange }: { language: Language; onChange: (l: Language) => void }) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('language')}</legend>
      <Field label={t('language')} id="language">
        <select id="language" value={language} onChange={(e) => onChange(e.target.value as Language)}>
          {SECTION_SCHEMAS.ui.shape.language.unwrap().options.map((l) => (
            <option key={l} value={l}>
              {languageName(t, l)}
            </option>
          ))}
        </select>
      </Field>
    </fieldset>
  );
}
